// The RTL kernel library, part: the matrix product's MAC engine and the streamed-A rows
// around it (inrarch_mm_engine, inrarch_mm_stream_a), and the product with a constant B
// (inrarch_mm_rom_b). The forms with a streamed B are in library_mm_a.cpp.
// Each module is one file of OUT/rtl (Verilator wants a module's file named after it);
// flat ports and SystemVerilog that Verilator 5.006, Icarus 11 and Yosys 0.23 all accept.
#include "backend/rtl/rtl_detail.h"

namespace inrarch::rtl::detail {

std::vector<SvFile> library_mm_b_files();  // library_mm_a.cpp

namespace {

const SvFile kEngine{"inrarch_mm_engine.sv", R"sv(// The L MACs of a matrix product row by row (mm_row of the HLS library, MmCadence): per
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
)sv"};

const SvFile kStreamA{"inrarch_mm_stream_a.sv", R"sv(// C[M, N] = A[M, K] · B[K, N] with A streamed (BA elements a beat) and B read from outside a
// cycle ahead (`bq` at `c_next`: a ROM, or a buffer of a streamed B), on inrarch_mm_engine's
// L MACs. Schedule (schedule.h, MmCadence), once `go` (B is there): read the K/BA beats of A
// row 0 (II = 1); then per row, C = ceil(N*K/L) MAC cycles. The cycle that takes a beat's
// last product is a write step (it waits for room) and, while beats of the next A row are
// left to read, also reads one (waiting for it); beats of the next row left after the last
// write are read at II = 1. So write step j comes ceil((j+1)*BC*K/L) cycles into the row.
// A's two rows are registers: a row's beats shift into their half in order, and the half in
// use rotates by L words a MAC cycle (word x <- word (x + L) mod K).
// A written beat carries the sticky flag of `pre_ovf` (B's beats), of the A beats read
// before its step and of every fit so far: its own elements', not those of lanes after its
// last one in the same cycle.
module inrarch_mm_stream_a #(
    parameter int W = 32,
    parameter int F = 22,
    parameter int FA = 36,
    parameter int M = 1,
    parameter int K = 1,
    parameter int N = 1,
    parameter int BA = 1,
    parameter int BC = 1,
    parameter int L = 1,
    parameter int G = 1,
    parameter int SHIFT = 0,
    parameter int CW = (N * K + L - 1) / L > 1 ? $clog2((N * K + L - 1) / L) : 1  // derived, not set
) (
    input  logic          clk,
    input  logic          rst,
    input  logic          go,
    input  logic          pre_ovf,
    input  logic [L*W-1:0] bq,
    output logic [CW-1:0] c_next,
    input  logic [BA*W:0] a_data,
    input  logic          a_valid,
    output logic          a_ready,
    output logic [BC*W:0] out_data,
    output logic          out_valid,
    input  logic          out_ready
);
  localparam int READS = K / BA, WRITES = N / BC;
  localparam int OVERLAP = READS < WRITES ? READS : WRITES, R = L % K;
  localparam int KW = $clog2(K + 1), NW = $clog2(N + 1), MW = $clog2(M + 1);
  localparam logic [1:0] FIRST_ROW = 2'd0, ROW = 2'd1, TAIL = 2'd2, DONE = 2'd3;

  logic [K*W-1:0] h0, h1;        // two rows of A: the one in use (`cur`) and the next
  logic cur, started, sticky;
  logic [1:0] phase;
  logic [MW-1:0] i;              // the row
  logic [KW-1:0] ra;             // the next A beat of a read phase
  logic [NW-1:0] jb;             // beats written in the row
  logic mac, writes, row_end, more, fire_w, fire_r, adv, last_read, beat_ovf, fit_ovf;
  logic [K*W-1:0] arow, hrot;
  logic [BC*W-1:0] beat;
  assign arow = cur ? h1 : h0;
  inrarch_mm_engine #(.W(W), .F(F), .FA(FA), .K(K), .N(N), .BC(BC), .L(L), .G(G), .SHIFT(SHIFT)) u_engine (
      .clk, .rst, .mac, .adv, .arow(arow[(L < K ? L : K)*W-1:0]), .bq, .writes, .row_end, .c_next, .beat, .beat_ovf, .fit_ovf);

  // Steps: the reads of a read phase, and the write (+ read) of each beat's last product.
  assign mac       = phase == ROW;
  assign more      = i != MW'(M - 1) && jb < NW'(OVERLAP);
  assign fire_w    = mac && writes && out_ready && (!more || a_valid);
  assign adv       = mac && (!writes || fire_w);
  assign fire_r    = started && go && (phase == FIRST_ROW || phase == TAIL) && a_valid;
  assign a_ready   = fire_r || (fire_w && more);
  assign out_valid = fire_w;
  assign out_data  = {pre_ovf || sticky || beat_ovf, beat};
  assign last_read = ra == KW'(READS - 1);

  // A: a row's beats come in order, so each shifts into the half being filled (row 0 into
  // half `cur`, later rows into the other) from the top, and K/BA of them leave beat 0 at
  // word 0. Only fixed wiring, no addressed writes into the K*W bits.
  logic ahalf;
  logic [K*W-1:0] h0_in, h1_in;
  assign ahalf = phase == FIRST_ROW ? cur : !cur;
  if (READS == 1) begin : g_whole
    assign h0_in = a_data[BA*W-1:0];
    assign h1_in = a_data[BA*W-1:0];
  end else begin : g_shift
    assign h0_in = {a_data[BA*W-1:0], h0[K*W-1:BA*W]};
    assign h1_in = {a_data[BA*W-1:0], h1[K*W-1:BA*W]};
  end
  if (R == 0) begin : g_norot
    assign hrot = arow;
  end else begin : g_rot
    assign hrot = {arow[R*W-1:0], arow[K*W-1:R*W]};
  end
  always_ff @(posedge clk) begin
    if (a_ready && !ahalf) h0 <= h0_in;
    else if (adv && !cur) h0 <= hrot;
    if (a_ready && ahalf) h1 <= h1_in;
    else if (adv && cur) h1 <= hrot;
  end

  always_ff @(posedge clk) begin
    if (rst) begin
      started <= 1'b0;
      sticky <= 1'b0;
      phase <= FIRST_ROW;
      cur <= 1'b0;
      i <= '0;
      ra <= '0;
      jb <= '0;
    end else begin
      started <= 1'b1;
      if (fire_r) begin  // FIRST_ROW, TAIL
        sticky <= sticky || a_data[BA*W];
        ra <= last_read ? '0 : ra + 1'b1;
        if (last_read) begin
          phase <= ROW;
          if (phase == TAIL) begin
            i <= i + 1'b1;
            cur <= !cur;
          end
        end
      end else if (adv) begin  // a MAC cycle, a write step or not
        sticky <= sticky || fit_ovf || (fire_w && more && a_data[BA*W]);
        if (fire_w) jb <= jb + 1'b1;
        if (row_end) begin  // its last write
          jb <= '0;
          if (i == MW'(M - 1)) phase <= DONE;
          else if (READS > OVERLAP) begin
            phase <= TAIL;
            ra <= KW'(OVERLAP);
          end else begin
            i <= i + 1'b1;
            cur <= !cur;
          end
        end
      end
    end
  end
endmodule
)sv"};

const SvFile kRomB{"inrarch_mm_rom_b.sv", R"sv(// C[M, N] = A[M, K] · B[K, N] with A streamed and B a constant ROM, L MACs (the design's
// mm_lanes, at most BC*K; the HLS library's mm_rom_b<P, SHIFT>): inrarch_mm_stream_a reading B from
// ROM_FILE, C words of L*W bits (word c, lane u: product c*L + u of a row, the column-major
// element (k, n) = (t mod K, t / K); zero past N*K), one cycle ahead into a register, so a
// block ROM can hold it.
module inrarch_mm_rom_b #(
    parameter int W = 32,
    parameter int F = 22,
    parameter int FA = 36,
    parameter int M = 1,
    parameter int K = 1,
    parameter int N = 1,
    parameter int BA = 1,
    parameter int BC = 1,
    parameter int L = 1,
    parameter int G = 1,
    parameter int SHIFT = 0,
    parameter ROM_FILE = "b.hex"
) (
    input  logic          clk,
    input  logic          rst,
    input  logic [BA*W:0] a_data,
    input  logic          a_valid,
    output logic          a_ready,
    output logic [BC*W:0] out_data,
    output logic          out_valid,
    input  logic          out_ready
);
  localparam int C = (N * K + L - 1) / L, CW = C > 1 ? $clog2(C) : 1;
  logic [L*W-1:0] brom[C];
  initial $readmemh(ROM_FILE, brom);
  logic [L*W-1:0] bq;
  logic [CW-1:0] c_next;
  always_ff @(posedge clk) bq <= brom[c_next];
  inrarch_mm_stream_a #(.W(W), .F(F), .FA(FA), .M(M), .K(K), .N(N), .BA(BA), .BC(BC), .L(L), .G(G),
                        .SHIFT(SHIFT)) u_rows (
      .clk, .rst, .go(1'b1), .pre_ovf(1'b0), .bq, .c_next, .a_data, .a_valid, .a_ready, .out_data,
      .out_valid, .out_ready);
endmodule
)sv"};

}  // namespace

std::vector<SvFile> library_mm_files() {
  std::vector<SvFile> files{kEngine, kStreamA, kRomB};
  for (const SvFile& f : library_mm_b_files()) files.push_back(f);
  return files;
}

}  // namespace inrarch::rtl::detail
