// C[M, N] = A[M, K] · B[K, N] with A streamed and B a constant ROM, L MACs (the design's
// mm_lanes, at most BC*K; the HLS library's mm_rom_b<P, SHIFT>): inrarch_mm_stream_a reading B from
// ROM_FILE, C words of L*WB bits (word c, lane u: product c*L + u of a row, the column-major
// element (k, n) = (t mod K, t / K); zero past N*K), one MAC cycle ahead into a register, so
// a block ROM can hold it.
module inrarch_mm_rom_b #(
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
    parameter int WB = W,  // the ROM's words: narrow weights keep the binary point, FB fraction bits
    parameter int FB = F,
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
  localparam int C = (N * K + L - 1) / L, CW = C > 1 ? $clog2(C) : 1;
  logic [L*WB-1:0] brom[C];
  initial $readmemh(ROM_FILE, brom);
  logic [L*WB-1:0] bq;
  logic [CW-1:0] c_after;
  logic take, loaded;
  // bq is the word of the MAC cycle in use: word 0 once after reset, then on each MAC cycle
  // the next cycle's, read at a registered address (c_after), so that the kernel's step is
  // only the read's enable, not a term of the ROM's address.
  always_ff @(posedge clk) loaded <= !rst;
  always_ff @(posedge clk) if (!loaded || take) bq <= brom[loaded ? c_after : '0];
  inrarch_mm_stream_a #(.W(W), .F(F), .FA(FA), .M(M), .K(K), .N(N), .BA(BA), .BC(BC), .L(L), .G(G),
                        .SHIFT(SHIFT), .D(D), .WB(WB), .FB(FB)) u_rows (
      .clk, .rst, .go(loaded), .pre_ovf(1'b0), .bq, .c_after, .take, .a_data, .a_valid, .a_ready,
      .out_data, .out_valid, .out_ready);
endmodule
