// The L products of an mm engine's MAC cycle (docs/rtl.md, "The mm engine's pipeline"): lane
// u multiplies A's word u mod K (`arow`, the words the lanes read) by B's word u (`bq`),
// each operand registered (the DSP48E2's A/B registers) and the product formed by
// inrarch_mul_dsp (1 stage for a pair that fits one DSP48E2, 4 otherwise): p holds the
// products of the MAC cycle 1 + mul_dsp_depth ticks ago. Stages move on `tick`.
module inrarch_mm_products #(
    parameter int W = 32,
    parameter int WB = W,
    parameter int K = 1,
    parameter int L = 1
) (
    input  logic          clk,
    input  logic          tick,
    input  logic [(L < K ? L : K)*W-1:0] arow,
    input  logic [L*WB-1:0] bq,
    output logic [L*64-1:0] p
);
  for (genvar u = 0; u < L; u = u + 1) begin : g_lane
    logic [W-1:0] ar;
    logic [WB-1:0] br;
    always_ff @(posedge clk)
      if (tick) begin
        ar <= arow[(u%K)*W+:W];
        br <= bq[u*WB+:WB];
      end
    inrarch_mul_dsp #(.W(W), .WB(WB)) u_mul (.clk, .en(tick), .a(ar), .b(br), .p(p[u*64+:64]));
  end
endmodule
