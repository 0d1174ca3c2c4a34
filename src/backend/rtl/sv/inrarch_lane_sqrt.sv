// OP 13: sqrt (scaled1<op_sqrt, EA, EO>, kOnTrueValues): the operand to its true value in T
// (A, shift by -EA, fit), then fixed_sqrt.h's fx_sqrt, then A, a shift by EO, and fit.
// fx_sqrt: x <= 0 gives 0; otherwise the root floor(sqrt(r * 2^S)) of the radicand
// D = r << S (r the raw bits, S = F where W - 1 + F <= 64), shifted left by (F - S) / 2:
// floor(sqrt(x) * 2^F) with F fraction bits. The integer root is the non-restoring digit
// recurrence: NQ = ceil(NB / 2) stages for an NB-bit radicand, each shifting the next two
// radicand bits into the partial remainder r and subtracting 4q + 1 (r >= 0) or adding
// 4q + 3 (r < 0), then appending the root bit r >= 0. r is never restored. Each stage is
// one (NQ + 4)-bit adder; the NQ stages are combinational, as the kernel's one-step
// schedule (L = 1) has them.
module inrarch_lane_sqrt #(
    parameter int W  = 32,
    parameter int F  = 22,
    parameter int FA = 36,
    parameter int EA = 0,
    parameter int EO = 0
) (
    input  logic [W-1:0] a,
    output logic [W-1:0] y,
    output logic         ovf
);
  // The lane code (the OP column of src/dataflow/elementwise.def; a test checks it): inrarch_ew1
  // instantiates this lane for OP == OP_SQRT.
  /* verilator lint_off UNUSEDPARAM */
  localparam int OP_SQRT = 13;
  /* verilator lint_on UNUSEDPARAM */
  localparam int ROOM = 65 - W;
  localparam int S = F <= ROOM ? F : F - ((F - ROOM + 1) / 2) * 2;  // fixed_sqrt.h sqrt_shift
  localparam int NB = W - 1 + S;
  localparam int NQ = (NB + 1) / 2;
  localparam int RW = NQ + 4;  // |r| < 2^(NQ + 3) at every step

  // The operand's true value in T.
  logic [63:0] xa;
  logic [W-1:0] x;
  logic x_ovf;
  inrarch_shift #(.S(FA - F - EA)) u_in (.x(64'($signed(a))), .y(xa));
  inrarch_fit #(.W(W), .F(F), .FA(FA)) u_fit_in (.x(xa), .y(x), .ovf(x_ovf));

  // The recurrence, two radicand bits a stage from the top.
  logic [63:0] d;
  logic [NQ-1:0] q;
  logic signed [RW-1:0] r, pair, t;
  always_comb begin
    d = 64'(x) << S;
    q = '0;
    r = '0;
    for (int i = NQ - 1; i >= 0; i = i - 1) begin
      pair = RW'((d >> (2 * i)) & 64'd3);
      t = RW'(q) <<< 2;
      r = !r[RW-1] ? (r <<< 2) + pair - (t | RW'(1)) : (r <<< 2) + pair + (t | RW'(3));
      q = (q << 1) | NQ'(!r[RW-1]);
    end
  end

  logic pos;
  logic [W-1:0] s;  // fx_sqrt's result in T
  logic [63:0] sa;
  logic s_ovf;
  assign pos = !x[W-1] && x != '0;
  assign s = pos ? W'(64'(q) << ((F - S) / 2)) : '0;
  inrarch_shift #(.S(FA - F + EO)) u_out (.x(64'($signed(s))), .y(sa));
  inrarch_fit #(.W(W), .F(F), .FA(FA)) u_fit_out (.x(sa), .y(y), .ovf(s_ovf));
  assign ovf = x_ovf || s_ovf;
endmodule
