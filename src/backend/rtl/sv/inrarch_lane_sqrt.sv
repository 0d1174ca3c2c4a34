// OP 13: sqrt (scaled1<op_sqrt, EA, EO>, kOnTrueValues): the operand to its true value in T
// (A, shift by -EA, fit), then fixed_sqrt.h's fx_sqrt, then A, a shift by EO, and fit.
// fx_sqrt: x <= 0 gives 0; otherwise the root floor(sqrt(r * 2^S)) of the radicand
// D = r << S (r the raw bits, S = F where W - 1 + F <= 64), shifted left by (F - S) / 2:
// floor(sqrt(x) * 2^F) with F fraction bits. The integer root is the non-restoring digit
// recurrence: NQ = ceil(NB / 2) stages for an NB-bit radicand, each shifting the next two
// radicand bits into the partial remainder r and subtracting 4q + 1 (r >= 0) or adding
// 4q + 3 (r < 0), then appending the root bit r >= 0. r is never restored. Each stage is
// one (NQ + 4)-bit adder.
//
// Pipelined (docs/rtl.md, "Pipelined lanes"): the kernel's pipeline depth D (elementwise.def's
// sqrt_depth) leaves D - 1 register stages to the lane, each taking its input on `en` (the
// kernel's step). They are spread over the NQ stages, stage k ending in
// floor((k+1)(D-1)/NQ) - floor(k(D-1)/NQ) of them, so no two registers hold more than
// ceil(NQ / (D - 1)) adders between them; the input fit rides with the first stages and the
// output shift and fit follow the last register, before the kernel's result register.
// D = 1: combinational.
module inrarch_lane_sqrt #(
    parameter int W  = 32,
    parameter int F  = 22,
    parameter int FA = 36,
    parameter int EA = 0,
    parameter int EO = 0,
    parameter int D  = 1
) (
    input  logic         clk,
    input  logic         en,
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
  localparam int G = D - 1;    // the lane's register stages
  // A stage's state: {x_ovf, pos, the radicand's 2NQ bits, q, r}.
  localparam int SW = 2 + 2 * NQ + NQ + RW;

  // The operand's true value in T.
  logic [63:0] xa;
  logic [W-1:0] x;
  logic x_ovf;
  inrarch_shift #(.S(FA - F - EA)) u_in (.x(64'($signed(a))), .y(xa));
  inrarch_fit #(.W(W), .F(F), .FA(FA)) u_fit_in (.x(xa), .y(x), .ovf(x_ovf));

  // The recurrence, two radicand bits a stage from the top; st[k] is the state entering stage k.
  logic [2*NQ-1:0] d;
  logic [(NQ+1)*SW-1:0] st;
  assign d = (2 * NQ)'(64'(x) << S);
  assign st[0+:SW] = {x_ovf, !x[W-1] && x != '0, d, NQ'(0), RW'(0)};
  for (genvar k = 0; k < NQ; k = k + 1) begin : g_stage
    localparam int I = NQ - 1 - k;  // the radicand pair this stage takes
    localparam int NR = ((k + 1) * G) / NQ - (k * G) / NQ;
    logic [SW-1:0] s_in, s_out;
    logic [2*NQ-1:0] dk;
    logic [NQ-1:0] q, q_next;
    logic signed [RW-1:0] r, r_next, pair, t;
    assign s_in = st[k*SW+:SW];
    assign {dk, q, r} = s_in[SW-3:0];
    always_comb begin
      pair = RW'((dk >> (2 * I)) & (2 * NQ)'(3));
      t = RW'(q) <<< 2;
      r_next = !r[RW-1] ? (r <<< 2) + pair - (t | RW'(1)) : (r <<< 2) + pair + (t | RW'(3));
      q_next = (q << 1) | NQ'(!r_next[RW-1]);
    end
    assign s_out = {s_in[SW-1:SW-2], dk, q_next, r_next};
    inrarch_delay #(.WIDTH(SW), .N(NR)) u_reg (.clk, .en, .x(s_out), .y(st[(k+1)*SW+:SW]));
  end

  /* verilator lint_off UNUSEDSIGNAL */
  logic [SW-1:0] last;  // its radicand and remainder are spent
  /* verilator lint_on UNUSEDSIGNAL */
  logic [NQ-1:0] root;
  logic pos, in_ovf;
  assign last = st[NQ*SW+:SW];
  assign {in_ovf, pos} = last[SW-1:SW-2];
  assign root = last[RW+:NQ];
  logic [W-1:0] s;  // fx_sqrt's result in T
  logic [63:0] sa;
  logic s_ovf;
  assign s = pos ? W'(64'(root) << ((F - S) / 2)) : '0;
  inrarch_shift #(.S(FA - F + EO)) u_out (.x(64'($signed(s))), .y(sa));
  inrarch_fit #(.W(W), .F(F), .FA(FA)) u_fit_out (.x(sa), .y(y), .ovf(s_ovf));
  assign ovf = in_ovf || s_ovf;
endmodule
