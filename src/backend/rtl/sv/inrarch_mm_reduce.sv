// C[K, N] = Σ_r A[r, :]ᵀ B[r, :] with A [R, K] and B [R, N] streamed by rows (the HLS
// library's mm_reduce<L, SHIFT>; schedule.h "mm_reduce"). S = max(K/BA, N/BB) read steps a
// row (step j reads beat j of the A row and of the B row, each while it has one), WM =
// ceil(K*N/L) MAC cycles a row, T = max(WM, S). Read row 0; then row r's loop runs T cycles
// (the last row's WM), cycle t taking products t*L .. t*L+L-1 (p = k*N + n into
// accumulator p) and, while t < S and a row is left, reading beat t of row r+1 into the
// other half of the row buffers: a cycle with reads waits for them. Then C's K*N/BC beats,
// one a cycle as room allows.
// Arithmetic as the HLS kernel: each product floored into the accumulator A = ap_fixed<64,
// 64-FA> (wrapping), summed over the rows in order, realigned by SHIFT and fit once. A
// written beat carries the sticky flag of every read beat, of every fit of earlier beats
// and of its own elements' fits.
module inrarch_mm_reduce #(
    parameter int W = 32,
    parameter int F = 22,
    parameter int FA = 36,
    parameter int R = 1,
    parameter int K = 1,
    parameter int N = 1,
    parameter int BA = 1,
    parameter int BB = 1,
    parameter int BC = 1,
    parameter int L = 1,
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
  localparam int RA = K / BA, RB = N / BB, S = RA > RB ? RA : RB;
  localparam int WM = (K * N + L - 1) / L, T = WM > S ? WM : S, Q = K * N / BC;
  localparam int TW = $clog2(T + 2), RW = $clog2(R + 1), QW = $clog2(Q + 1);
  localparam logic [1:0] FIRST = 2'd0, ROW = 2'd1, WRITE = 2'd2, DONE = 2'd3;

  logic [2*K*W-1:0] arow;  // two rows of A: word x of half h at [(h*K + x)*W +: W]
  logic [2*N*W-1:0] brow;  // and of B
  logic [63:0] acc [K*N];
  logic [1:0] phase;
  logic started, cur, sticky;
  logic [TW-1:0] t;     // FIRST: the read step; ROW: the cycle of the row's loop
  logic [RW-1:0] r;     // the row whose products the loop takes
  logic [QW-1:0] q;     // WRITE: the beat

  // This cycle's reads (FIRST: row 0; ROW: row r+1 while t < S) and whether the step fires.
  logic reading, need_a, need_b, fire, row_last, fill;
  assign reading = (phase == FIRST && started) || (phase == ROW && r != RW'(R - 1) && t < TW'(S));
  assign need_a = reading && t < TW'(RA);
  assign need_b = reading && t < TW'(RB);
  assign fire = (phase == FIRST && started && (!need_a || a_valid) && (!need_b || b_valid)) ||
                (phase == ROW && (!need_a || a_valid) && (!need_b || b_valid)) ||
                (phase == WRITE && out_ready);
  assign a_ready = fire && need_a;
  assign b_ready = fire && need_b;
  assign fill = phase == FIRST ? cur : !cur;  // the half the reads go to
  assign row_last = t == TW'((r == RW'(R - 1) ? WM : T) - 1);

  // The written beat: BC accumulators realigned and fit.
  logic [BC*W-1:0] beat;
  logic [BC-1:0] yo;
  for (genvar e = 0; e < BC; e = e + 1) begin : g_out
    logic [63:0] sh;
    inrarch_shift #(.S(SHIFT)) u_shift (.x(acc[q * BC + e]), .y(sh));
    inrarch_fit #(.W(W), .F(F), .FA(FA)) u_fit (.x(sh), .y(beat[e*W+:W]), .ovf(yo[e]));
  end
  assign out_valid = phase == WRITE && out_ready;
  assign out_data = {sticky || |yo, beat};

  // The lanes' products of this cycle (lane u: product t*L + u), floored to FA fraction bits.
  logic [L*64-1:0] pa;  // lane u at [u*64 +: 64]
  for (genvar u = 0; u < L; u = u + 1) begin : g_lane
    logic [31:0] pu;
    logic [W-1:0] xa, xb;
    logic signed [2*W-1:0] prod;
    assign pu = 32'(t) * 32'(L) + 32'(u) < 32'(K * N) ? 32'(t) * 32'(L) + 32'(u) : '0;
    assign xa = arow[(32'(cur) * 32'(K) + pu / 32'(N))*W+:W];
    assign xb = brow[(32'(cur) * 32'(N) + pu % 32'(N))*W+:W];
    assign prod = $signed(xa) * $signed(xb);
    if (FA >= 2 * F) begin : g_up
      assign pa[u*64+:64] = 64'($signed(prod)) << (FA - 2 * F);
    end else begin : g_down
      assign pa[u*64+:64] = 64'($signed(prod)) >>> (2 * F - FA);
    end
  end

  always_ff @(posedge clk) begin
    if (phase == ROW && fire && t < TW'(WM))
      for (int u = 0; u < L; u = u + 1)
        if (t * L + u < K * N)
          acc[t*L+u] <= acc[t*L+u] + pa[u*64+:64];
    if (rst)
      for (int p = 0; p < K * N; p = p + 1) acc[p] <= '0;
    if (a_ready)
      for (int e = 0; e < BA; e = e + 1) arow[(32'(fill) * 32'(K) + 32'(t) * 32'(BA) + 32'(e))*W+:W] <= a_data[e*W+:W];
    if (b_ready)
      for (int e = 0; e < BB; e = e + 1) brow[(32'(fill) * 32'(N) + 32'(t) * 32'(BB) + 32'(e))*W+:W] <= b_data[e*W+:W];
  end

  always_ff @(posedge clk) begin
    if (rst) begin
      started <= 1'b0;
      phase <= FIRST;
      cur <= 1'b0;
      sticky <= 1'b0;
      t <= '0;
      r <= '0;
      q <= '0;
    end else begin
      started <= 1'b1;
      if (a_ready && a_data[BA*W]) sticky <= 1'b1;
      if (b_ready && b_data[BB*W]) sticky <= 1'b1;
      if (fire) begin
        case (phase)
          FIRST: begin
            t <= t == TW'(S - 1) ? '0 : t + 1'b1;
            if (t == TW'(S - 1)) phase <= ROW;
          end
          ROW: begin
            t <= row_last ? '0 : t + 1'b1;
            if (row_last) begin
              if (r == RW'(R - 1)) phase <= WRITE;
              else begin
                r <= r + 1'b1;
                cur <= !cur;
              end
            end
          end
          WRITE: begin
            if (|yo) sticky <= 1'b1;
            q <= q + 1'b1;
            if (q == QW'(Q - 1)) phase <= DONE;
          end
          default: ;
        endcase
      end
    end
  end
endmodule
