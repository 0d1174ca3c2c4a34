// C[M, N] = A[M, K] · B[K, N] with A and B streamed, L MACs (the design's mm_lanes, at
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
    parameter int SHIFT = 0,
    parameter int D = 9
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
  logic [CW-1:0] c_after;
  logic b_done, b_ovf, full, take;
  always_ff @(posedge clk) full <= !rst && b_done;
  inrarch_mm_bbuf #(.W(W), .K(K), .N(N), .BB(BB), .L(L)) u_b (
      .clk, .rst, .b_data, .b_valid, .b_ready, .c_after, .take, .bq, .b_done, .ovf(b_ovf));
  inrarch_mm_stream_a #(.W(W), .F(F), .FA(FA), .M(M), .K(K), .N(N), .BA(BA), .BC(BC), .L(L), .G(G),
                        .SHIFT(SHIFT), .D(D)) u_rows (
      .clk, .rst, .go(full), .pre_ovf(b_ovf), .bq, .c_after, .take, .a_data, .a_valid, .a_ready,
      .out_data, .out_valid, .out_ready);
endmodule
