// The RTL kernel library, part: the matrix products with a streamed B (inrarch_mm: A
// streamed too; inrarch_mm_rom_a: a constant A, as the paper's Fig. 5 computes W · x), on
// the MAC engine of library_mm.cpp, and the buffer that holds B (inrarch_mm_bbuf).
#include "backend/rtl/rtl_detail.h"

namespace inrarch::rtl::detail {

namespace {

const SvFile kBBuf{"inrarch_mm_bbuf.sv", R"sv(// All of a streamed B (BB elements a beat, row-major beats), read first at II = 1 (the HLS
// mm_read_b), held as inrarch_mm_engine reads it: product t = n*K + k of a row (element
// (k, n), column-major as the HLS buffer) in bank t mod L, word t / L, so the L words of MAC
// cycle c are word c of every bank. A beat's elements go to banks and words kept as running
// (word, bank) pairs (constant steps, no divider): element (r, c) of B at t = c*K + r.
// Read one cycle ahead at `c_next` into `bq`; a word written in that cycle is forwarded, as
// a constant A's first MAC cycle can come right after B's last beat.
// `b_done`: B's last beat is read in this cycle or before; `ovf`: the flags of B's beats.
module inrarch_mm_bbuf #(
    parameter int W = 32,
    parameter int K = 1,
    parameter int N = 1,
    parameter int BB = 1,
    parameter int L = 1,
    parameter int CW = (N * K + L - 1) / L > 1 ? $clog2((N * K + L - 1) / L) : 1  // derived, not set
) (
    input  logic          clk,
    input  logic          rst,
    input  logic [BB*W:0] b_data,
    input  logic          b_valid,
    output logic          b_ready,
    input  logic [CW-1:0] c_next,
    output logic [L*W-1:0] bq,
    output logic          b_done,
    output logic          ovf
);
  localparam int C = (N * K + L - 1) / L, UW = L > 1 ? $clog2(L) : 1;
  localparam int KW = $clog2(K + 1), NW = $clog2(N + 1);

  // (l, u) + d as a (word, bank) pair: bank u + d mod L, carried into the word.
  function automatic logic [CW+UW-1:0] lu_add(input logic [CW-1:0] l, input logic [UW-1:0] u, input int d);
    logic [UW:0] s;
    s = {1'b0, u} + (UW+1)'(d % L);
    lu_add = s >= (UW+1)'(L) ? {l + CW'(d / L) + CW'(1), UW'(s - (UW+1)'(L))} : {l + CW'(d / L), UW'(s)};
  endfunction

  logic started, full, fire, row_wrap;
  logic [KW-1:0] rb;             // the beat's row of B
  logic [NW-1:0] cb;             // its first column
  logic [CW-1:0] l0, lr;         // (word, bank) of the beat's first element and of (rb, 0)
  logic [UW-1:0] u0, ur;
  logic [BB*(CW+UW)-1:0] lux;    // element x's (word, bank)
  assign fire = started && !full && b_valid;
  assign b_ready = fire;
  assign row_wrap = cb == NW'(N - BB);
  assign b_done = full || (fire && row_wrap && rb == KW'(K - 1));
  for (genvar x = 0; x < BB; x = x + 1) begin : g_el
    assign lux[x*(CW+UW)+:CW+UW] = lu_add(l0, u0, x * K);
  end

  for (genvar u = 0; u < L; u = u + 1) begin : g_bank
    logic [W-1:0] mem[C];
    logic [W-1:0] q;
    assign bq[u*W+:W] = q;
    always_ff @(posedge clk) begin
      q <= mem[c_next];
      if (fire)
        for (int x = 0; x < BB; x = x + 1)
          if (lux[x*(CW+UW)+:UW] == UW'(u)) begin
            mem[lux[x*(CW+UW)+UW+:CW]] <= b_data[x*W+:W];
            if (lux[x*(CW+UW)+UW+:CW] == c_next) q <= b_data[x*W+:W];
          end
    end
  end

  always_ff @(posedge clk) begin
    if (rst) begin
      started <= 1'b0;
      full <= 1'b0;
      ovf <= 1'b0;
      rb <= '0;
      cb <= '0;
      {l0, u0} <= '0;
      {lr, ur} <= '0;
    end else begin
      started <= 1'b1;
      full <= b_done;
      if (fire) begin
        ovf <= ovf || b_data[BB*W];
        if (row_wrap) begin
          cb <= '0;
          rb <= rb + 1'b1;
          {lr, ur} <= lu_add(lr, ur, 1);
          {l0, u0} <= lu_add(lr, ur, 1);
        end else begin
          cb <= cb + NW'(BB);
          {l0, u0} <= lu_add(l0, u0, BB * K);
        end
      end
    end
  end
endmodule
)sv"};

const SvFile kMm{"inrarch_mm.sv", R"sv(// C[M, N] = A[M, K] · B[K, N] with A and B streamed, L MACs (the design's mm_lanes, at
// most BC*K; the HLS library's mm<P, SHIFT>). Schedule (schedule.h): read every beat of B (II = 1) into
// inrarch_mm_bbuf, then inrarch_mm_stream_a's steps (A row 0, then the rows on the MmCadence,
// A double-buffered) on B's buffer instead of a ROM. The first A read comes one cycle after
// B's last beat at the earliest, so B's first MAC cycle word is read a cycle ahead as a
// ROM's. A written beat also carries the flags of B's beats.
module inrarch_mm #(
    parameter int W = 32,
    parameter int F = 22,
    parameter int FA = 36,
    parameter int M = 1,
    parameter int K = 1,
    parameter int N = 1,
    parameter int BA = 1,
    parameter int BB = 1,
    parameter int BC = 1,
    parameter int L = 1,
    parameter int G = 1,
    parameter int SHIFT = 0
) (
    input  logic          clk,
    input  logic          rst,
    input  logic [BA*W:0] a_data,
    input  logic          a_valid,
    output logic          a_ready,
    input  logic [BB*W:0] b_data,
    input  logic          b_valid,
    output logic          b_ready,
    output logic [BC*W:0] out_data,
    output logic          out_valid,
    input  logic          out_ready
);
  localparam int C = (N * K + L - 1) / L, CW = C > 1 ? $clog2(C) : 1;
  logic [L*W-1:0] bq;
  logic [CW-1:0] c_next;
  logic b_done, b_ovf, full;
  always_ff @(posedge clk) full <= !rst && b_done;
  inrarch_mm_bbuf #(.W(W), .K(K), .N(N), .BB(BB), .L(L)) u_b (
      .clk, .rst, .b_data, .b_valid, .b_ready, .c_next, .bq, .b_done, .ovf(b_ovf));
  inrarch_mm_stream_a #(.W(W), .F(F), .FA(FA), .M(M), .K(K), .N(N), .BA(BA), .BC(BC), .L(L), .G(G),
                        .SHIFT(SHIFT)) u_rows (
      .clk, .rst, .go(full), .pre_ovf(b_ovf), .bq, .c_next, .a_data, .a_valid, .a_ready, .out_data,
      .out_valid, .out_ready);
endmodule
)sv"};

const SvFile kRomA{"inrarch_mm_rom_a.sv", R"sv(// C[M, N] = A[M, K] · B[K, N] with A a constant ROM and B streamed (BB elements a beat), L
// MACs (the design's mm_lanes, at most BC*K; the HLS library's mm_rom_a<P, SHIFT>). Schedule (schedule.h):
// read every beat of B (II = 1) into inrarch_mm_bbuf; then per row of C, C = ceil(N*K/L)
// MAC cycles on inrarch_mm_engine, each taking the row's next L products; the cycle that
// takes a beat's last product is a write step (it waits for room), so write step j of every
// row comes ceil((j+1)*BC*K/L) cycles into the row (MmCadence, no reads after B).
// A is ROM_FILE, M lines of K*W bits (row i, word k at [k*W +: W]), read one cycle ahead
// into `aq` (a block ROM can hold it): the row the next row start loads into `h`, which
// rotates by L words a MAC cycle as inrarch_mm_stream_a's rows do. `aq` is row 0 until B's
// last beat and the next row from then on, so a row of one MAC cycle still finds it.
// A written beat carries the sticky flag of every B beat and of every fit so far, its own
// elements' included (the HLS kernel sets out.ovf after the beat's last fit).
module inrarch_mm_rom_a #(
    parameter int W = 32,
    parameter int F = 22,
    parameter int FA = 36,
    parameter int M = 1,
    parameter int K = 1,
    parameter int N = 1,
    parameter int BB = 1,
    parameter int BC = 1,
    parameter int L = 1,
    parameter int G = 1,
    parameter int SHIFT = 0,
    parameter ROM_FILE = "a.hex"
) (
    input  logic          clk,
    input  logic          rst,
    input  logic [BB*W:0] b_data,
    input  logic          b_valid,
    output logic          b_ready,
    output logic [BC*W:0] out_data,
    output logic          out_valid,
    input  logic          out_ready
);
  localparam int C = (N * K + L - 1) / L, CW = C > 1 ? $clog2(C) : 1, R = L % K;
  localparam int MW = $clog2(M + 1), AW = M > 1 ? $clog2(M) : 1;

  logic [K*W-1:0] arom[M];
  initial $readmemh(ROM_FILE, arom);
  logic [K*W-1:0] aq, h, hrot;
  logic [L*W-1:0] bq;
  logic [CW-1:0] c_next;
  logic [BC*W-1:0] beat;
  logic [MW-1:0] i;              // the row
  logic b_done, b_ovf, full, finished, sticky;
  logic mac, adv, fire_w, writes, row_end, beat_ovf, fit_ovf;
  inrarch_mm_bbuf #(.W(W), .K(K), .N(N), .BB(BB), .L(L)) u_b (
      .clk, .rst, .b_data, .b_valid, .b_ready, .c_next, .bq, .b_done, .ovf(b_ovf));
  inrarch_mm_engine #(.W(W), .F(F), .FA(FA), .K(K), .N(N), .BC(BC), .L(L), .G(G), .SHIFT(SHIFT)) u_engine (
      .clk, .rst, .mac, .adv, .arow(h[(L < K ? L : K)*W-1:0]), .bq, .writes, .row_end, .c_next, .beat, .beat_ovf, .fit_ovf);
  assign mac       = full && !finished;
  assign fire_w    = mac && writes && out_ready;
  assign adv       = mac && (!writes || fire_w);
  assign out_valid = fire_w;
  assign out_data  = {b_ovf || sticky || beat_ovf, beat};

  // A's rows: the next one a cycle ahead (row 0 until B is read), rotated as it is used.
  logic [MW-1:0] i_after;
  logic [AW-1:0] anext;
  assign i_after = adv && row_end ? i + 1'b1 : i;
  assign anext = !b_done ? '0 : i_after >= MW'(M - 1) ? AW'(M - 1) : AW'(i_after + 1'b1);
  always_ff @(posedge clk) aq <= arom[anext];
  if (R == 0) begin : g_norot
    assign hrot = h;
  end else begin : g_rot
    assign hrot = {h[R*W-1:0], h[K*W-1:R*W]};
  end
  always_ff @(posedge clk)
    if (!full || (adv && row_end)) h <= aq;
    else if (adv) h <= hrot;

  always_ff @(posedge clk) begin
    if (rst) begin
      full <= 1'b0;
      finished <= 1'b0;
      sticky <= 1'b0;
      i <= '0;
    end else begin
      full <= b_done;
      if (adv) begin
        sticky <= sticky || fit_ovf;
        i <= i_after;
        if (row_end && i == MW'(M - 1)) finished <= 1'b1;
      end
    end
  end
endmodule
)sv"};

}  // namespace

std::vector<SvFile> library_mm_b_files() { return {kBBuf, kMm, kRomA}; }

}  // namespace inrarch::rtl::detail
