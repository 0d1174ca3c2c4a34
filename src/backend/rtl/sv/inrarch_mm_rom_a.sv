// C[M, N] = A[M, K] · B[K, N] with A a constant ROM and B streamed (BB elements a beat), L
// MACs (the design's mm_lanes, at most BC*K; the HLS library's mm_rom_a<P, SHIFT>). Schedule (schedule.h):
// read every beat of B (II = 1) into inrarch_mm_bbuf; then per row of C, C = ceil(N*K/L)
// MAC cycles on inrarch_mm_engine, each taking the row's next L products; beat j of every row
// has its last product taken ceil((j+1)*BC*K/L) cycles into the row (MmCadence, no reads
// after B) and is written D cycles later (waiting for room: a full FIFO holds every register,
// the pipeline too); after the last row the pipeline drains.
// A is ROM_FILE, M lines of K*W bits (row i, word k at [k*W +: W]), read one cycle ahead
// into `aq` (a block ROM can hold it): the row the next row start loads into `h`, which
// rotates by L words a MAC cycle as inrarch_mm_stream_a's rows do. `aq` is row 0 until B's
// last beat and the next row from then on, so a row of one MAC cycle still finds it.
// A written beat carries the sticky flag of every B beat and of every fit up to its own
// elements' (the HLS kernel sets out.ovf after the beat's last fit).
module inrarch_mm_rom_a #(
    parameter int W = 32,
    parameter int F = 22,
    parameter int FA = 36,
    parameter int M = 2,
    parameter int K = 1,
    parameter int N = 1,
    parameter int BB = 1,
    parameter int BC = 1,
    parameter int L = 1,
    parameter int G = 1,
    parameter int SHIFT = 0,
    parameter int D = 9,
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
  logic [CW-1:0] c_after;
  logic [BC*W-1:0] beat;
  logic [MW-1:0] i;              // the row
  logic b_done, b_ovf, full, finished;
  logic mac, adv, tick, wr, row_end, beat_ovf, take;
  inrarch_mm_bbuf #(.W(W), .K(K), .N(N), .BB(BB), .L(L)) u_b (
      .clk, .rst, .b_data, .b_valid, .b_ready, .c_after, .take, .bq, .b_done, .ovf(b_ovf));
  inrarch_mm_engine #(.W(W), .F(F), .FA(FA), .K(K), .N(N), .BC(BC), .L(L), .G(G), .SHIFT(SHIFT), .D(D)) u_engine (
      .clk, .rst, .mac, .tick, .flag(b_ovf), .arow(h[(L < K ? L : K)*W-1:0]), .bq, .row_end, .c_after, .take, .wr, .beat, .beat_ovf);
  assign mac       = full && !finished;
  assign tick      = !wr || out_ready;
  assign adv       = tick && mac;
  assign out_valid = tick && wr;
  assign out_data  = {beat_ovf, beat};

  // A's rows: the next one a cycle ahead (row 0 until B is read), rotated as it is used. The
  // read is enabled by the step and addressed by registers: row 0 or 1 while B is read, then
  // at each row's end the row after the next (ia2, saturating at M - 1).
  logic [AW-1:0] ia2;
  always_ff @(posedge clk)
    if (!full || (adv && row_end)) aq <= arom[full ? ia2 : AW'(b_done && M > 1 ? 1 : 0)];
  always_ff @(posedge clk)
    if (rst) ia2 <= AW'(M > 2 ? 2 : M - 1);
    else if (adv && row_end && 32'(ia2) < M - 1) ia2 <= ia2 + 1'b1;
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
      i <= '0;
    end else begin
      full <= b_done;
      if (adv) begin
        if (row_end) i <= i + 1'b1;
        if (row_end && i == MW'(M - 1)) finished <= 1'b1;
      end
    end
  end
endmodule
