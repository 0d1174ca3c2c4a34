// OP 11: div (scaled2<op_div, EA, EB, EO>): the ap_fixed quotient (a << F) / b, truncated
// toward zero (0 for b = 0, as the compat headers give), fit into T; then A, a shift by
// EO - EA + EB (kQuotient), and fit. The quotient is a restoring division of magnitudes,
// one quotient bit a stage: N = |a << F| (64 bits, wrapping as A does), V = |b| <= 2^(W-1).
// When N >= V * 2^W (`big`) the quotient saturates T whatever its low bits, so W stages give
// every quotient that fits: the remainder starts at N >> W (< V) and stage k takes bit
// W - 1 - k of N, subtracting V when it can (a (W + 1)-bit subtract). The signed quotient
// ±q, or ±2^W when big, then fits T exactly as the 64-bit quotient would.
//
// Pipelined (docs/rtl.md, "Pipelined lanes"): D - 1 register stages (D, elementwise.def's
// div_depth) taking their input on `en`, spread over the W stages as inrarch_lane_sqrt
// spreads its own; the magnitudes, signs and `big` ride with the first stages and the fits
// follow the last register. D = 1: combinational.
module inrarch_lane_div #(
    parameter int W  = 32,
    parameter int F  = 22,
    parameter int FA = 36,
    parameter int EA = 0,
    parameter int EB = 0,
    parameter int EO = 0,
    parameter int D  = 1
) (
    input  logic         clk,
    input  logic         en,
    input  logic [W-1:0] a,
    input  logic [W-1:0] b,
    output logic [W-1:0] y,
    output logic         ovf
);
  // The lane code (the OP column of src/dataflow/elementwise.def; a test checks it): inrarch_ew2
  // and inrarch_ew2r instantiate this lane for OP == OP_DIV.
  /* verilator lint_off UNUSEDPARAM */
  localparam int OP_DIV = 11;
  /* verilator lint_on UNUSEDPARAM */
  localparam int G = D - 1;     // the lane's register stages
  localparam int SW = 3 + 4 * W;  // a stage's state: {zero, big, neg, N's low W bits, V, q, r}

  logic signed [63:0] num, den;
  logic [63:0] n_mag, v_mag, r0;
  logic zero, big, neg;
  assign num   = 64'($signed(a)) <<< F;
  assign den   = 64'($signed(b));
  assign zero  = den == 64'sd0;
  assign neg   = num[63] ^ den[63];
  assign n_mag = num[63] ? 64'(-num) : 64'(num);
  assign v_mag = den[63] ? 64'(-den) : 64'(den);
  assign r0    = n_mag >> W;
  assign big   = r0 >= v_mag;

  logic [(W+1)*SW-1:0] st;  // st[k]: the state entering stage k
  assign st[0+:SW] = {zero, big, neg, n_mag[W-1:0], v_mag[W-1:0], W'(0), r0[W-1:0]};
  for (genvar k = 0; k < W; k = k + 1) begin : g_stage
    localparam int I = W - 1 - k;  // the bit of N this stage takes
    localparam int NR = ((k + 1) * G) / W - (k * G) / W;
    logic [SW-1:0] s_in, s_out;
    /* verilator lint_off UNUSEDSIGNAL */
    logic [W-1:0] nk, v, q, r, r_next;  // q's top bit leaves as the next bit comes in
    /* verilator lint_on UNUSEDSIGNAL */
    logic [W:0] shifted;
    logic ge;
    assign s_in = st[k*SW+:SW];
    assign {nk, v, q, r} = s_in[4*W-1:0];
    assign shifted = {r, nk[I]};
    assign ge = shifted >= {1'b0, v};
    assign r_next = ge ? W'(shifted - {1'b0, v}) : W'(shifted);
    assign s_out = {s_in[SW-1:4*W], nk, v, {q[W-2:0], ge}, r_next};
    inrarch_delay #(.WIDTH(SW), .N(NR)) u_reg (.clk, .en, .x(s_out), .y(st[(k+1)*SW+:SW]));
  end

  /* verilator lint_off UNUSEDSIGNAL */
  logic [SW-1:0] last;  // its N, V and remainder are spent
  /* verilator lint_on UNUSEDSIGNAL */
  logic l_zero, l_big, l_neg;
  logic [W-1:0] l_q;
  logic signed [63:0] quo;
  assign last = st[W*SW+:SW];
  assign {l_zero, l_big, l_neg} = last[SW-1:4*W];
  assign l_q = last[W+:W];
  always_comb begin
    if (l_zero) quo = 64'sd0;
    else if (l_big) quo = l_neg ? -(64'sd1 <<< W) : (64'sd1 <<< W);
    else quo = l_neg ? -$signed(64'(l_q)) : $signed(64'(l_q));
  end
  logic [W-1:0] qt;
  logic [63:0] r;
  logic q_ovf, f_ovf;
  inrarch_fit #(.W(W), .F(F), .FA(F)) u_fit_q (.x(quo), .y(qt), .ovf(q_ovf));
  inrarch_shift #(.S(EO - EA + EB + FA - F)) u_shift (.x(64'($signed(qt))), .y(r));
  inrarch_fit #(.W(W), .F(F), .FA(FA)) u_fit (.x(r), .y(y), .ovf(f_ovf));
  assign ovf = q_ovf || f_ovf;
endmodule
