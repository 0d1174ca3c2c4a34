// inrarch_mm_engine for lanes not aligned with K (elements straddle lanes anywhere): the L
// MACs of a matrix product row by row (mm_row of the HLS library, MmCadence), pipelined
// D stages deep (Process::mm_depth; docs/rtl.md, "The mm engine"). Per row of C,
// C = ceil(N*K/L) MAC cycles, each taking the row's next L products (element n's K products
// in order, across element and beat boundaries: product t = n*K + k in lane t mod L of
// cycle t / L). The MAC cycle that takes a beat's last product (`writes`) sends it down the
// pipeline; it leaves D ticks later, when `wr` is high. `tick` is the kernel's step firing (a MAC cycle
// or not): every stage moves on it and holds without it, so a stall holds the whole
// pipeline and the kernel around decides when a tick fires.
// Operands: `arow` is the A row in use (its first min(L, K) words), rotated by the kernel L
// words a MAC cycle so that lane u always reads word u mod K; `bq` is the cycle's L words of
// B (zeros past N*K), which the kernel reads a cycle ahead: word 0 until the first MAC cycle,
// then on each (`take`) the word of `c_after`, the MAC cycle after it (a register).
// Arithmetic as the HLS kernel: each product (F + FB fraction bits) floored into the
// accumulator A = ap_fixed<64, 64-FA> (wrapping), an element's K products summed,
// realigned by SHIFT and fit into T once per element. The HLS kernel adds in order; here the lanes' prefix sums P_u (a Sklansky
// tree) give the element ending at lane u as P_u - P_(u-K) (started in this cycle) or
// acc + P_u (started earlier): additions mod 2^64 are associative and commutative and
// subtraction undoes one exactly, so every order gives the HLS kernel's bits.
// Stages (registers, each on `tick`; no carry chain longer than 34 bits, no more than two
// LUT levels besides): 1 operands (DSP A/B), MD products (inrarch_mul_dsp: 1 for a W x WB
// product that fits one DSP48E2, 27 x 18 either way round, 4 otherwise), LV = ceil(log2 L)
// tree levels, S = select_stages(L) for the window sums and the sum before the open element
// (inrarch_select_tree), 1 for the difference, 1 for the element sums and the accumulator
// (the one cross-cycle loop: one add), 1 more for their high halves (inrarch_mm_half: the 64-bit sums in two halves, the high one a tick behind),
// S to route each element's sum to its beat slot, 1 for the fits.
// D = 5 + MD + LV + 2 S (dataflow::mm_pipeline_depth, for L and K that do not divide).
// `flag`: the kernel's read flags at the MAC cycle; `beat_ovf` at the write: that flag, every
// fit of earlier MAC cycles and the fits of the beat's own elements (the HLS kernel writes the
// beat before the later lanes fit).
module inrarch_mm_engine_prefix #(
    parameter int W = 32,
    parameter int F = 22,
    parameter int FA = 36,
    parameter int K = 1,
    parameter int N = 1,
    parameter int BC = 1,
    parameter int L = 1,
    parameter int G = 1,  // gcd(L, K): lane u can take an element's last product only if u = K-1 mod G
    parameter int SHIFT = 0,
    parameter int D = 11,  // Process::mm_depth; checked against the stages below
    parameter int WB = W,  // B's words: narrow weights (fewer bits, FB of them the fraction)
    parameter int FB = F,
    parameter int S = 1  // inrarch_select_tree's stages for L inputs
) (
    input  logic          clk,
    input  logic          rst,
    input  logic          mac,      // this tick is a MAC cycle
    input  logic          tick,     // the kernel's step fires (its write too, if `wr`)
    input  logic          flag,
    input  logic [(L < K ? L : K)*W-1:0] arow,  // the words lanes read: u mod K for u < L
    input  logic [L*WB-1:0] bq,
    input  logic          row_end,  // the MAC cycle is the row's last (inrarch_mm_engine's register)
    output logic          wr,
    output logic [BC*W-1:0] beat,
    output logic          beat_ovf
);
  localparam int C = (N * K + L - 1) / L, LAST = N * K - (C - 1) * L, R = L % K;
  localparam int KW = $clog2(K + 1), EW = $clog2(BC + 1);
  // Stages (docs/rtl.md, "The mm engine"): 1 operands, MD products, LV tree levels, S select
  // stages (SW the first), the difference, the low sums (SY), the high sums (SH), S route
  // stages, the fits (D).
  localparam int MD = (W <= 18 && WB <= 27) || (W <= 27 && WB <= 18) ? 1 : 4, LV = L > 1 ? $clog2(L) : 0;
  localparam int SW = 2 + MD + LV, SY = SW + S + 1, SH = SY + 1, DEPTH = SH + S + 1;
  localparam int CT = 3 + 2 * L + L * EW;  // a stage's control: mac, flag, keep, fin, lastb, eu
  initial if (D != DEPTH) $fatal(1, "inrarch_mm_engine_prefix: D = %0d but L = %0d lanes make %0d stages", D, L, DEPTH);

  logic [L*KW-1:0] ku, ku_n;     // lane u's product: term ku of the element in slot eu of
  logic [L*EW-1:0] eu, eu_n;     // its beat (lane u at [u*KW +: KW], [u*EW +: EW]); _n: a cycle on
  logic [L-1:0] fin, bnd, lastb, wsel;
  logic adv;
  assign adv = tick && mac;
  localparam int BK = BC * K, NBW = $clog2(BK + 1);
  logic [NBW-1:0] nb;  // the next beat end's product, counted from the cycle's first (below)
  logic writes;        // a beat ends in this MAC cycle (below)
  for (genvar u = 0; u < L; u = u + 1) begin : g_lane
    // A MAC cycle moves a lane L products on: R = L mod K terms, into the next element when
    // the term wraps (ku >= K - R), and L / K elements more, each slot mod BC. The compares
    // read the registers and every candidate sum is formed beside them, so the update is a
    // short chain and a select.
    logic [KW-1:0] k;
    logic [EW-1:0] e, e0, e1;  // the slot L / K or L / K + 1 elements on
    logic wrap;
    assign k = ku[u*KW+:KW];
    assign e = eu[u*EW+:EW];
    assign wrap = {1'b0, k} >= (KW+1)'(K - R);
    assign ku_n[u*KW+:KW] = wrap ? k - KW'(K - R) : k + KW'(R);
    // (e + L/K) mod BC and (e + L/K + 1) mod BC as tables of e (a LUT a bit for EW <= 6),
    // not an add and a compare on a carry chain.
    always_comb begin
      e0 = '0;
      e1 = '0;
      for (int v = 0; v < BC; v = v + 1)
        if (e == EW'(v)) begin
          e0 = EW'((v + L / K) % BC);
          e1 = EW'((v + L / K + 1) % BC);
        end
    end
    assign eu_n[u*EW+:EW] = wrap ? e1 : e0;
    if (u % G == (K - 1) % G) begin : g_end
      assign bnd[u] = k == KW'(K - 1);
      assign fin[u] = mac && (u < LAST || !row_end) && bnd[u];
    end else begin : g_mid
      assign bnd[u] = 1'b0;
      assign fin[u] = 1'b0;
    end
    // In the beat this cycle writes: at or before its last product's lane (nb, when the
    // cycle writes; at most one beat ends in a cycle).
    if (u == 0) begin : g_first
      assign wsel[u] = fin[u] && writes;
    end else begin : g_later
      assign wsel[u] = fin[u] && writes && 32'(nb) >= 32'(u);
    end
    // The cycle's last element end: ends are K lanes apart, so none follows u when u + K >= L.
    assign lastb[u] = bnd[u] && u + K >= L;
  end
  // `writes` is a register, not an OR over the lanes (which the kernel's step would wait on):
  // nb is the next beat end's product counted from the cycle's first, so a beat ends in the
  // cycle when nb < L (at most one does, as L <= BC*K), and nb stays in [0, BC*K). Both are
  // set on a MAC cycle from registers only: after a write nb + BC*K - L < L when nb < 2L -
  // BC*K, else nb - L < L when nb < 2L. `writes_f`, its value after this cycle's tick, reads
  // registers only: lt_w and lt_n say
  // whether nb is below those bounds and move with nb, each worked out from nb as a compare
  // with a constant (nb_f = nb + BK - L after a write, where nb < L; nb - L else, nb >= L).
  function automatic logic below(input logic [NBW-1:0] v, input int bound);
    below = bound > 0 && 32'(v) < 32'(bound);
  endfunction
  logic [NBW-1:0] nb_f;
  logic writes_f, lt_w, lt_n, lt_w_f, lt_n_f;
  always_comb
    if (!mac) begin
      nb_f = nb;
      {writes_f, lt_w_f, lt_n_f} = {writes, lt_w, lt_n};
    end else if (row_end) begin
      nb_f = NBW'(BK - 1);
      {writes_f, lt_w_f, lt_n_f} = {BK - 1 < L, BK - 1 < 2 * L - BK, BK - 1 < 2 * L};
    end else if (writes) begin
      nb_f = nb + NBW'(BK - L);
      {writes_f, lt_w_f, lt_n_f} = {lt_w, below(nb, 3 * L - 2 * BK), below(nb, 3 * L - BK)};
    end else begin
      nb_f = nb - NBW'(L);
      {writes_f, lt_w_f, lt_n_f} = {lt_n, below(nb, 3 * L - BK), below(nb, 3 * L)};
    end
  always_ff @(posedge clk)
    if (rst) begin
      nb <= NBW'(BK - 1);
      {writes, lt_w, lt_n} <= {BK - 1 < L, BK - 1 < 2 * L - BK, BK - 1 < 2 * L};
    end else if (tick) begin
      nb <= nb_f;
      {writes, lt_w, lt_n} <= {writes_f, lt_w_f, lt_n_f};
    end

  // The accumulator keeps its sum unless the cycle ends an element (some lane u has term
  // K-1: (ku_0 + u) mod K = K-1 for a u < L, as every lane is lane 0 moved on by u) or
  // starts at one (ku_0 = 0): a compare of lane 0's term, where |lastb is an L-input OR.
  logic keep0;
  if (L >= K) begin : g_ends
    assign keep0 = 1'b0;
  end else begin : g_may_end
    assign keep0 = !(ku[KW-1:0] == '0 || ku[KW-1:0] >= KW'(K - L));
  end

  // Control down the pipeline: ctl[s] belongs to the entry in stage s (1..D).
  logic [D*CT-1:0] ctl;
  logic [D-1:0] wq;  // the entry's MAC cycle wrote a beat (wsel's beat)
  logic [(SH-1)*L-1:0] wselq;  // up to the stage before the route
  always_ff @(posedge clk)
    if (rst) begin
      /* verilator lint_off WIDTHCONCAT */  // a wide engine's control is past 8k bits: a fill, not a mistake
      ctl <= '0;
      /* verilator lint_on WIDTHCONCAT */
      wq <= '0;
    end else if (tick) begin
      ctl <= {ctl[(D-1)*CT-1:0], {mac, flag, keep0, fin, lastb, eu}};
      wq <= {wq[D-2:0], mac && writes};
      wselq <= {wselq[(SH-2)*L-1:0], wsel};
    end
  `define MM_CTL(s) ctl[((s)-1)*CT+:CT]

  // Stage 1: the operands; then inrarch_mul_dsp's MD stages (inrarch_mm_products).
  logic [L*64-1:0] prod;
  logic [L*64-1:0] pa;
  inrarch_mm_products #(.W(W), .WB(WB), .K(K), .L(L)) u_products (.clk, .tick, .arow, .bq, .p(prod));
  for (genvar u = 0; u < L; u = u + 1) begin : g_mul
    if (FA >= F + FB) begin : g_up
      assign pa[u*64+:64] = prod[u*64+:64] << (FA - F - FB);
    end else begin : g_down
      assign pa[u*64+:64] = $signed(prod[u*64+:64]) >>> (F + FB - FA);
    end
  end

  // The sums in two 32-bit halves, the high one a tick behind on the low one's carries.
  localparam int NC = LV * L + 2 * L + 2;
  logic [L*32-1:0] m_lo, m_hi, y_lo, y_hi, y_lo_d;
  logic [NC-1:0] c_lo, c_hi_unused;
  for (genvar u = 0; u < L; u = u + 1) begin : g_split
    assign m_lo[u*32+:32] = pa[u*64+:32];
    always_ff @(posedge clk) if (tick) m_hi[u*32+:32] <= pa[u*64+32+:32];
  end
  /* verilator lint_off UNUSEDSIGNAL */
  logic [CT-1:0] cw_lo, cw_hi, cs_lo, cs_hi;  // the control at the select and the sum stages
  /* verilator lint_on UNUSEDSIGNAL */
  assign cw_lo = `MM_CTL(SW - 1);
  assign cw_hi = `MM_CTL(SW);
  assign cs_lo = `MM_CTL(SY - 1);
  assign cs_hi = `MM_CTL(SY);
  inrarch_mm_half #(.HW(32), .L(L), .K(K), .G(G), .LV(LV), .S(S), .LOW(1'b1)) u_lo (
      .clk, .tick, .m(m_lo), .lastb(cw_lo[L*EW+:L]), .acc_en(cs_lo[CT-1]), .keep(cs_lo[L*EW+2*L]),
      .cin('0), .cout(c_lo), .y(y_lo));
  inrarch_mm_half #(.HW(32), .L(L), .K(K), .G(G), .LV(LV), .S(S), .LOW(1'b0)) u_hi (
      .clk, .tick, .m(m_hi), .lastb(cw_hi[L*EW+:L]), .acc_en(cs_hi[CT-1]), .keep(cs_hi[L*EW+2*L]),
      .cin(c_lo), .cout(c_hi_unused), .y(y_hi));
  always_ff @(posedge clk) if (tick) y_lo_d <= y_lo;

  // Route: each beat slot e takes the sum of the lane that finishes it in this entry (at
  // most one), with a bit saying so and one saying the lane is in the beat written now.
  /* verilator lint_off UNUSEDSIGNAL */
  logic [CT-1:0] cr;
  /* verilator lint_on UNUSEDSIGNAL */
  logic [L-1:0] fin_r, wsel_r;
  logic [L*EW-1:0] eu_r;
  logic [BC*L-1:0] rsel;  // slot e, lane u at e*L + u: decoded a stage ahead
  logic [L-1:0] rw;
  assign cr = `MM_CTL(SH - 1);
  assign fin_r = cr[L*EW+L+:L];
  assign eu_r = cr[L*EW-1:0];
  assign wsel_r = wselq[(SH-2)*L+:L];
  always_ff @(posedge clk)
    if (tick) begin
      rw <= wsel_r;
      for (int e = 0; e < BC; e = e + 1)
        for (int u = 0; u < L; u = u + 1) rsel[e*L+u] <= fin_r[u] && eu_r[u*EW+:EW] == EW'(e);
    end
  logic [L*66-1:0] rx;
  for (genvar u = 0; u < L; u = u + 1) begin : g_rx
    assign rx[u*66+:66] = {rw[u], 1'b1, y_hi[u*32+:32], y_lo_d[u*32+:32]};
  end
  logic [BC*66-1:0] routed;  // the slots at stage D - 1: {in the written beat, hit, sum}
  logic [BC*64-1:0] rsum;
  logic [BC-1:0] rhit, rin;
  for (genvar e = 0; e < BC; e = e + 1) begin : g_slot
    inrarch_select_tree #(.N(L), .W(66)) u_route (.clk, .en(tick), .sel(rsel[e*L+:L]), .x(rx), .y(routed[e*66+:66]));
    assign {rin[e], rhit[e], rsum[e*64+:64]} = routed[e*66+:66];
  end

  // The fits and the beat (inrarch_mm_slots).
  logic [CT-1:0] cf;
  assign cf = `MM_CTL(D);
  assign wr = wq[D-1];
  inrarch_mm_slots #(.W(W), .F(F), .FA(FA), .BC(BC), .SHIFT(SHIFT)) u_slots (
      .clk, .rst, .tick, .sum(rsum), .hit(rhit), .in_beat(rin), .mac_d(cf[CT-1]), .flag_d(cf[CT-2]), .beat,
      .beat_ovf);
  `undef MM_CTL

  // Lanes' places: each MAC cycle advances them by L products; a row starts at lane u's
  // product u, term u mod K of slot u / K.
  always_ff @(posedge clk)
    for (int u = 0; u < L; u = u + 1)
      if (rst || (adv && row_end)) begin
        ku[u*KW+:KW] <= KW'(u % K);
        eu[u*EW+:EW] <= EW'(u / K);
      end else if (adv) begin
        ku[u*KW+:KW] <= ku_n[u*KW+:KW];
        eu[u*EW+:EW] <= eu_n[u*EW+:EW];
      end
endmodule
