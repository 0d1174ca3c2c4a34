// The exact product of two signed W-bit values in the fabric, a shift-and-add row a
// stage (stages advance on `en`; p is the product of the operands of W fires ago), where
// a `*` would map to DSP48E2s. Row i adds the partial product b[i]·a to the running high
// part s (W + 1 bits) and retires the sum's low bit as product bit i, so each row is a
// (W + 2)-bit adder, not a 64-bit one. b's sign bit weighs -2^(W-1): the last row
// subtracts. |s| < 2^W throughout. Each stage also forms the next row's partial product
// into a register, so a row's adder starts at flip-flops: the delayed operand bits may
// sit in shift-register LUTs (SRL), whose clock-to-output is four times a flip-flop's.
module inrarch_mul_rows #(
    parameter int W = 32
) (
    input  logic                clk,
    input  logic                en,
    input  logic [W-1:0]        a,
    input  logic [W-1:0]        b,
    output logic signed [63:0]  p
);
  logic signed [W:0] s[W];  // after row i: the high part,
  logic [W-1:0] low[W];     // product bits 0 … i (above them: zeros),
  logic [W-1:0] pp[W];      // row i + 1's partial product,
  logic [W-1:0] x[W], m[W];  // the multiplicand and the multiplier
  for (genvar i = 0; i < W; i = i + 1) begin : g_row
    logic signed [W:0] s_in;
    logic [W-1:0] low_in, pp_in, x_in, m_in;
    logic signed [W+1:0] t;
    if (i == 0) begin : g_first
      assign {s_in, low_in, x_in, m_in} = {(W + 1)'(0), W'(0), a, b};
      assign pp_in = b[0] ? a : '0;
    end else begin : g_next
      assign {s_in, low_in, x_in, m_in} = {s[i-1], low[i-1], x[i-1], m[i-1]};
      assign pp_in = pp[i-1];
    end
    if (i == W - 1) begin : g_sign
      assign t = (W + 2)'(s_in) - (W + 2)'($signed(pp_in));
    end else begin : g_plain
      assign t = (W + 2)'(s_in) + (W + 2)'($signed(pp_in));
    end
    always_ff @(posedge clk)
      if (en) begin
        s[i] <= t[W+1:1];
        low[i] <= low_in | (W'(t[0]) << i);
        pp[i] <= i + 1 < W && m_in[(i+1)%W] ? x_in : '0;
        x[i] <= x_in;
        m[i] <= m_in;
      end
  end
  assign p = 64'($signed({s[W-1], low[W-1]}));
endmodule
