// The RTL kernel library, part: the matrix product with a constant A and a streamed B
// (inrarch_mm_rom_a, one MAC; the paper's Fig. 5 computes W · x with it).
#include "backend/rtl/rtl_detail.h"

namespace inrarch::rtl::detail {

SvFile library_mm_a_file() {
  return {"inrarch_mm_rom_a.sv", R"sv(// C[M, N] = A[M, K] · B[K, N] with A a constant ROM and B streamed (BB elements a beat),
// one MAC (the HLS library's mm_rom_a<1, SHIFT>). Schedule (schedule.h): read every beat of
// B (II = 1) into a buffer; then per row of C, N*K MAC cycles, element n's K products in
// order; the cycle that takes a beat's last product is a write step (it waits for room),
// so write step j of every row comes BC*K cycles after the step before it.
// Memories: A is ROM_FILE, M*K words row-major, read one cycle ahead into a register (so a
// block ROM can hold it); B is held column-major (element (k, n) at n*K + k, as the HLS
// buffer), so a row's products read it at consecutive addresses t = n*K + k. B is read in the
// cycle of its product, not a cycle ahead: with all of B in one beat (K*N = BB), the read
// ahead of the first product would fall in the cycle that writes B.
// Arithmetic as the HLS kernel: each product floored into the accumulator A = ap_fixed<64,
// 64-FA> (wrapping), an element's K products summed there in order, realigned by SHIFT and
// fit into T once per element.
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
  localparam int KW = $clog2(K + 1), NW = $clog2(N + 1), MW = $clog2(M + 1), EW = $clog2(BC + 1);
  localparam int TW = N * K > 1 ? $clog2(N * K) : 1, AW = M * K > 1 ? $clog2(M * K) : 1;
  localparam logic [1:0] READ = 2'd0, ROW = 2'd1, DONE = 2'd2;

  logic [W-1:0] arom[M*K];
  initial $readmemh(ROM_FILE, arom);
  logic [W-1:0] aq;              // arom[abase + k]
  logic [W-1:0] bm[N*K];         // B, column-major
  logic [1:0] phase;
  logic started, sticky;
  logic [MW-1:0] i;              // the row
  logic [AW-1:0] abase;          // i*K
  logic [KW-1:0] k, rb;          // the product's term; B's row being read
  logic [NW-1:0] cb;             // the column of the B beat being read
  logic [TW-1:0] t;              // the row's product: n*K + k
  logic [EW-1:0] e;              // the element's slot in its beat
  logic [63:0] acc;              // the open element's sum before this cycle
  logic [BC*W-1:0] done;         // the beat's elements finished in earlier cycles

  logic signed [2*W-1:0] prod;
  logic [63:0] pa, run, r;
  logic [W-1:0] y;
  logic yo, fin, writes, row_end, mac, adv, fire_w, fire_r;
  assign prod = $signed(aq) * $signed(bm[t]);
  if (FA >= 2 * F) begin : g_up
    assign pa = 64'($signed(prod)) << (FA - 2 * F);
  end else begin : g_down
    assign pa = 64'($signed(prod)) >>> (2 * F - FA);
  end
  assign run = (k == '0 ? 64'd0 : acc) + pa;
  inrarch_shift #(.S(SHIFT)) u_shift (.x(run), .y(r));
  inrarch_fit #(.W(W), .F(F), .FA(FA)) u_fit (.x(r), .y(y), .ovf(yo));

  logic [BC*W-1:0] beat;
  always_comb begin
    beat = done;
    beat[e*W+:W] = y;
  end
  assign mac       = phase == ROW;
  assign fin       = k == KW'(K - 1);
  assign writes    = fin && e == EW'(BC - 1);
  assign row_end   = t == TW'(N * K - 1);
  assign fire_w    = mac && writes && out_ready;
  assign adv       = mac && (!writes || fire_w);
  assign fire_r    = started && phase == READ && b_valid;
  assign b_ready   = fire_r;
  assign out_valid = fire_w;
  assign out_data  = {sticky || yo, beat};

  // A one cycle ahead: the word of the cycle after this one (a row's K words, N times over).
  logic [AW-1:0] abase_n, anext;
  assign abase_n = row_end ? (i == MW'(M - 1) ? '0 : abase + AW'(K)) : abase;
  assign anext = rst ? '0 : !adv ? abase + AW'(k) : fin ? abase_n : abase + AW'(k) + 1'b1;
  always_ff @(posedge clk) aq <= arom[anext];

  // B's beats are row-major: beat (rb, cb) holds B[rb][cb .. cb+BB-1].
  always_ff @(posedge clk)
    if (fire_r)
      for (int x = 0; x < BB; x = x + 1) bm[TW'((32'(cb) + x) * K + 32'(rb))] <= b_data[x*W+:W];

  always_ff @(posedge clk) begin
    if (rst) begin
      started <= 1'b0;
      sticky <= 1'b0;
      phase <= READ;
      i <= '0;
      abase <= '0;
      k <= '0;
      rb <= '0;
      cb <= '0;
      t <= '0;
      e <= '0;
      acc <= '0;
    end else begin
      started <= 1'b1;
      if (fire_r) begin
        sticky <= sticky || b_data[BB*W];
        if (cb == NW'(N - BB)) begin
          cb <= '0;
          rb <= rb + 1'b1;
          if (rb == KW'(K - 1)) phase <= ROW;
        end else begin
          cb <= cb + NW'(BB);
        end
      end else if (adv) begin
        sticky <= sticky || (fin && yo);
        acc <= run;
        k <= fin ? '0 : k + 1'b1;
        t <= row_end ? '0 : t + 1'b1;
        if (fin) begin
          done[e*W+:W] <= y;
          e <= writes ? '0 : e + 1'b1;
        end
        if (row_end) begin
          abase <= abase_n;
          i <= i + 1'b1;
          if (i == MW'(M - 1)) phase <= DONE;
        end
      end
    end
  end
endmodule
)sv"};
}

}  // namespace inrarch::rtl::detail
