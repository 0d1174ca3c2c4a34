// One element of an elementwise kernel: the HLS library's scaled operators
// (inrarch/scaled.h, elementwise.h) bit for bit. Values are ap_fixed<W, W-F> raw bits
// (F fraction bits); a stream with exponent E holds value * 2^E. The wide accumulator
// A = ap_fixed<64, 64-FA> realigns operands and result with shifts that wrap (A's
// AP_WRAP), fit() floors into T and saturates to its range, setting ovf (array_stream.h).
// The emitter admits only types where A holds every T value and product exactly
// (FA >= F, 64 - FA >= 2 (W - F) + 8), so the unscaled operators, which skip A, give the
// same bits.
//
// Pipelined so that no stage holds more than a 33-bit carry chain or a few LUT levels
// (docs/rtl.md, "Pipelined lanes"): the stages advance on `en`, and y / ovf are the
// element of the beat that entered D - 1 fires ago, D being the op's depth column of
// src/dataflow/elementwise.def (add, sub: 5; mul: 4 at W <= 18, else 7; mul in the
// fabric: mul_fabric_depth, 11 at 32 bits, 7 at 16).
//   add, sub  operands | low 32 bits of the sum | high 33 bits | the fit's flags | y
//   mul       operands | the product (inrarch_mul_dsp: 1 or 4 stages) | the fit's flags | y
//   fabric    operands | a tree of adders over the partial products (inrarch_mul_tree) |
//             the fit's flags | y

// OP 0: add, 1: sub, 2: mul, 12: mul in the fabric (scaled2<op, EA, EB, EO>); div (11) is
// inrarch_lane_div.
module inrarch_lane2 #(
    parameter int OP = 0,
    parameter int W  = 32,
    parameter int F  = 22,
    parameter int FA = 36,
    parameter int EA = 0,
    parameter int EB = 0,
    parameter int EO = 0,
    parameter int D  = 5   // the kernel's depth: the stages below, more of them delay y
) (
    input  logic         clk,
    input  logic         en,
    input  logic [W-1:0] a,
    input  logic [W-1:0] b,
    output logic [W-1:0] y,
    output logic         ovf
);
  // The lane codes (the OP column of src/dataflow/elementwise.def; a test checks them).
  /* verilator lint_off UNUSEDPARAM */
  localparam int OP_ADD = 0, OP_SUB = 1, OP_MUL = 2, OP_MUL_FABRIC = 12;
  /* verilator lint_on UNUSEDPARAM */
  logic [W-1:0] a1, b1;  // stage 1: the operands
  always_ff @(posedge clk) if (en) {a1, b1} <= {a, b};
  logic [63:0] r;  // the result in A, before fit(), in the stage before the flags
  logic r_ovf;     // A itself saturated (op_add/op_sub's fit into A)
  logic r_neg;     // and then the sign it saturated to
  if (OP == OP_MUL || OP == OP_MUL_FABRIC) begin : g_mul
    // The exact product (2F fraction bits) into A: A(a * b), then realigned.
    logic signed [63:0] p;
    logic [63:0] pa;
    if (OP == OP_MUL_FABRIC) begin : g_fabric
      inrarch_mul_tree #(.W(W), .D(D - 3)) u_tree (.clk, .en, .a(a1), .b(b1), .p);
    end else begin : g_dsp
      inrarch_mul_dsp #(.W(W)) u_dsp (.clk, .en, .a(a1), .b(b1), .p);
    end
    if (FA >= 2 * F) begin : g_up
      assign pa = p << (FA - 2 * F);
    end else begin : g_down
      assign pa = p >>> (2 * F - FA);
    end
    inrarch_shift #(.S(EO - EA - EB)) u_shift (.x(pa), .y(r));
    assign r_ovf = 1'b0;
    assign r_neg = 1'b0;
  end else begin : g_sum
    // Both operands into A at the result's exponent, summed exactly (a 65-bit sum in two
    // halves, x - y as x + ~y + 1), saturated to A.
    logic [63:0] xa, xb, yb;
    logic sub;
    assign sub = OP == OP_SUB;
    // The shifts inline (inrarch_shift's arithmetic), not as instances: a synthesis that
    // keeps the hierarchy (`inrarch synth`'s classes) would not see the shifted-in zeros and
    // the sign's copies through a module's ports, and registered all 64 bits of each half
    // (265 flip-flops a lane at 24 bits where 127 are needed).
    localparam int SA = EO - EA + FA - F, SB = EO - EB + FA - F;
    logic signed [63:0] a64, b64;
    assign a64 = 64'($signed(a1));
    assign b64 = 64'($signed(b1));
    if (SA >= 0) begin : g_a_left
      assign xa = a64 << SA;
    end else begin : g_a_right
      assign xa = a64 >>> (-SA);
    end
    if (SB >= 0) begin : g_b_left
      assign xb = b64 << SB;
    end else begin : g_b_right
      assign xb = b64 >>> (-SB);
    end
    assign yb = sub ? ~xb : xb;
    logic [32:0] low;      // stage 2: the low half with its carry,
    logic [31:0] xh, yh;   // and the high halves
    always_ff @(posedge clk)
      if (en) begin
        low <= {1'b0, xa[31:0]} + {1'b0, yb[31:0]} + 33'(sub);
        {xh, yh} <= {xa[63:32], yb[63:32]};
      end
    logic [64:0] s;        // stage 3: the sum
    always_ff @(posedge clk)
      if (en) s <= {33'($signed(xh)) + 33'($signed(yh)) + 33'(low[32]), low[31:0]};
    assign r_ovf = s[64] != s[63];
    assign r_neg = s[64];
    assign r = s[63:0];
  end
  // The flags stage (inrarch_fit_stage): a saturated A fits to T's bound of its sign (its
  // shifted value is beyond every W-bit one), otherwise fit().
  logic sat_a, neg_a, f_ovf;
  logic [W-1:0] f_y;
  inrarch_fit_stage #(.W(W), .F(F), .FA(FA)) u_fit (.clk, .en, .x(r), .sat(1'b0), .y(f_y), .ovf(f_ovf));
  always_ff @(posedge clk) if (en) {sat_a, neg_a} <= {r_ovf, r_neg};
  localparam logic [W-1:0] MIN = {1'b1, {(W - 1) {1'b0}}};
  localparam logic [W-1:0] MAX = {1'b0, {(W - 1) {1'b1}}};
  // The lane's own depth (its stages and the result register); a kernel of a deeper D (a
  // design lowered for wider elements than this W) delays the result by the difference.
  localparam int OWN = OP == OP_MUL_FABRIC ? D : OP == OP_MUL ? (W <= 18 ? 4 : 7) : 5;
  initial if (D < OWN) $fatal(1, "inrarch_lane2: depth %0d is below the lane's %0d stages", D, OWN);
  logic [W-1:0] y0;
  logic ovf0;
  assign y0   = sat_a ? (neg_a ? MIN : MAX) : f_y;
  assign ovf0 = sat_a || f_ovf;
  inrarch_delay #(.WIDTH(W + 1), .N(D > OWN ? D - OWN : 0)) u_pad (.clk, .en, .x({ovf0, y0}), .y({ovf, y}));
endmodule
