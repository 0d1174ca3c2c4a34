// The L MACs of a matrix product row by row (mm_row of the HLS library, MmCadence): per
// row of C, C = ceil(N*K/L) MAC cycles, each taking the row's next L products (element n's
// K products in order, across element and beat boundaries, the column-major product
// t = n*K + k in lane t mod L of cycle t / L). The cycle that takes a beat's last product
// `writes`; the kernel around decides when a cycle fires (`adv`), so every form of mm (A or
// B streamed or constant) shares this datapath and its cadence.
// Operands: `arow` is the A row in use (its first min(L, K) words), rotated by the kernel L
// words a MAC cycle so that lane u always reads word u mod K (fixed wiring, no read
// multiplexers); `bq` is the cycle's
// L words of B (zeros past N*K), which the kernel reads a cycle ahead at `c_next`.
// Arithmetic as the HLS kernel: each product floored into the accumulator A = ap_fixed<64,
// 64-FA> (wrapping), an element's products summed there in order, realigned by SHIFT and fit
// into T once per element. The L lanes form one chain per cycle that restarts at every
// element's first product: the HLS kernel's additions, in its order.
// `beat_ovf`: the fits of this cycle up to the written beat's last element (the HLS kernel
// writes the beat before the later lanes fit); `fit_ovf`: every fit of the cycle.
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
    parameter int CW = (N * K + L - 1) / L > 1 ? $clog2((N * K + L - 1) / L) : 1  // derived, not set
) (
    input  logic          clk,
    input  logic          rst,
    input  logic          mac,      // a MAC cycle
    input  logic          adv,      // the MAC cycle fires (its write too, if any)
    input  logic [(L < K ? L : K)*W-1:0] arow,  // the words lanes read: u mod K for u < L
    input  logic [L*W-1:0] bq,
    output logic          writes,
    output logic          row_end,
    output logic [CW-1:0] c_next,
    output logic [BC*W-1:0] beat,
    output logic          beat_ovf,
    output logic          fit_ovf
);
  localparam int C = (N * K + L - 1) / L, LAST = N * K - (C - 1) * L, R = L % K;
  localparam int KW = $clog2(K + 1), EW = $clog2(BC + 1);
  localparam int NF = (L - (K - 1) % G + G - 1) / G;  // lanes that can finish an element: u = (K-1) mod G + f*G

  logic [CW-1:0] c;              // the row's MAC cycle
  logic [L*KW-1:0] ku, ku_n;     // lane u's product: term ku of the element in slot eu of
  logic [L*EW-1:0] eu, eu_n;     // its beat (lane u at [u*KW +: KW], [u*EW +: EW]); _n: a cycle on
  logic [63:0] acc;              // the open element's sum before this cycle
  logic [BC*W-1:0] done;         // elements finished in earlier cycles

  // Lanes: product into A, the chain of sums, and the element a lane finishes.
  logic [L*64-1:0] pa;           // lane u at [u*64 +: 64]; packed, as Icarus wants
  logic [NF*64-1:0] s;           // the sums of the lanes that can finish an element
  logic [L*W-1:0] y;
  logic [L-1:0] yo, fin;
  assign row_end = c == CW'(C - 1);
  for (genvar u = 0; u < L; u = u + 1) begin : g_lane
    logic signed [2*W-1:0] prod;
    logic [KW:0] ks;  // the term L products on, before it wraps into the next element
    logic [EW:0] es;
    assign ks = {1'b0, ku[u*KW+:KW]} + (KW+1)'(R);
    assign es = {1'b0, eu[u*EW+:EW]} + (EW+1)'(L / K) + (EW+1)'(ks >= (KW+1)'(K));
    assign ku_n[u*KW+:KW] = ks >= (KW+1)'(K) ? KW'(ks - (KW+1)'(K)) : KW'(ks);
    assign eu_n[u*EW+:EW] = es >= (EW+1)'(BC) ? EW'(es - (EW+1)'(BC)) : EW'(es);
    assign prod = $signed(arow[(u%K)*W+:W]) * $signed(bq[u*W+:W]);
    if (FA >= 2 * F) begin : g_up
      assign pa[u*64+:64] = 64'($signed(prod)) << (FA - 2 * F);
    end else begin : g_down
      assign pa[u*64+:64] = 64'($signed(prod)) >>> (2 * F - FA);
    end
    if (u % G == (K - 1) % G) begin : g_fit
      logic [63:0] r;
      inrarch_shift #(.S(SHIFT)) u_shift (.x(s[(u/G)*64+:64]), .y(r));
      inrarch_fit #(.W(W), .F(F), .FA(FA)) u_fit (.x(r), .y(y[u*W+:W]), .ovf(yo[u]));
      assign fin[u] = mac && (u < LAST || !row_end) && ku[u*KW+:KW] == KW'(K - 1);
    end else begin : g_nofit
      assign y[u*W+:W] = '0;
      assign yo[u] = 1'b0;
      assign fin[u] = 1'b0;
    end
  end
  logic [63:0] run;
  always_comb begin
    run = acc;
    for (int u = 0; u < L; u = u + 1) begin
      run = (ku[u*KW+:KW] == '0 ? 64'd0 : run) + pa[u*64+:64];
      if (u % G == (K - 1) % G) s[(u/G)*64+:64] = run;
    end
  end

  // The beat written: its elements finished this cycle in lanes up to the one finishing slot
  // BC-1 (at most one a cycle, as L <= BC*K), the rest from `done`.
  always_comb begin
    beat = done;
    beat_ovf = 1'b0;
    writes = 1'b0;
    for (int u = 0; u < L; u = u + 1)
      if (fin[u] && !writes) begin
        beat[eu[u*EW+:EW]*W+:W] = y[u*W+:W];
        beat_ovf = beat_ovf || yo[u];
        writes = eu[u*EW+:EW] == EW'(BC - 1);
      end
  end
  assign fit_ovf = |(yo & fin);
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
  always_ff @(posedge clk)
    if (adv)
      for (int u = 0; u < L; u = u + 1)
        if (fin[u]) done[eu[u*EW+:EW]*W+:W] <= y[u*W+:W];
  always_ff @(posedge clk) begin
    c <= c_next;
    if (rst) acc <= '0;
    else if (adv) acc <= run;
  end
endmodule
