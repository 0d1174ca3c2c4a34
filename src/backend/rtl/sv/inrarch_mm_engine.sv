// The L MACs of a matrix product row by row and the D-stage pipeline after them (mm_row of
// the HLS library, MmCadence; docs/rtl.md, "The mm engine"): inrarch_mm_engine_aligned when
// the lanes are aligned with K (L divides K or K divides L: every cycle's products fall into
// whole groups of one element each, summed by plain adder trees), else
// inrarch_mm_engine_prefix (elements straddle lanes anywhere: prefix sums and windows). The
// two share ports and cadence and differ in depth: D = dataflow::mm_pipeline_depth(L, K, ..).
// The row's MAC cycles are counted here, for both: c_after (the MAC cycle after this one) and
// row_end (this one is the row's last) are registers, so the kernel's step (and every reset
// on `take && row_end`) reads no compare of a count.
module inrarch_mm_engine #(
    parameter int W = 32,
    parameter int F = 22,
    parameter int FA = 36,
    parameter int K = 1,
    parameter int N = 1,
    parameter int BC = 1,
    parameter int L = 1,
    parameter int G = 1,
    parameter int SHIFT = 0,
    parameter int D = 9,
    parameter int WB = W,
    parameter int FB = F,
    parameter int CW = (N * K + L - 1) / L > 1 ? $clog2((N * K + L - 1) / L) : 1  // derived, not set
) (
    input  logic          clk,
    input  logic          rst,
    input  logic          mac,
    input  logic          tick,
    input  logic          flag,
    input  logic [(L < K ? L : K)*W-1:0] arow,
    input  logic [L*WB-1:0] bq,
    output logic          row_end,
    output logic [CW-1:0] c_after,
    output logic          take,
    output logic          wr,
    output logic [BC*W-1:0] beat,
    output logic          beat_ovf
);
  // inrarch_select_tree's register stages for n inputs (dataflow::select_tree_stages).
  function automatic int select_stages(input int n);
    int g, st;
    g = (n + 17) / 18;
    st = 1;
    for (int i = 0; i < 8; i = i + 1)
      if (g > 1) begin
        g = (g + 35) / 36;
        st = st + 1;
      end
    select_stages = st;
  endfunction
  if (L % K == 0 || K % L == 0) begin : g_aligned
    inrarch_mm_engine_aligned #(.W(W), .F(F), .FA(FA), .K(K), .N(N), .BC(BC), .L(L), .SHIFT(SHIFT), .D(D), .WB(WB),
                                .FB(FB), .S(select_stages(L / (L < K ? L : K)))) u_aligned (
        .clk, .rst, .mac, .tick, .flag, .arow, .bq, .row_end, .c_after, .wr, .beat, .beat_ovf);
  end else begin : g_prefix
    inrarch_mm_engine_prefix #(.W(W), .F(F), .FA(FA), .K(K), .N(N), .BC(BC), .L(L), .G(G), .SHIFT(SHIFT), .D(D),
                               .WB(WB), .FB(FB), .S(select_stages(L))) u_prefix (
        .clk, .rst, .mac, .tick, .flag, .arow, .bq, .row_end, .wr, .beat, .beat_ovf);
  end
  localparam int C = (N * K + L - 1) / L;
  assign take = tick && mac;
  always_ff @(posedge clk)
    if (rst) begin
      c_after <= CW'(C > 1 ? 1 : 0);
      row_end <= C == 1;
    end else if (take) begin
      c_after <= c_after == CW'(C - 1) ? '0 : c_after + 1'b1;
      row_end <= c_after == CW'(C - 1);
    end
endmodule
