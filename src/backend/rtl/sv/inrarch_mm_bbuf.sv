// All of a streamed B (BB elements a beat, row-major beats), read first at II = 1 (the HLS
// mm_read_b), held as inrarch_mm_engine reads it: product t = n*K + k of a row (element
// (k, n), column-major as the HLS buffer) in bank t mod L, word t / L, so the L words of MAC
// cycle c are word c of every bank. A beat's elements go to banks and words kept as running
// (word, bank) pairs (constant steps, no divider): element (r, c) of B at t = c*K + r.
// Read one cycle ahead into `bq`: word 0 while B is read (a word 0 written in that cycle is
// forwarded, as a constant A's first MAC cycle can come right after B's last beat), then on
// each MAC cycle (`take`) the word of the next one, `c_after`: registers, not the step's logic.
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
    input  logic [CW-1:0] c_after,
    input  logic          take,
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
      if (!full || take) q <= mem[full ? c_after : '0];
      if (fire)
        for (int x = 0; x < BB; x = x + 1)
          if (lux[x*(CW+UW)+:UW] == UW'(u)) begin
            mem[lux[x*(CW+UW)+UW+:CW]] <= b_data[x*W+:W];
            if (lux[x*(CW+UW)+UW+:CW] == '0) q <= b_data[x*W+:W];
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
