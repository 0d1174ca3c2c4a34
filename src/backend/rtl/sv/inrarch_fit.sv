// x (FA fraction bits) floored to F fraction bits and saturated to W bits. The range test
// reads bits instead of comparing 64-bit numbers: t = x >>> (FA - F) exceeds W bits exactly
// when x's bits FA - F + W - 1 … 62 are not all copies of its sign (the emitter admits only
// FA - F + W - 1 <= 62), a reduction of two LUT levels where a compare is a carry chain.
module inrarch_fit #(
    parameter int W  = 32,
    parameter int F  = 22,
    parameter int FA = 36
) (
    input  logic [63:0]  x,
    output logic [W-1:0] y,
    output logic         ovf
);
  localparam int LO = FA - F + W - 1;  // the lowest bit that must equal the sign
  logic hi, lo;
  inrarch_fit_flags #(.LO(LO)) u_flags (.x, .hi, .lo);
  assign y   = hi ? {1'b0, {(W - 1) {1'b1}}} : lo ? {1'b1, {(W - 1) {1'b0}}} : x[LO:FA-F];
  assign ovf = hi || lo;
endmodule
