// fit() (inrarch_fit) cut in two for the pipelined lanes: the range flags and the bits kept
// are registered on `en`; the saturating select after them is combinational, so y and ovf
// are those of the x of one fire ago.
module inrarch_fit_stage #(
    parameter int W  = 32,
    parameter int F  = 22,
    parameter int FA = 36
) (
    input  logic         clk,
    input  logic         en,
    input  logic [63:0]  x,
    output logic [W-1:0] y,
    output logic         ovf
);
  localparam int LO = FA - F + W - 1;  // the lowest bit that must equal the sign
  logic f_hi, f_lo, hi, lo, either;
  logic [W-1:0] t;
  inrarch_fit_flags #(.LO(LO)) u_flags (.x, .hi(f_hi), .lo(f_lo));
  // ovf is a flip-flop of its own, not hi || lo: a kernel ORs its lanes' flags into its
  // sticky bit in the cycle they leave the lanes, and a LUT here was one level of that.
  always_ff @(posedge clk) if (en) {hi, lo, either, t} <= {f_hi, f_lo, f_hi || f_lo, x[LO:FA-F]};
  assign y   = hi ? {1'b0, {(W - 1) {1'b1}}} : lo ? {1'b1, {(W - 1) {1'b0}}} : t;
  assign ovf = either;
endmodule
