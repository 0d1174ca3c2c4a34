// The L MACs of a matrix product row by row (mm_row of the HLS library, MmCadence), pipelined
// D stages deep (Process::mm_depth; docs/rtl.md, "The mm engine"). Per row of C,
// C = ceil(N*K/L) MAC cycles, each taking the row's next L products (element n's K products
// in order, across element and beat boundaries: product t = n*K + k in lane t mod L of
// cycle t / L). `writes` marks the MAC cycle that takes a beat's last product; the beat
// leaves D ticks later, when `wr` is high. `tick` is the kernel's step firing (a MAC cycle
// or not): every stage moves on it and holds without it, so a stall holds the whole
// pipeline and the kernel around decides when a tick fires.
// Operands: `arow` is the A row in use (its first min(L, K) words), rotated by the kernel L
// words a MAC cycle so that lane u always reads word u mod K; `bq` is the cycle's L words of
// B (zeros past N*K), which the kernel reads a cycle ahead at `c_next`.
// Arithmetic as the HLS kernel: each product floored into the accumulator A = ap_fixed<64,
// 64-FA> (wrapping), an element's K products summed, realigned by SHIFT and fit into T once
// per element. The HLS kernel adds in order; here the lanes' prefix sums P_u (a Sklansky
// tree) give the element ending at lane u as P_u - P_(u-K) (started in this cycle) or
// acc + P_u (started earlier): additions mod 2^64 are associative and commutative and
// subtraction undoes one exactly, so every order gives the HLS kernel's bits.
// Stages (registers, each on `tick`): 1 operands (DSP A/B), 2 products (M), then one every two
// levels of the ceil(log2 L)-level prefix tree, then the window sums and the sum before the
// open element (a select), then the element sums and the running accumulator (the one
// cross-cycle loop: one add), then the fits. D = 5 + ceil(ceil(log2 L)/2).
// `flag`: the kernel's read flags at the MAC cycle; `beat_ovf` at the write: that flag, every
// fit of earlier MAC cycles and the fits of the beat's own elements (the HLS kernel writes the
// beat before the later lanes fit).
module inrarch_mm_engine #(
    parameter int W = 32,
    parameter int F = 22,
    parameter int FA = 36,
    parameter int K = 1,
    parameter int N = 1,
    parameter int BC = 1,
    parameter int L = 1,
    parameter int G = 1,  // gcd(L, K): lane u can take an element's last product only if u = K-1 mod G
    parameter int SHIFT = 0,
    parameter int D = 5,  // Process::mm_depth; checked against the stages below
    parameter int CW = (N * K + L - 1) / L > 1 ? $clog2((N * K + L - 1) / L) : 1  // derived, not set
) (
    input  logic          clk,
    input  logic          rst,
    input  logic          mac,      // this tick is a MAC cycle
    input  logic          tick,     // the kernel's step fires (its write too, if `wr`)
    input  logic          flag,
    input  logic [(L < K ? L : K)*W-1:0] arow,  // the words lanes read: u mod K for u < L
    input  logic [L*W-1:0] bq,
    output logic          writes,
    output logic          row_end,
    output logic [CW-1:0] c_next,
    output logic          wr,
    output logic [BC*W-1:0] beat,
    output logic          beat_ovf
);
  localparam int C = (N * K + L - 1) / L, LAST = N * K - (C - 1) * L, R = L % K;
  localparam int KW = $clog2(K + 1), EW = $clog2(BC + 1);
  localparam int LV = L > 1 ? $clog2(L) : 0, NP = (LV + 1) / 2, DEPTH = 5 + NP;
  localparam int SV = 2 + NP, SY = 3 + NP;  // the stages whose outputs the select and the sums read
  localparam int CT = 3 + 2 * L + L * EW;   // a stage's control: mac, flag, rs0, fin, lastb, eu
  initial if (D != DEPTH) $fatal(1, "inrarch_mm_engine: D = %0d but L = %0d lanes make %0d stages", D, L, DEPTH);

  logic [CW-1:0] c;              // the row's MAC cycle
  logic [L*KW-1:0] ku, ku_n;     // lane u's product: term ku of the element in slot eu of
  logic [L*EW-1:0] eu, eu_n;     // its beat (lane u at [u*KW +: KW], [u*EW +: EW]); _n: a cycle on
  logic [L-1:0] fin, bnd, lastb, wfin, wsel;
  logic adv;
  assign adv = tick && mac;
  assign row_end = c == CW'(C - 1);
  for (genvar u = 0; u < L; u = u + 1) begin : g_lane
    logic [KW:0] ks;  // the term L products on, before it wraps into the next element
    logic [EW:0] es;
    assign ks = {1'b0, ku[u*KW+:KW]} + (KW+1)'(R);
    assign es = {1'b0, eu[u*EW+:EW]} + (EW+1)'(L / K) + (EW+1)'(ks >= (KW+1)'(K));
    assign ku_n[u*KW+:KW] = ks >= (KW+1)'(K) ? KW'(ks - (KW+1)'(K)) : KW'(ks);
    assign eu_n[u*EW+:EW] = es >= (EW+1)'(BC) ? EW'(es - (EW+1)'(BC)) : EW'(es);
    if (u % G == (K - 1) % G) begin : g_end
      assign bnd[u] = ku[u*KW+:KW] == KW'(K - 1);
      assign fin[u] = mac && (u < LAST || !row_end) && bnd[u];
    end else begin : g_mid
      assign bnd[u] = 1'b0;
      assign fin[u] = 1'b0;
    end
    assign wfin[u] = fin[u] && eu[u*EW+:EW] == EW'(BC - 1);
    assign wsel[u] = fin[u] && |(wfin >> u);          // in the beat this cycle writes
    assign lastb[u] = bnd[u] && !(|(bnd >> (u + 1)));  // the cycle's last element end
  end
  assign writes = |wfin;

  // Control down the pipeline: ctl[s] belongs to the entry in stage s (1..D).
  logic [D*CT-1:0] ctl;
  logic [D-1:0] wq;  // the entry's MAC cycle wrote a beat (wsel's beat)
  logic [D*L-1:0] wselq;
  always_ff @(posedge clk)
    if (rst) begin
      ctl <= '0;
      wq <= '0;
    end else if (tick) begin
      ctl <= {ctl[(D-1)*CT-1:0], {mac, flag, ku[KW-1:0] == '0, fin, lastb, eu}};
      wq <= {wq[D-2:0], mac && writes};
      wselq <= {wselq[(D-1)*L-1:0], wsel};
    end
  `define MM_CTL(s) ctl[((s)-1)*CT+:CT]

  // Stages 1 and 2: operands, products floored into A.
  logic [L*64-1:0] m_r;
  for (genvar u = 0; u < L; u = u + 1) begin : g_mul
    logic signed [2*W-1:0] prod;
    logic [W-1:0] ar, br;
    logic [63:0] pa, mr;
    assign prod = $signed(ar) * $signed(br);
    if (FA >= 2 * F) begin : g_up
      assign pa = 64'($signed(prod)) << (FA - 2 * F);
    end else begin : g_down
      assign pa = 64'($signed(prod)) >>> (2 * F - FA);
    end
    always_ff @(posedge clk)
      if (tick) begin
        ar <= arow[(u%K)*W+:W];
        br <= bq[u*W+:W];
        mr <= pa;
      end
    assign m_r[u*64+:64] = mr;
  end

  // The prefix tree (Sklansky): level k adds the last sum of the lower half of every
  // 2^(k+1)-lane block into its upper half; a register after every second level and the last.
  logic [(LV+1)*L*64-1:0] pv  /* verilator split_var */;  // level k, lane u at [(k*L + u)*64 +: 64]
  assign pv[L*64-1:0] = m_r;
  for (genvar k = 0; k < LV; k = k + 1) begin : g_lv
    logic [L*64-1:0] nx;
    for (genvar u = 0; u < L; u = u + 1) begin : g_u
      if ((u >> k) % 2 == 1) begin : g_add
        assign nx[u*64+:64] = pv[(k*L+u)*64+:64] + pv[(k*L+((u>>k)<<k)-1)*64+:64];
      end else begin : g_keep
        assign nx[u*64+:64] = pv[(k*L+u)*64+:64];
      end
    end
    if (k % 2 == 1 || k == LV - 1) begin : g_reg
      logic [L*64-1:0] q;
      always_ff @(posedge clk) if (tick) q <= nx;
      assign pv[(k+1)*L*64+:L*64] = q;
    end else begin : g_comb
      assign pv[(k+1)*L*64+:L*64] = nx;
    end
  end

  // Window stage: an element ending at lane u >= K started in this cycle (P_u - P_(u-K));
  // the open element after the cycle starts after its last element end (P_last - P_end).
  /* verilator lint_off UNUSEDSIGNAL */
  logic [L*64-1:0] p, v_r;  // v_r: only the lanes that can end an element
  /* verilator lint_on UNUSEDSIGNAL */
  logic [63:0] sel, ps_r, pl_r;
  logic [L-1:0] lastb_v;
  assign p = pv[LV*L*64+:L*64];
  assign lastb_v = ctl[(SV-1)*CT+L*EW+:L];
  always_comb begin
    sel = '0;
    for (int u = 0; u < L; u = u + 1) sel = sel | (lastb_v[u] ? p[u*64+:64] : 64'd0);
  end
  for (genvar u = 0; u < L; u = u + 1) begin : g_win
    if (u % G == (K - 1) % G) begin : g_end
      logic [63:0] q;
      always_ff @(posedge clk)
        if (tick) q <= u >= K ? p[u*64+:64] - p[(u >= K ? u - K : 0)*64+:64] : p[u*64+:64];
      assign v_r[u*64+:64] = q;
    end else begin : g_mid
      assign v_r[u*64+:64] = '0;
    end
  end
  always_ff @(posedge clk)
    if (tick) begin
      ps_r <= sel;
      pl_r <= p[(L-1)*64+:64];
    end

  // Sum stage: the elements' sums and the accumulator (the open element's sum so far).
  logic [63:0] acc;
  /* verilator lint_off UNUSEDSIGNAL */
  logic [L*64-1:0] y_r;     // only the lanes that can end an element
  /* verilator lint_on UNUSEDSIGNAL */
  logic [CT-1:0] cy;
  assign cy = `MM_CTL(SY);
  for (genvar u = 0; u < L; u = u + 1) begin : g_sum
    if (u % G == (K - 1) % G) begin : g_end
      logic [63:0] q;
      always_ff @(posedge clk)
        if (tick) q <= (u < K - 1 ? acc : 64'd0) + v_r[u*64+:64];
      assign y_r[u*64+:64] = q;
    end else begin : g_mid
      assign y_r[u*64+:64] = '0;
    end
  end
  always_ff @(posedge clk)
    if (rst) acc <= '0;
    else if (tick && cy[CT-1])  // a MAC cycle's entry
      acc <= |cy[L*EW+:L] ? pl_r - ps_r : cy[L*EW+2*L] ? pl_r : acc + pl_r;

  // Fit stage, then the beat: its elements from this entry's lanes up to the one finishing
  // slot BC-1 (at most one a cycle, as L <= BC*K), the rest from `done`.
  logic [L*W-1:0] yf_r;
  logic [L-1:0] yo_r;
  for (genvar u = 0; u < L; u = u + 1) begin : g_fit
    if (u % G == (K - 1) % G) begin : g_end
      logic [63:0] r;
      logic [W-1:0] yy, yq;
      logic oo, oq;
      inrarch_shift #(.S(SHIFT)) u_shift (.x(y_r[u*64+:64]), .y(r));
      inrarch_fit #(.W(W), .F(F), .FA(FA)) u_fit (.x(r), .y(yy), .ovf(oo));
      always_ff @(posedge clk)
        if (tick) begin
          yq <= yy;
          oq <= oo;
        end
      assign yf_r[u*W+:W] = yq;
      assign yo_r[u] = oq;
    end else begin : g_mid
      assign yf_r[u*W+:W] = '0;
      assign yo_r[u] = 1'b0;
    end
  end
  logic [CT-1:0] cf;
  logic [L-1:0] fin_f, wsel_f;
  logic [L*EW-1:0] eu_f;
  logic [BC*W-1:0] done;         // elements of the open beat finished in earlier cycles
  logic fs;                      // every fit of earlier MAC cycles
  assign cf = `MM_CTL(D);
  assign fin_f = cf[L*EW+L+:L];
  assign eu_f = cf[L*EW-1:0];
  assign wsel_f = wselq[(D-1)*L+:L];
  assign wr = wq[D-1];
  logic hit;
  logic [W-1:0] x;
  always_comb begin
    beat = done;
    for (int e = 0; e < BC; e = e + 1) begin
      hit = 1'b0;
      x = '0;
      for (int u = 0; u < L; u = u + 1)
        if (wsel_f[u] && eu_f[u*EW+:EW] == EW'(e)) begin
          hit = 1'b1;
          x = x | yf_r[u*W+:W];
        end
      if (hit) beat[e*W+:W] = x;
    end
  end
  assign beat_ovf = cf[CT-2] || fs || |(wsel_f & yo_r);
  always_ff @(posedge clk)
    if (rst) fs <= 1'b0;
    else if (tick && cf[CT-1]) fs <= fs || |(fin_f & yo_r);
  always_ff @(posedge clk)
    if (tick && cf[CT-1])
      for (int u = 0; u < L; u = u + 1)
        if (fin_f[u]) done[eu_f[u*EW+:EW]*W+:W] <= yf_r[u*W+:W];
  `undef MM_CTL

  assign c_next = rst || (adv && row_end) ? '0 : adv ? c + 1'b1 : c;
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
  always_ff @(posedge clk) c <= c_next;
endmodule
