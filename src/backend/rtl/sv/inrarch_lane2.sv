// One element of an elementwise kernel: the HLS library's scaled operators
// (inrarch/scaled.h, elementwise.h) bit for bit. Values are ap_fixed<W, W-F> raw bits
// (F fraction bits); a stream with exponent E holds value * 2^E. The wide accumulator
// A = ap_fixed<64, 64-FA> realigns operands and result with shifts that wrap (A's
// AP_WRAP), fit() floors into T and saturates to its range, setting ovf (array_stream.h).
// The emitter admits only types where A holds every T value and product exactly
// (FA >= F, 64 - FA >= 2 (W - F) + 8), so the unscaled operators, which skip A, give the
// same bits.

// OP 0: add, 1: sub, 2: mul, 12: mul in the fabric (scaled2<op, EA, EB, EO>); div (11) is
// inrarch_lane_div.
module inrarch_lane2 #(
    parameter int OP = 0,
    parameter int W  = 32,
    parameter int F  = 22,
    parameter int FA = 36,
    parameter int EA = 0,
    parameter int EB = 0,
    parameter int EO = 0
) (
    input  logic [W-1:0] a,
    input  logic [W-1:0] b,
    output logic [W-1:0] y,
    output logic         ovf
);
  // The lane codes (the OP column of src/dataflow/elementwise.def; a test checks them).
  /* verilator lint_off UNUSEDPARAM */
  localparam int OP_ADD = 0, OP_SUB = 1, OP_MUL = 2, OP_MUL_FABRIC = 12;
  /* verilator lint_on UNUSEDPARAM */
  logic [63:0] r;  // the result in A, before fit()
  logic r_ovf;     // A itself saturated (op_add/op_sub's fit into A)
  if (OP == OP_MUL || OP == OP_MUL_FABRIC) begin : g_mul
    // The exact product (2F fraction bits) into A: A(a * b), then realigned.
    logic signed [63:0] p;
    logic [63:0] pa;
    if (OP == OP_MUL_FABRIC) begin : g_fabric
      // Where the search moved the product out of the DSPs (op_mul_fabric): shift and add,
      // which Yosys builds from LUTs and carry chains where it would map a `*` to DSP48E2s.
      // Row i adds b[i]·a to the running high part s (W + 1 bits) and retires the sum's low
      // bit as product bit i, so each row is a (W + 2)-bit adder, not a 64-bit one. b's
      // sign bit weighs -2^(W-1): the last row subtracts. |s| < 2^W throughout.
      logic signed [W:0] s;
      logic signed [W+1:0] t;
      logic [W-1:0] low;
      always_comb begin
        s = '0;
        low = '0;
        for (int i = 0; i < W; i = i + 1) begin
          t = i == W - 1 ? (W + 2)'(s) - (b[i] ? (W + 2)'($signed(a)) : '0)
                         : (W + 2)'(s) + (b[i] ? (W + 2)'($signed(a)) : '0);
          low[i] = t[0];
          s = t[W+1:1];
        end
        p = 64'($signed({s, low}));
      end
    end else begin : g_dsp
      assign p = 64'($signed(a)) * 64'($signed(b));
    end
    if (FA >= 2 * F) begin : g_up
      assign pa = p << (FA - 2 * F);
    end else begin : g_down
      assign pa = p >>> (2 * F - FA);
    end
    inrarch_shift #(.S(EO - EA - EB)) u_shift (.x(pa), .y(r));
    assign r_ovf = 1'b0;
  end else begin : g_sum
    // Both operands into A at the result's exponent, summed exactly, saturated to A.
    logic [63:0] xa, xb;
    logic signed [64:0] s;
    inrarch_shift #(.S(EO - EA + FA - F)) u_a (.x(64'($signed(a))), .y(xa));
    inrarch_shift #(.S(EO - EB + FA - F)) u_b (.x(64'($signed(b))), .y(xb));
    assign s = OP == OP_SUB ? 65'($signed(xa)) - 65'($signed(xb)) : 65'($signed(xa)) + 65'($signed(xb));
    assign r_ovf = s[64] != s[63];
    assign r = !r_ovf ? s[63:0] : s[64] ? {1'b1, 63'b0} : {1'b0, {63{1'b1}}};
  end
  logic f_ovf;
  inrarch_fit #(.W(W), .F(F), .FA(FA)) u_fit (.x(r), .y(y), .ovf(f_ovf));
  assign ovf = r_ovf || f_ovf;
endmodule
