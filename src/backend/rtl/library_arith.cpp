// The RTL kernel library, part: The arithmetic modules: elementwise kernels and their fixed-point lanes (the HLS library's scaled operators), the matrix product.
// Each module is one file of OUT/rtl (Verilator wants a module's file named after it);
// flat ports and SystemVerilog that Verilator 5.006, Icarus 11 and Yosys 0.23 all accept.
#include "backend/rtl/rtl_detail.h"

namespace inrarch::rtl::detail {

std::vector<SvFile> library_arith_files() {
  return {
      {"inrarch_ew1.sv", R"sv(// An elementwise unary kernel (neg) on one streamed operand. Otherwise as inrarch_ew2.
module inrarch_ew1 #(
    parameter int OP    = 3,
    parameter int B     = 1,
    parameter int W     = 32,
    parameter int F     = 22,
    parameter int FA    = 36,
    parameter int EA    = 0,
    parameter int EO    = 0,
    parameter int BEATS = 1
) (
    input  logic         clk,
    input  logic         rst,
    input  logic [B*W:0] in_data,
    input  logic         in_valid,
    output logic         in_ready,
    output logic [B*W:0] out_data,
    output logic         out_valid,
    input  logic         out_ready
);
  logic [B*W-1:0] y;
  logic [B-1:0] sat;
  inrarch_ew_fsm #(.NIN(1), .BEATS(BEATS), .DW(B * W)) u_fsm (
      .clk, .rst, .in_valid, .in_ready, .lanes(y), .lanes_ovf(|sat || in_data[B*W]),
      .out_data, .out_valid, .out_ready);
  for (genvar e = 0; e < B; e = e + 1) begin : g_lane
    inrarch_lane1 #(.OP(OP), .W(W), .F(F), .FA(FA), .EA(EA), .EO(EO)) u_lane (
        .a(in_data[e*W+:W]), .y(y[e*W+:W]), .ovf(sat[e]));
  end
endmodule
)sv"},
      {"inrarch_ew2.sv", R"sv(// An elementwise binary kernel (add, sub, mul) on two streamed operands: lanes of
// inrarch_lane2 over the B elements of a beat, the result held one step (L = 1). A beat is
// {ovf, element B-1, ..., element 0}: each W bits, ovf the sticky overflow sideband of the
// HLS library (the OR of every beat read so far and of every saturation).
module inrarch_ew2 #(
    parameter int OP    = 0,
    parameter int B     = 1,
    parameter int W     = 32,
    parameter int F     = 22,
    parameter int FA    = 36,
    parameter int EA    = 0,
    parameter int EB    = 0,
    parameter int EO    = 0,
    parameter int BEATS = 1
) (
    input  logic         clk,
    input  logic         rst,
    input  logic [B*W:0] a_data,
    input  logic         a_valid,
    output logic         a_ready,
    input  logic [B*W:0] b_data,
    input  logic         b_valid,
    output logic         b_ready,
    output logic [B*W:0] out_data,
    output logic         out_valid,
    input  logic         out_ready
);
  logic [B*W-1:0] y;
  logic [B-1:0] sat;
  logic [1:0] ready;
  inrarch_ew_fsm #(.NIN(2), .BEATS(BEATS), .DW(B * W)) u_fsm (
      .clk, .rst, .in_valid({b_valid, a_valid}), .in_ready(ready), .lanes(y), .lanes_ovf(|sat || a_data[B*W] || b_data[B*W]),
      .out_data, .out_valid, .out_ready);
  assign a_ready = ready[0];
  assign b_ready = ready[1];
  for (genvar e = 0; e < B; e = e + 1) begin : g_lane
    inrarch_lane2 #(.OP(OP), .W(W), .F(F), .FA(FA), .EA(EA), .EB(EB), .EO(EO)) u_lane (
        .a(a_data[e*W+:W]), .b(b_data[e*W+:W]), .y(y[e*W+:W]), .ovf(sat[e]));
  end
endmodule
)sv"},
      {"inrarch_ew2c.sv", R"sv(// An elementwise binary kernel (add, sub, mul) with one streamed operand and a constant
// one (a splat: C, raw bits at the constant's exponent). CSLOT says which operand is the
// constant (0: a, 1: b). Otherwise as inrarch_ew2.
module inrarch_ew2c #(
    parameter int OP    = 0,
    parameter int CSLOT = 1,
    parameter int B     = 1,
    parameter int W     = 32,
    parameter int F     = 22,
    parameter int FA    = 36,
    parameter int EA    = 0,
    parameter int EB    = 0,
    parameter int EO    = 0,
    parameter int BEATS = 1,
    parameter logic [W-1:0] C = '0
) (
    input  logic         clk,
    input  logic         rst,
    input  logic [B*W:0] in_data,
    input  logic         in_valid,
    output logic         in_ready,
    output logic [B*W:0] out_data,
    output logic         out_valid,
    input  logic         out_ready
);
  logic [B*W-1:0] y;
  logic [B-1:0] sat;
  inrarch_ew_fsm #(.NIN(1), .BEATS(BEATS), .DW(B * W)) u_fsm (
      .clk, .rst, .in_valid, .in_ready, .lanes(y), .lanes_ovf(|sat || in_data[B*W]),
      .out_data, .out_valid, .out_ready);
  for (genvar e = 0; e < B; e = e + 1) begin : g_lane
    logic [W-1:0] x;
    assign x = in_data[e*W+:W];
    inrarch_lane2 #(.OP(OP), .W(W), .F(F), .FA(FA), .EA(EA), .EB(EB), .EO(EO)) u_lane (
        .a(CSLOT == 0 ? C : x), .b(CSLOT == 0 ? x : C), .y(y[e*W+:W]), .ovf(sat[e]));
  end
endmodule
)sv"},
      {"inrarch_lane1.sv", R"sv(// OP 3: neg, 4: relu, 5: step (scaled1<op, EA, EO>): the operator on the stored value in T
// (-min saturates to max and sets ovf), then realigned into A and fit. neg and relu are
// homogeneous (shift by EO - EA); step is invariant: T(1) or T(0), shifted by EO.
module inrarch_lane1 #(
    parameter int OP = 3,
    parameter int W  = 32,
    parameter int F  = 22,
    parameter int FA = 36,
    parameter int EA = 0,
    parameter int EO = 0
) (
    input  logic [W-1:0] a,
    output logic [W-1:0] y,
    output logic         ovf
);
  localparam logic [W-1:0] MIN = {1'b1, {(W - 1) {1'b0}}};
  localparam logic [W-1:0] MAX = {1'b0, {(W - 1) {1'b1}}};
  localparam logic [W-1:0] ONE = W'(1) << F;
  logic pos, min;
  logic [W-1:0] n;  // the operator's result in T
  logic [63:0] r;
  logic f_ovf;
  assign pos = !a[W-1] && a != '0;
  assign min = OP == 3 && a == MIN;  // -min does not fit
  assign n = OP == 3 ? (min ? MAX : -a) : OP == 4 ? (pos ? a : '0) : (pos ? ONE : '0);
  inrarch_shift #(.S((OP == 5 ? EO : EO - EA) + FA - F)) u_shift (.x(64'($signed(n))), .y(r));
  inrarch_fit #(.W(W), .F(F), .FA(FA)) u_fit (.x(r), .y(y), .ovf(f_ovf));
  assign ovf = min || f_ovf;
endmodule
)sv"},
      {"inrarch_lane2.sv", R"sv(// One element of an elementwise kernel: the HLS library's scaled operators
// (inrarch/scaled.h, elementwise.h) bit for bit. Values are ap_fixed<W, W-F> raw bits
// (F fraction bits); a stream with exponent E holds value * 2^E. The wide accumulator
// A = ap_fixed<64, 64-FA> realigns operands and result with shifts that wrap (A's
// AP_WRAP), fit() floors into T and saturates to its range, setting ovf (array_stream.h).
// The emitter admits only types where A holds every T value and product exactly
// (FA >= F, 64 - FA >= 2 (W - F) + 8), so the unscaled operators, which skip A, give the
// same bits.

// OP 0: add, 1: sub, 2: mul (scaled2<op, EA, EB, EO>).
module inrarch_lane2 #(
    parameter int OP = 0,
    parameter int W  = 32,
    parameter int F  = 22,
    parameter int FA = 36,
    parameter int EA = 0,
    parameter int EB = 0,
    parameter int EO = 0
) (
    input  logic [W-1:0] a,
    input  logic [W-1:0] b,
    output logic [W-1:0] y,
    output logic         ovf
);
  logic [63:0] r;  // the result in A, before fit()
  logic r_ovf;     // A itself saturated (op_add/op_sub's fit into A)
  if (OP == 2) begin : g_mul
    // The exact product (2F fraction bits) into A: A(a * b), then realigned.
    logic signed [63:0] p;
    logic [63:0] pa;
    assign p = 64'($signed(a)) * 64'($signed(b));
    if (FA >= 2 * F) begin : g_up
      assign pa = p << (FA - 2 * F);
    end else begin : g_down
      assign pa = p >>> (2 * F - FA);
    end
    inrarch_shift #(.S(EO - EA - EB)) u_shift (.x(pa), .y(r));
    assign r_ovf = 1'b0;
  end else begin : g_sum
    // Both operands into A at the result's exponent, summed exactly, saturated to A.
    logic [63:0] xa, xb;
    logic signed [64:0] s;
    inrarch_shift #(.S(EO - EA + FA - F)) u_a (.x(64'($signed(a))), .y(xa));
    inrarch_shift #(.S(EO - EB + FA - F)) u_b (.x(64'($signed(b))), .y(xb));
    assign s = OP == 1 ? 65'($signed(xa)) - 65'($signed(xb)) : 65'($signed(xa)) + 65'($signed(xb));
    assign r_ovf = s[64] != s[63];
    assign r = !r_ovf ? s[63:0] : s[64] ? {1'b1, 63'b0} : {1'b0, {63{1'b1}}};
  end
  logic f_ovf;
  inrarch_fit #(.W(W), .F(F), .FA(FA)) u_fit (.x(r), .y(y), .ovf(f_ovf));
  assign ovf = r_ovf || f_ovf;
endmodule
)sv"},
      {"inrarch_shift.sv", R"sv(// x * 2^S in A, A's way: a left shift wraps, a right shift floors (shift_pow2).
module inrarch_shift #(
    parameter int S = 0
) (
    input  logic [63:0] x,
    output logic [63:0] y
);
  if (S >= 0) begin : g_left
    assign y = x << S;
  end else begin : g_right
    assign y = $signed(x) >>> (-S);
  end
endmodule
)sv"},
      {"inrarch_fit.sv", R"sv(// x (FA fraction bits) floored to F fraction bits and saturated to W bits.
module inrarch_fit #(
    parameter int W  = 32,
    parameter int F  = 22,
    parameter int FA = 36
) (
    input  logic [63:0]  x,
    output logic [W-1:0] y,
    output logic         ovf
);
  logic signed [63:0] t;
  logic hi, lo;
  assign t   = $signed(x) >>> (FA - F);
  assign hi  = t > 64'($signed({1'b0, {(W - 1) {1'b1}}}));
  assign lo  = t < 64'($signed({1'b1, {(W - 1) {1'b0}}}));
  assign y   = hi ? {1'b0, {(W - 1) {1'b1}}} : lo ? {1'b1, {(W - 1) {1'b0}}} : t[W-1:0];
  assign ovf = hi || lo;
endmodule
)sv"},
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
