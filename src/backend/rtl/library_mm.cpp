// The RTL kernel library, part: The matrix product.
// Each module is one file of OUT/rtl (Verilator wants a module's file named after it);
// flat ports and SystemVerilog that Verilator 5.006, Icarus 11 and Yosys 0.23 all accept.
#include "backend/rtl/rtl_detail.h"

namespace inrarch::rtl::detail {

std::vector<SvFile> library_mm_files() {
  return {
      {"inrarch_mm_rom_b.sv", R"sv(// C[M, N] = A[M, K] · B[K, N] with A streamed (BA elements a beat), B a constant ROM
// (column-major, element (k, n) at n*K + k, from ROM_FILE), one MAC (mm_par = 1; the HLS
// library's mm_rom_b<1, SHIFT>). Schedule (schedule.h, MmCadence with P = 1): read the K/BA
// beats of A row 0 (II = 1); then per row, one product a cycle, element n's K products in
// order; the cycle that finishes the last element of an output beat is a write step (it
// waits for room) and, while beats of the next A row are left to read, also reads one
// (waiting for it); beats of the next row left after the last write are read at II = 1.
// So write step j comes BC*K cycles after the previous step, as the model has it.
// Arithmetic as the HLS kernel: each product into the accumulator A = ap_fixed<64, 64-FA>
// (floored, wrapping), summed there, realigned by SHIFT and fit into T once per element.
// A written beat carries the sticky flag of the A beats read before its step and of every
// fit so far, its own elements' included.
module inrarch_mm_rom_b #(
    parameter int W = 32,
    parameter int F = 22,
    parameter int FA = 36,
    parameter int M = 1,
    parameter int K = 1,
    parameter int N = 1,
    parameter int BA = 1,
    parameter int BC = 1,
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
  localparam int READS = K / BA, WRITES = N / BC;
  localparam int OVERLAP = READS < WRITES ? READS : WRITES;
  localparam int KW = $clog2(K + 1), NW = $clog2(N + 1), MW = $clog2(M + 1), EW = $clog2(BC + 1);
  localparam int AW = $clog2(2 * K), RW = K * N > 1 ? $clog2(K * N) : 1;
  localparam logic [1:0] FIRST_ROW = 2'd0, ROW = 2'd1, TAIL = 2'd2, DONE = 2'd3;

  logic [W-1:0] brom[K*N];
  initial $readmemh(ROM_FILE, brom);
  logic [W-1:0] arow[2*K];  // two rows of A: the one in use (half `cur`) and the next
  logic cur, started, sticky;
  logic [1:0] phase;
  logic [MW-1:0] i;         // the row
  logic [KW-1:0] k, ra;     // the product's term; the next A beat of a read phase
  logic [NW-1:0] n, jb;     // the product's element; beats written in the row
  logic [EW-1:0] e;         // n's place in its beat
  logic [63:0] acc;

  // This cycle's product into A, the running sum, and the element it would finish.
  logic signed [63:0] p;
  logic [63:0] pa, sum, r;
  logic [W-1:0] y;
  logic y_ovf;
  assign p = 64'($signed(arow[AW'(cur) * AW'(K) + AW'(k)])) * 64'($signed(brom[RW'(n) * RW'(K) + RW'(k)]));
  if (FA >= 2 * F) begin : g_up
    assign pa = p << (FA - 2 * F);
  end else begin : g_down
    assign pa = p >>> (2 * F - FA);
  end
  assign sum = acc + pa;
  inrarch_shift #(.S(SHIFT)) u_shift (.x(sum), .y(r));
  inrarch_fit #(.W(W), .F(F), .FA(FA)) u_fit (.x(r), .y(y), .ovf(y_ovf));

  // Steps: the reads of a read phase, and the write (+ read) of each beat's last product.
  logic last_k, writes, more, fire_w, fire_r, last_read;
  assign last_k    = k == KW'(K - 1);
  assign writes    = phase == ROW && last_k && e == EW'(BC - 1);
  assign more      = i != MW'(M - 1) && jb < NW'(OVERLAP);
  assign fire_w    = writes && out_ready && (!more || a_valid);
  assign fire_r    = started && (phase == FIRST_ROW || phase == TAIL) && a_valid;
  assign a_ready   = fire_r || (fire_w && more);
  assign out_valid = fire_w;
  assign last_read = ra == KW'(READS - 1);

  // The beat written: elements 0..BC-2 finished before, element BC-1 now.
  if (BC == 1) begin : g_one
    assign out_data = {sticky || y_ovf, y};
  end else begin : g_beat
    logic [(BC-1)*W-1:0] done;
    always_ff @(posedge clk)
      if (phase == ROW && !writes && last_k) done[e*W+:W] <= y;
    assign out_data = {sticky || y_ovf, y, done};
  end

  // An A beat into the row being read (row 0 into half 0, later rows into the other half).
  logic [KW-1:0] abeat;
  logic ahalf;
  assign abeat = fire_r ? ra : KW'(jb);
  assign ahalf = phase == FIRST_ROW ? cur : !cur;
  for (genvar b = 0; b < BA; b = b + 1) begin : g_store
    always_ff @(posedge clk)
      if (a_ready) arow[AW'(ahalf) * AW'(K) + AW'(abeat) * AW'(BA) + AW'(b)] <= a_data[b*W+:W];
  end

  always_ff @(posedge clk) begin
    if (rst) begin
      started <= 1'b0;
      sticky <= 1'b0;
      phase <= FIRST_ROW;
      cur <= 1'b0;
      i <= '0;
      k <= '0;
      ra <= '0;
      n <= '0;
      jb <= '0;
      e <= '0;
      acc <= '0;
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
      end else if (phase == ROW && !writes) begin  // a product without a FIFO op
        acc <= last_k ? '0 : sum;
        k <= last_k ? '0 : k + 1'b1;
        if (last_k) begin
          sticky <= sticky || y_ovf;
          n <= n + 1'b1;
          e <= e + 1'b1;
        end
      end else if (fire_w) begin  // a write step
        sticky <= sticky || y_ovf || (more && a_data[BA*W]);
        acc <= '0;
        k <= '0;
        e <= '0;
        n <= n + 1'b1;
        jb <= jb + 1'b1;
        if (jb == NW'(WRITES - 1)) begin  // the row's last write
          n <= '0;
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
)sv"},
  };
}

}  // namespace inrarch::rtl::detail
