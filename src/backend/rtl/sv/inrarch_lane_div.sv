// OP 11: div (scaled2<op_div, EA, EB, EO>): the ap_fixed quotient (a << F) / b, truncated
// toward zero (0 for b = 0, as the compat headers give), fit into T; then A, a shift by
// EO - EA + EB (kQuotient), and fit. The quotient is a division of magnitudes, one quotient
// bit a stage: N = |a| << F (exact: W + F <= 63), V = |b| <= 2^(W-1). When N >= V * 2^W
// (`big`) the quotient saturates T whatever its low bits, so W stages give every quotient
// that fits: the remainder starts at N >> W (< V) and stage k takes bit W - 1 - k of N. The
// signed quotient ±q, or ±2^W when big, then fits T exactly as the 64-bit quotient would.
//
// Pipelined for 300 MHz (docs/rtl.md, "Pipelined lanes"): W + 7 register stages on `en`, each
// at most one LUT level and a (W + 2)-bit carry chain, and the kernel's result register:
// D = W + 8 (elementwise.def's div_depth); a deeper D delays the result by the difference.
//    1 the operands   2 their magnitudes (x ^ s + s), b = 0, the sign   3 big (N >> W >= V)
//    4 … W + 3  the division, non-restoring: the partial remainder P in [-V, V) becomes
//      2P + (N's next bit) - V where P >= 0 and + V where not (modulo 2^(W+1), which holds
//      it), one chain with no select after it (restoring division selects between the
//      difference and the shifted remainder, a LUT after the chain); the quotient bit is P's
//      new sign, the restoring one's. The first also folds the flags into what the signed
//      quotient reads.
//   W + 4  the signed quotient (±q, ±2^W, 0), one chain   W + 5  the quotient fit's flags
//   W + 6  the quotient in T   W + 7  the output fit's flags; the kernel's result register
//          takes the select
// What only passes on (V, N's bits, the quotient bits, the flags) is in registers marked
// `keep`: as chains of plain flip-flops Yosys would build shift-register LUTs of them, and an
// adder fed by one starts 1.2 ns late.
module inrarch_lane_div #(
    parameter int W  = 32,
    parameter int F  = 22,
    parameter int FA = 36,
    parameter int EA = 0,
    parameter int EB = 0,
    parameter int EO = 0,
    parameter int D  = W + 8
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
  localparam int OWN = W + 8;
  initial if (D < OWN) $fatal(1, "inrarch_lane_div: depth %0d is below the lane's %0d stages", D, OWN);

  // 1-2: the operands, their magnitudes (|min| = 2^(W-1) fits W bits unsigned).
  logic [W-1:0] a1, b1, am, vm;
  logic zero2, neg2;
  always_ff @(posedge clk) if (en) {a1, b1} <= {a, b};
  always_ff @(posedge clk)
    if (en) begin
      am <= (a1 ^ {W{a1[W-1]}}) + W'(a1[W-1]);
      vm <= (b1 ^ {W{b1[W-1]}}) + W'(b1[W-1]);
      zero2 <= b1 == '0;
      neg2 <= a1[W-1] ^ b1[W-1];
    end
  // 3: N = am << F; its bits above W start the remainder, the W below it feed the stages.
  logic [W+F-1:0] n;
  logic [W-1:0] r0;
  assign n = (W + F)'(am) << F;
  assign r0 = W'(n >> W);
  localparam int SW = 3 + 2 * W;  // what passes on: {zero, big, neg, N's low W bits, V}
  logic [SW-1:0] pass[W+1];       // entering stage k (k = 0 … W), then the quotient's sign
  logic signed [W:0] p[W+1];      // the partial remainder entering stage k, in [-V, V)
  (* keep *) always_ff @(posedge clk) if (en) pass[0] <= {zero2, r0 >= vm, neg2, W'(n), vm};
  always_ff @(posedge clk) if (en) p[0] <= (W + 1)'(r0);

  // 4 … W + 3: one quotient bit a stage.
  for (genvar k = 0; k < W; k = k + 1) begin : g_stage
    localparam int I = W - 1 - k;  // the bit of N this stage takes
    logic [W-1:0] nk, v;
    logic [W:0] s;
    assign nk = pass[k][W+:W];
    assign v = pass[k][0+:W];
    // 2P + bit, modulo 2^(W+1): the new P is in [-V, V) with V <= 2^(W-1), so W + 1 bits
    // hold it and its low W + 1 bits are all the sum needs.
    assign s = {p[k][W-1:0], nk[I]};
    // s - v where P >= 0 (pos), s + v where not: s - (v ^ ~pos) - (1 - pos), written as
    // ({s, pos} - {v ^ ~pos, 1}) >> 1, one carry chain whose LUTs read s, v and pos (as a
    // select between s + v and s - v, Yosys shares the adder and puts -v's own chain in front
    // of it; as s + (v ^ pos) + pos, it takes v ^ pos as the chain's DI operand, a LUT level
    // of its own).
    logic pos;
    /* verilator lint_off UNUSEDSIGNAL */
    logic [W+1:0] t;  // bit 0: pos - 1, its borrow taken
    /* verilator lint_on UNUSEDSIGNAL */
    assign pos = !p[k][W];
    assign t = {s, pos} - {(W + 1)'(v) ^ {(W + 1){!pos}}, 1'b1};
    always_ff @(posedge clk) if (en) p[k+1] <= $signed(t[W+1:1]);
    // The flags become, after the first stage, what the signed quotient reads: {kill (no
    // quotient bits: b = 0 or big), top (2^W: big), sign (negative and not b = 0)}.
    if (k == 0) begin : g_flags
      logic zero, big, neg;
      assign {zero, big, neg} = pass[0][SW-1-:3];
      (* keep *) always_ff @(posedge clk)
        if (en) pass[1] <= {zero || big, big && !zero, neg && !zero, pass[0][2*W-1:0]};
    end else begin : g_pass
      (* keep *) always_ff @(posedge clk) if (en) pass[k+1] <= pass[k];
    end
    /* verilator lint_off UNUSEDSIGNAL */
    logic [W-1:0] qr;  // the quotient bits of the stages before k (its low bits; the last
    /* verilator lint_on UNUSEDSIGNAL */  // stage's top bit is never one)
    if (k == 0) begin : g_first
      assign qr = '0;
    end else begin : g_next
      (* keep *) always_ff @(posedge clk) if (en) qr <= {g_stage[k-1].qr[W-2:0], !p[k][W]};
    end
  end
  // The last bit is P's sign after the last stage.
  logic kill_l, top_l, s_l;
  /* verilator lint_off UNUSEDSIGNAL */
  logic [2*W-1:0] spent;  // N's bits and V
  /* verilator lint_on UNUSEDSIGNAL */
  logic [W-1:0] ql;
  assign {kill_l, top_l, s_l, spent} = pass[W];
  assign ql = {g_stage[W-1].qr[W-2:0], !p[W][W]};

  // W + 4: the signed quotient, (m ^ s) + s with m = 2^W when big, everything 0 for b = 0.
  logic [W:0] m;
  logic signed [W+1:0] quo;
  assign m = {top_l, ql & {W{!kill_l}}};
  always_ff @(posedge clk) if (en) quo <= $signed({s_l, m ^ {(W + 1){s_l}}}) + (W + 2)'(s_l);
  // W + 5 … W + 7: fit into T (FA = F), the quotient registered, the shift and the output fit.
  logic [W-1:0] qt, qt6, yo;
  logic q_ovf, q_ovf7, f_ovf;
  logic [63:0] r;
  inrarch_fit_stage #(.W(W), .F(F), .FA(F), .XW(W + 2)) u_fit_q (.clk, .en, .x(64'(quo)), .sat(1'b0), .y(qt), .ovf(q_ovf));
  always_ff @(posedge clk) if (en) qt6 <= qt;
  inrarch_delay #(.WIDTH(1), .N(2), .LAST_FF(1'b1)) u_q_ovf (.clk, .en, .x(q_ovf), .y(q_ovf7));
  inrarch_shift #(.S(EO - EA + EB + FA - F)) u_shift (.x(64'($signed(qt6))), .y(r));
  inrarch_fit_stage #(.W(W), .F(F), .FA(FA)) u_fit (.clk, .en, .x(r), .sat(1'b0), .y(yo), .ovf(f_ovf));
  inrarch_delay #(.WIDTH(W + 1), .N(D - OWN)) u_pad (.clk, .en, .x({q_ovf7 || f_ovf, yo}), .y({ovf, y}));
endmodule
