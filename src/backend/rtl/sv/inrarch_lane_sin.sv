// OP 6: sin, 7: cos (scaled1<op_sin/op_cos, EA, EO>, kOnTrueValues): the operand to its true
// value in T (A, shift by -EA, fit), then the HLS library's rom_sin/rom_cos (fixed_math.h):
// the phase frac(x / 2π) as 32 bits, x · round(2^65/π) · 2^-66 with the product's bits
// below 2^-32 floored and those above 1 wrapped (cos adds a quarter turn); the top 2 bits
// pick the quadrant, the next 10 index the quarter-wave table (1025 entries, Q1.31),
// the low 20 interpolate; the result, exact with 51 fraction bits, floors into T; then A,
// a shift by EO, and fit.
//
// Pipelined (docs/rtl.md, "Pipelined lanes"): the kernel's depth D (elementwise.def) leaves
// D - 1 register stages to the lane, taking their input on `en`; the four cuts are after the
// input fit, after the phase product, the table read (registered: a block-RAM read) and the
// interpolation, the output shift and fit following the last. D = 5 registers every cut;
// a smaller D leaves the later cuts as wires (D = 1: combinational, the table read
// asynchronously), a larger one adds the rest after the interpolation.
module inrarch_lane_sin #(
    parameter int OP = 6,
    parameter int W  = 32,
    parameter int F  = 22,
    parameter int FA = 36,
    parameter int EA = 0,
    parameter int EO = 0,
    parameter int D  = 1,
    parameter TABLE  = "inrarch_sin_rom.hex"
) (
    input  logic         clk,
    input  logic         en,
    input  logic [W-1:0] a,
    output logic [W-1:0] y,
    output logic         ovf
);
  // The lane codes (the OP column of src/dataflow/elementwise.def; a test checks them).
  /* verilator lint_off UNUSEDPARAM */
  localparam int OP_SIN = 6, OP_COS = 7;
  /* verilator lint_on UNUSEDPARAM */
  logic [31:0] rom[1024];
  initial $readmemh(TABLE, rom);
  localparam logic [31:0] LAST = 32'h8000_0000;  // entry 1024, sin(π/2) = 1.0 in Q1.31

  localparam int G = D - 1;  // the lane's register stages, cut k registered when k < G
  localparam int NR3 = G > 4 ? G - 4 : 0;  // after the interpolation: the rest

  // The operand's true value in T.
  logic [63:0] xa;
  logic [W-1:0] x0, x;
  logic x_ovf0, x_ovf1;
  inrarch_shift #(.S(FA - F - EA)) u_in (.x(64'($signed(a))), .y(xa));
  inrarch_fit #(.W(W), .F(F), .FA(FA)) u_fit_in (.x(xa), .y(x0), .ovf(x_ovf0));
  inrarch_delay #(.WIDTH(W + 1), .N(G > 0 ? 1 : 0)) u_cut0 (.clk, .en, .x({x_ovf0, x0}), .y({x_ovf1, x}));

  // The phase: bits [F+34 +: 32] of x · k (F + 66 fraction bits), wrapped; the product's
  // low F + 66 bits are exact modulo 2^(F+66), which is all the phase needs.
  localparam logic [64:0] K = 65'h0A2F9836E4E44152A;
  logic signed [W+65:0] prod;  // exact: a W-bit signed operand times 66 bits
  logic [31:0] phase0, phase;
  logic x_ovf2;
  assign prod   = $signed(x) * $signed({1'b0, K});
  assign phase0 = 32'(prod >> (F + 34)) + (OP == OP_COS ? 32'h4000_0000 : 32'h0);
  inrarch_delay #(.WIDTH(33), .N(G > 1 ? 1 : 0)) u_cut1 (.clk, .en, .x({x_ovf1, phase0}), .y({x_ovf2, phase}));

  // Quadrant and table index; the two neighbouring entries, read in the cut's register
  // (a registered read: a block RAM) or as wires. TABLE holds entries 0 .. 1023, a block
  // RAM's depth (1,025 words would not map to one); entry 1024 is LAST.
  logic [29:0] u0;
  logic [30:0] u;  // 0 .. 2^30
  logic [10:0] idx, idx1;
  logic [31:0] q0, q1, y0, y1;
  logic [19:0] lo;
  logic neg, top0, top1, x_ovf3;
  assign u0   = phase[29:0];
  assign u    = phase[30] ? 31'h4000_0000 - {1'b0, u0} : {1'b0, u0};
  assign idx  = u[30:20];
  assign idx1 = idx < 11'd1024 ? idx + 11'd1 : idx;
  if (G > 2) begin : g_read_reg
    always_ff @(posedge clk) begin
      if (en) begin
        q0 <= rom[idx[9:0]];
        q1 <= rom[idx1[9:0]];
      end
    end
  end else begin : g_read_comb
    assign q0 = rom[idx[9:0]];
    assign q1 = rom[idx1[9:0]];
  end
  inrarch_delay #(.WIDTH(24), .N(G > 2 ? 1 : 0)) u_cut2 (
      .clk, .en, .x({x_ovf2, phase[31], idx[10], idx1[10], u[19:0]}), .y({x_ovf3, neg, top0, top1, lo}));
  assign y0 = top0 ? LAST : q0;
  assign y1 = top1 ? LAST : q1;

  // The interpolation, exact with 51 fraction bits.
  logic signed [63:0] raw0, raw;
  logic neg4, x_ovf4;
  logic signed [32:0] dy;      // y1 - y0
  logic signed [53:0] slope;   // dy · lo, exact: 33 x 21 bits signed
  assign dy    = $signed({1'b0, y1}) - $signed({1'b0, y0});
  assign slope = dy * $signed({1'b0, lo});
  assign raw0  = (64'(y0) << 20) + 64'(slope);
  inrarch_delay #(.WIDTH(66), .N(G > 3 ? 1 : 0)) u_cut3 (.clk, .en, .x({x_ovf3, neg, raw0}), .y({x_ovf4, neg4, raw}));

  // Into T (floor from 51 fraction bits), then to the output's exponent.
  logic signed [63:0] sraw, sraw_d;
  logic x_ovf5;
  assign sraw = neg4 ? -raw : raw;
  inrarch_delay #(.WIDTH(65), .N(NR3)) u_rest (.clk, .en, .x({x_ovf4, sraw}), .y({x_ovf5, sraw_d}));
  logic [W-1:0] s;
  logic [63:0] sa;
  logic s_ovf;
  assign s = W'(sraw_d >>> (51 - F));
  inrarch_shift #(.S(FA - F + EO)) u_out (.x(64'($signed(s))), .y(sa));
  inrarch_fit #(.W(W), .F(F), .FA(FA)) u_fit_out (.x(sa), .y(y), .ovf(s_ovf));
  assign ovf = x_ovf5 || s_ovf;
endmodule
