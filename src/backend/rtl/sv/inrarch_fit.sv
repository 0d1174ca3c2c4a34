// x (FA fraction bits) floored to F fraction bits and saturated to W bits.
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
