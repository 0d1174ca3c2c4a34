// inrarch_fit's saturation test: x, read from bit LO - 1 up as a W-bit signed value (its
// bits below are the ones fit() floors away), misses that range above (x >= 0 with a one in
// bits LO … 62) or below (x < 0 with a zero there). A reduction of two LUT levels where a
// 64-bit compare would be a carry chain.
//
// XW: the bits of x that can differ from its sign (x is the sign extension of x[XW-1:0]).
// A caller that widens a narrow value says so: the kernels are synthesized module by module,
// so a reduction over copies of one sign bit would be built whole (the quotient's fit at
// 24-bit lanes: 40 bits, two LUT levels with MUXF7/F8 each, 272 MHz).
module inrarch_fit_flags #(
    parameter int LO = 45,
    parameter int XW = 64
) (
    /* verilator lint_off UNUSEDSIGNAL */
    input  logic [63:0] x,  // bits below LO do not decide the range
    /* verilator lint_on UNUSEDSIGNAL */
    output logic        hi,
    output logic        lo
);
  localparam int TOP = XW < 64 ? XW - 1 : 63;  // the sign bit read
  if (TOP > LO) begin : g_range
    assign hi = !x[TOP] && |x[TOP-1:LO];
    assign lo = x[TOP] && !(&x[TOP-1:LO]);
  end else begin : g_fits  // every bit from LO up is the sign: x is always in range
    assign hi = 1'b0;
    assign lo = 1'b0;
  end
endmodule
