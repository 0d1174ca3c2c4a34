// C[M, N] = A[M, K] · B[K, N] with A streamed (BA elements a beat) and B read from outside a
// cycle ahead (`bq` at `c_next`: a ROM, or a buffer of a streamed B), on inrarch_mm_engine's
// L MACs, D pipeline stages. Schedule (schedule.h, MmCadence), once `go` (B is there): read
// the K/BA beats of A row 0 (II = 1); then per row, C = ceil(N*K/L) MAC cycles. The cycle
// that takes a beat's last product, ceil((j+1)*BC*K/L) cycles into the row for beat j, reads
// a beat of the next A row while some are left to read (waiting for it); beats of the next
// row left after the row's last MAC cycle are read at II = 1. Beat j is written D cycles
// after its MAC cycle (waiting for room). A cycle is one step: it fires (`tick`) when all of
// its reads and its write can; else every register holds, the engine's pipeline too.
// A's two rows are registers: a row's beats shift into their half in order, and the half in
// use rotates by L words a MAC cycle (word x <- word (x + L) mod K).
// A written beat carries the sticky flag of `pre_ovf` (B's beats), of the A beats read
// before its MAC cycle and of every fit up to its own (the engine carries the flag).
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
    parameter int D = 11,
    parameter int CW = (N * K + L - 1) / L > 1 ? $clog2((N * K + L - 1) / L) : 1  // derived, not set
) (
    input  logic          clk,
    input  logic          rst,
    input  logic          go,
    input  logic          pre_ovf,
    input  logic [L*W-1:0] bq,
    output logic [CW-1:0] c_next,
    output logic [CW-1:0] c_after,
    output logic          take,
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
  logic mac, writes, row_end, more, wr, need_r, read_phase, tick, fire_r, adv, last_read, beat_ovf;
  logic last_row, jb_open;       // i = M - 1, jb < OVERLAP: registers, so the step need not compare
  logic [K*W-1:0] arow, hrot;
  logic [BC*W-1:0] beat;
  assign arow = cur ? h1 : h0;
  inrarch_mm_engine #(.W(W), .F(F), .FA(FA), .K(K), .N(N), .BC(BC), .L(L), .G(G), .SHIFT(SHIFT), .D(D)) u_engine (
      .clk, .rst, .mac, .tick, .flag(pre_ovf || sticky), .arow(arow[(L < K ? L : K)*W-1:0]), .bq, .writes,
      .row_end, .c_next, .c_after, .take, .wr, .beat, .beat_ovf);

  // Steps: a read phase's cycles read; a MAC cycle reads with its beat's last product while
  // the next row has beats left; any cycle writes the beat whose MAC cycle was D ago.
  assign mac        = phase == ROW;
  assign read_phase = phase == FIRST_ROW || phase == TAIL;
  assign more       = !last_row && jb_open;
  assign need_r     = read_phase || (mac && writes && more);
  assign tick       = (!read_phase || (started && go)) && (!need_r || a_valid) && (!wr || out_ready);
  assign adv        = tick && mac;
  assign fire_r     = tick && read_phase;
  assign a_ready    = tick && need_r;
  assign out_valid  = tick && wr;
  assign out_data   = {beat_ovf, beat};
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
      last_row <= M == 1;
      jb_open <= 1'b1;
    end else begin
      started <= 1'b1;
      if (a_ready) sticky <= sticky || a_data[BA*W];
      if (fire_r) begin  // FIRST_ROW, TAIL
        ra <= last_read ? '0 : ra + 1'b1;
        if (last_read) begin
          phase <= ROW;
          if (phase == TAIL) begin
            i <= i + 1'b1;
            last_row <= i + 1'b1 == MW'(M - 1);
            cur <= !cur;
          end
        end
      end else if (adv) begin  // a MAC cycle
        if (writes) begin
          jb <= jb + 1'b1;
          jb_open <= jb + 1'b1 < NW'(OVERLAP);
        end
        if (row_end) begin  // its last write
          jb <= '0;
          jb_open <= 1'b1;
          if (i == MW'(M - 1)) phase <= DONE;
          else if (READS > OVERLAP) begin
            phase <= TAIL;
            ra <= KW'(OVERLAP);
          end else begin
            i <= i + 1'b1;
            last_row <= i + 1'b1 == MW'(M - 1);
            cur <= !cur;
          end
        end
      end
    end
  end
endmodule
