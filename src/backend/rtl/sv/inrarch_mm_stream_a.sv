// C[M, N] = A[M, K] · B[K, N] with A streamed (BA elements a beat) and B read from outside a
// cycle ahead (`bq`: word 0, then on each `take` the word of `c_after`; a ROM, or a buffer of
// a streamed B), on inrarch_mm_engine's L MACs, D pipeline stages. Schedule (schedule.h,
// MmCadence), once `go` (B is there): read the K/BA beats of A row 0 (II = 1); then per row,
// C = ceil(N*K/L) MAC cycles, beat j's last product taken ceil((j+1)*BC*K/L) cycles into the
// row. The row's MAC cycles read S = min(K/BA, C) beats of the next A row, spread evenly:
// beat r in MAC cycle ceil((r+1)*C/S) (waiting for it), so the row asks A at the pace it
// uses it; beats of the next row left after the row's last MAC cycle are read at II = 1.
// Beat j is written D cycles after its MAC cycle (waiting for room). A cycle is one
// step: it fires (`tick`) when all of its reads and its write can; else every register
// holds, the engine's pipeline too.
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
    parameter int D = 9,
    parameter int WB = W,  // B's words (narrow weights: fewer bits, the same binary point)
    parameter int FB = F,
    parameter int CW = (N * K + L - 1) / L > 1 ? $clog2((N * K + L - 1) / L) : 1  // derived, not set
) (
    input  logic          clk,
    input  logic          rst,
    input  logic          go,
    input  logic          pre_ovf,
    input  logic [L*WB-1:0] bq,
    output logic [CW-1:0] c_after,
    output logic          take,
    input  logic [BA*W:0] a_data,
    input  logic          a_valid,
    output logic          a_ready,
    output logic [BC*W:0] out_data,
    output logic          out_valid,
    input  logic          out_ready
);
  localparam int READS = K / BA, R = L % K;
  localparam int KW = $clog2(K + 1), MW = $clog2(M + 1);
  localparam int C = (N * K + L - 1) / L, S = READS < C ? READS : C, SW = C > 1 ? $clog2(C) : 1;
  localparam logic [1:0] FIRST_ROW = 2'd0, ROW = 2'd1, TAIL = 2'd2, DONE = 2'd3;

  logic [K*W-1:0] h0, h1;        // two rows of A: the one in use (`cur`) and the next
  logic cur, sticky;
  logic [1:0] phase;
  logic [MW-1:0] i;              // the row
  logic [KW-1:0] ra;             // the next row's beats read (in a row's MAC cycles, then its tail)
  logic ra_last, ra_full;        // ra = READS - 1, ra = READS: registers, so the step need not compare
  logic [SW-1:0] spread;         // c*S mod C after MAC cycle c of the row
  logic spread_wraps;            // spread + S >= C: MAC cycle c + 1 reads (a register)
  logic row_end, wr, read_phase, tick, beat_ovf;
  logic last_row;                // i = M - 1: a register, so the step need not compare
  logic mac, need_r;             // phase = ROW; the step reads A: registers, set with the step
  logic [K*W-1:0] arow, hrot;
  logic [BC*W-1:0] beat;
  assign arow = cur ? h1 : h0;
  inrarch_mm_engine #(.W(W), .F(F), .FA(FA), .K(K), .N(N), .BC(BC), .L(L), .G(G), .SHIFT(SHIFT), .D(D), .WB(WB),
                      .FB(FB)) u_engine (
      .clk, .rst, .mac, .tick, .flag(pre_ovf || sticky), .arow(arow[(L < K ? L : K)*W-1:0]), .bq, .row_end, .c_after, .take, .wr, .beat, .beat_ovf);

  // Steps: a read phase's cycles read (once `go`: B is there); a MAC cycle reads while the
  // next row has beats left; any cycle writes the beat whose
  // MAC cycle was D ago. `go` is low in the cycle after reset, as B cannot be there yet, and
  // high from B's arrival on, so every read may wait for it. The step is then one LUT over
  // registers (need_r, wr; mac for a MAC cycle) and the ports: what the next step does is
  // worked out with this one (below), never in the step's own cycle.
  assign read_phase = phase == FIRST_ROW || phase == TAIL;
  assign tick       = (!need_r || (a_valid && go)) && (!wr || out_ready);
  assign a_ready    = tick && need_r;
  assign out_valid  = tick && wr;
  assign out_data   = {beat_ovf, beat};

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
    else if (tick && mac && !cur) h0 <= hrot;
    if (a_ready && ahalf) h1 <= h1_in;
    else if (tick && mac && cur) h1 <= hrot;
  end

  // The state after this cycle's step, if it fires (the registers move only then): a read
  // phase's read, or a MAC cycle (its read, and at the row's end the next row).
  logic [1:0] phase_f;
  logic [MW-1:0] i_f;
  logic [KW-1:0] ra_f;
  logic cur_f, last_row_f, ra_last_f, ra_full_f, ra_prev;
  assign ra_prev = READS >= 2 && ra == KW'(READS - 2);  // the next read makes ra = READS - 1
  always_comb begin
    {phase_f, i_f, ra_f} = {phase, i, ra};
    {cur_f, last_row_f, ra_last_f, ra_full_f} = {cur, last_row, ra_last, ra_full};
    if (read_phase) begin  // FIRST_ROW, TAIL
      ra_f = ra_last ? '0 : ra + 1'b1;
      {ra_last_f, ra_full_f} = {ra_last ? READS == 1 : ra_prev, 1'b0};
      if (ra_last) begin
        phase_f = ROW;
        if (phase == TAIL) begin
          i_f = i + 1'b1;
          last_row_f = M >= 2 && i == MW'(M - 2);
          cur_f = !cur;
        end
      end
    end else if (mac) begin
      if (need_r) begin
        ra_f = ra + 1'b1;
        {ra_last_f, ra_full_f} = {ra_prev, ra_last};
      end
      if (row_end) begin  // its last write
        if (last_row) phase_f = DONE;
        else if (!(need_r ? ra_last : ra_full)) phase_f = TAIL;  // beats of the next row left
        else begin
          ra_f = '0;
          {ra_last_f, ra_full_f} = {READS == 1, 1'b0};
          i_f = i + 1'b1;
          last_row_f = M >= 2 && i == MW'(M - 2);
          cur_f = !cur;
        end
      end
    end
  end

  // The even spread of the next row's reads (Bresenham): after MAC cycle c, spread = c*S mod
  // C, and cycle c + 1 reads when spread + S >= C. Both next values come from registers with
  // one compare or add each: spread + S - C or spread + S, and whether that plus S reaches C.
  // A row's last cycle leaves spread at C*S mod C = 0, so no row start resets it. The two
  // compares are registers too (reach_w, reach: of the spread they move with), so the step
  // reads one LUT of them; their next values compare the present spread with constants.
  function automatic logic at_least(input logic [SW-1:0] v, input int bound);
    at_least = bound <= 0 || 32'(v) >= 32'(bound);
  endfunction
  logic [SW-1:0] spread_f;
  logic spread_f_wraps;
  assign spread_f = spread_wraps ? SW'(32'(spread) - (C - S)) : SW'(32'(spread) + S);  // one adder each
  localparam int REACH_W = 2 * C - 2 * S, REACH = C - 2 * S;  // spread's bounds after a wrap, or not
  logic reach_w, reach, reach_w_f, reach_f;
  assign reach_w_f = spread_wraps ? at_least(spread, REACH_W + C - S) : at_least(spread, REACH_W - S);
  assign reach_f = spread_wraps ? at_least(spread, REACH + C - S) : at_least(spread, REACH - S);
  assign spread_f_wraps = spread_wraps ? reach_w : reach;

  always_ff @(posedge clk) begin
    if (rst) begin
      sticky <= 1'b0;
      phase <= FIRST_ROW;
      cur <= 1'b0;
      i <= '0;
      ra <= '0;
      {ra_last, ra_full} <= {READS == 1, 1'b0};
      spread <= '0;
      spread_wraps <= S >= C;
      {reach_w, reach} <= {REACH_W <= 0, REACH <= 0};
      last_row <= M == 1;
      mac <= 1'b0;
      need_r <= 1'b1;
    end else begin
      if (a_ready) sticky <= sticky || a_data[BA*W];
      if (tick) begin
        {phase, i, ra} <= {phase_f, i_f, ra_f};
        {ra_last, ra_full} <= {ra_last_f, ra_full_f};
        {cur, last_row} <= {cur_f, last_row_f};
        mac <= phase_f == ROW;
        need_r <= phase_f == FIRST_ROW || phase_f == TAIL ||
                  (phase_f == ROW && !last_row_f && (mac ? spread_f_wraps : spread_wraps));
        if (mac) {spread, spread_wraps, reach_w, reach} <= {spread_f, spread_f_wraps, reach_w_f, reach_f};
      end
    end
  end
endmodule
