// OP 6: sin, 7: cos (scaled1<op_sin/op_cos, EA, EO>, kOnTrueValues): the operand to its true
// value in T (A, shift by -EA, fit), then the HLS library's rom_sin/rom_cos (fixed_math.h):
// the phase frac(x / 2π) as 32 bits, x · round(2^65/π) · 2^-66 with the product's bits
// below 2^-32 floored and those above 1 wrapped (cos adds a quarter turn); the top 2 bits
// pick the quadrant, the next 10 index the quarter-wave table TABLE (1025 entries, Q1.31),
// the low 20 interpolate; the result, exact with 51 fraction bits, floors into T; then A,
// a shift by EO, and fit.
module inrarch_lane_sin #(
    parameter int OP = 6,
    parameter int W  = 32,
    parameter int F  = 22,
    parameter int FA = 36,
    parameter int EA = 0,
    parameter int EO = 0,
    parameter TABLE  = "inrarch_sin_rom.hex"
) (
    input  logic [W-1:0] a,
    output logic [W-1:0] y,
    output logic         ovf
);
  // The lane codes (the OP column of src/dataflow/elementwise.def; a test checks them).
  /* verilator lint_off UNUSEDPARAM */
  localparam int OP_SIN = 6, OP_COS = 7;
  /* verilator lint_on UNUSEDPARAM */
  logic [31:0] rom[1025];
  initial $readmemh(TABLE, rom);

  // The operand's true value in T.
  logic [63:0] xa;
  logic [W-1:0] x;
  logic x_ovf;
  inrarch_shift #(.S(FA - F - EA)) u_in (.x(64'($signed(a))), .y(xa));
  inrarch_fit #(.W(W), .F(F), .FA(FA)) u_fit_in (.x(xa), .y(x), .ovf(x_ovf));

  // The phase: bits [F+34 +: 32] of x · k (F + 66 fraction bits), wrapped; the product's
  // low F + 66 bits are exact modulo 2^(F+66), which is all the phase needs.
  localparam logic [64:0] K = 65'h0A2F9836E4E44152A;
  logic [F+65:0] prod;
  logic [31:0] phase;
  assign prod  = (F + 66)'($signed(x)) * (F + 66)'(K);
  assign phase = 32'(prod >> (F + 34)) + (OP == OP_COS ? 32'h4000_0000 : 32'h0);

  // Quadrant, table index, interpolation.
  logic [29:0] u0;
  logic [30:0] u;  // 0 .. 2^30
  logic [10:0] idx;
  logic [31:0] y0, y1;
  logic signed [63:0] raw, sraw;
  assign u0   = phase[29:0];
  assign u    = phase[30] ? 31'h4000_0000 - {1'b0, u0} : {1'b0, u0};
  assign idx  = u[30:20];
  assign y0   = rom[idx];
  assign y1   = rom[idx < 11'd1024 ? idx + 11'd1 : idx];
  assign raw  = (64'(y0) << 20) + (64'($signed({1'b0, y1})) - 64'($signed({1'b0, y0}))) * 64'(u[19:0]);
  assign sraw = phase[31] ? -raw : raw;

  // Into T (floor from 51 fraction bits), then to the output's exponent.
  logic [W-1:0] s;
  logic [63:0] sa;
  logic s_ovf;
  assign s = W'(sraw >>> (51 - F));
  inrarch_shift #(.S(FA - F + EO)) u_out (.x(64'($signed(s))), .y(sa));
  inrarch_fit #(.W(W), .F(F), .FA(FA)) u_fit_out (.x(sa), .y(y), .ovf(s_ovf));
  assign ovf = x_ovf || s_ovf;
endmodule
