// inrarch_fit's saturation test: x, read from bit LO - 1 up as a W-bit signed value (its
// bits below are the ones fit() floors away), misses that range above (x >= 0 with a one in
// bits LO … 62) or below (x < 0 with a zero there). A reduction of two LUT levels where a
// 64-bit compare would be a carry chain.
module inrarch_fit_flags #(
    parameter int LO = 45
) (
    /* verilator lint_off UNUSEDSIGNAL */
    input  logic [63:0] x,  // bits below LO do not decide the range
    /* verilator lint_on UNUSEDSIGNAL */
    output logic        hi,
    output logic        lo
);
  assign hi = !x[63] && |x[62:LO];
  assign lo = x[63] && !(&x[62:LO]);
endmodule
