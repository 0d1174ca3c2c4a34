// fit() (inrarch_fit) cut in two for the pipelined lanes: the range flags and the bits kept
// are registered on `en`; the saturating select after them is combinational, so y and ovf
// are those of the x of one fire ago.
module inrarch_fit_stage #(
    parameter int W  = 32,
    parameter int F  = 22,
    parameter int FA = 36,
    parameter int XW = 64,  // x is the sign extension of x[XW-1:0] (inrarch_fit_flags)
    // SAT: y is the fit of XSAT (a constant) when `sat` was set with x, in the one select.
    // A lane whose operator saturates (neg of the minimum) flags it beside a wrapped x, and
    // no select stands between its operator and this stage.
    parameter bit          SAT  = 1'b0,
    parameter logic [63:0] XSAT = '0
) (
    input  logic         clk,
    input  logic         en,
    input  logic [63:0]  x,
    input  logic         sat,
    output logic [W-1:0] y,
    output logic         ovf
);
  localparam int LO = FA - F + W - 1;  // the lowest bit that must equal the sign
  logic f_hi, f_lo, hi, lo, either;
  logic [W-1:0] t;
  inrarch_fit_flags #(.LO(LO), .XW(XW)) u_flags (.x, .hi(f_hi), .lo(f_lo));
  // ovf is a flip-flop of its own, not hi || lo: a kernel ORs its lanes' flags into its
  // sticky bit in the cycle they leave the lanes, and a LUT here was one level of that.
  always_ff @(posedge clk) if (en) {hi, lo, either, t} <= {f_hi, f_lo, f_hi || f_lo, x[LO:FA-F]};
  localparam logic [W-1:0] MAXW = {1'b0, {(W - 1) {1'b1}}}, MINW = {1'b1, {(W - 1) {1'b0}}};
  if (SAT) begin : g_sat
    // XSAT's flags and kept bits, as inrarch_fit_flags reads them (XSAT is a full 64 bits).
    localparam bit SHI = !XSAT[63] && |XSAT[62:LO], SLO = XSAT[63] && !(&XSAT[62:LO]);
    localparam logic [W-1:0] YSAT = SHI ? MAXW : SLO ? MINW : XSAT[LO:FA-F];
    logic s;
    always_ff @(posedge clk) if (en) s <= sat;
    assign y = s ? YSAT : hi ? MAXW : lo ? MINW : t;
  end else begin : g_plain
    /* verilator lint_off UNUSEDSIGNAL */
    logic unused;
    assign unused = sat;
    /* verilator lint_on UNUSEDSIGNAL */
    assign y = hi ? MAXW : lo ? MINW : t;
  end
  assign ovf = either;
endmodule
