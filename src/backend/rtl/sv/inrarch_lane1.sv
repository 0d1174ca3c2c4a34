// OP 3: neg, 4: relu, 5: step (scaled1<op, EA, EO>): the operator on the stored value in T
// (-min saturates to max and sets ovf), then realigned into A and fit. neg and relu are
// homogeneous (shift by EO - EA); step is invariant: T(1) or T(0), shifted by EO.
// Pipelined (D = 4, src/dataflow/elementwise.def; the stages advance on `en`): the operand,
// the operator's result, the fit's flags; y / ovf are the element of three fires ago.
module inrarch_lane1 #(
    parameter int OP = 3,
    parameter int W  = 32,
    parameter int F  = 22,
    parameter int FA = 36,
    parameter int EA = 0,
    parameter int EO = 0,
    parameter int D  = 4   // the kernel's depth: the stages below, more of them delay y
) (
    input  logic         clk,
    input  logic         en,
    input  logic [W-1:0] a,
    output logic [W-1:0] y,
    output logic         ovf
);
  // The lane codes (the OP column of src/dataflow/elementwise.def; a test checks them).
  /* verilator lint_off UNUSEDPARAM */
  localparam int OP_NEG = 3, OP_RELU = 4, OP_STEP = 5;
  /* verilator lint_on UNUSEDPARAM */
  localparam logic [W-1:0] MAX = {1'b0, {(W - 1) {1'b1}}};
  localparam logic [W-1:0] ONE = W'(1) << F;
  logic [W-1:0] a1;  // stage 1: the operand
  always_ff @(posedge clk) if (en) a1 <= a;
  logic pos;
  logic [W-1:0] n;  // the operator's result in T; neg's wraps at the minimum
  assign pos = !a1[W-1] && a1 != '0;
  assign n = OP == OP_NEG ? -a1 : OP == OP_RELU ? (pos ? a1 : '0) : (pos ? ONE : '0);
  logic [W-1:0] n2;  // stage 2: the result in T and the operand's sign
  logic neg2, min2;
  always_ff @(posedge clk) if (en) {n2, neg2} <= {n, a1[W-1]};
  // -min does not fit: min is the one negative operand whose wrapped negation is negative
  // too, a LUT on two register bits. Its result, MAX, takes its place in the fit's select
  // (SAT). As the compare a1 == MIN selecting MAX into n, it was two LUT levels and their
  // MUXF7/F8 into the result register's set pin (292 MHz at 24 bits).
  assign min2 = OP == OP_NEG && neg2 && n2[W-1];
  localparam int S = (OP == OP_STEP ? EO : EO - EA) + FA - F;
  logic o3, f_ovf;  // stage 3: the fit's flags and the bits it keeps
  logic [W-1:0] f_y;
  if (OP == OP_STEP || S == FA - F) begin : g_exact
    // The result needs no fit: neg and relu at EO = EA are the operator's result in T (-min
    // flagged, MAX in its place), and step's T(1) shifted by EO is a constant, 0 or
    // saturated where it does not fit (a floor, as the fit rounds). Kept in its own
    // register rather than through inrarch_fit_stage, whose range flags and select a class
    // synthesized on its own cannot see are constant: 35 of a 24-bit relu lane's 62 LUTs.
    localparam int SE = F + EO;
    localparam logic [W-1:0] STEP_Y = SE >= W - 1 ? MAX : SE >= 0 ? W'(1) << SE : '0;
    localparam bit STEP_OVF = SE >= W - 1;
    always_ff @(posedge clk)
      if (en) {o3, f_y} <= OP == OP_STEP ? {n2 != '0 && STEP_OVF, n2 != '0 ? STEP_Y : '0} : {min2, min2 ? MAX : n2};
    assign f_ovf = 1'b0;
  end else begin : g_fit
    localparam logic [63:0] XMAX = S >= 0 ? 64'(MAX) << S : 64'(MAX) >> (-S);
    logic [63:0] r;
    inrarch_shift #(.S(S)) u_shift (.x(64'($signed(n2))), .y(r));
    inrarch_fit_stage #(.W(W), .F(F), .FA(FA), .SAT(OP == OP_NEG), .XSAT(XMAX)) u_fit (
        .clk, .en, .x(r), .sat(min2), .y(f_y), .ovf(f_ovf));
    always_ff @(posedge clk) if (en) o3 <= min2;
  end
  initial if (D < 4) $fatal(1, "inrarch_lane1: depth %0d is below the lane's 4 stages", D);
  inrarch_delay #(.WIDTH(W + 1), .N(D > 4 ? D - 4 : 0)) u_pad (.clk, .en, .x({o3 || f_ovf, f_y}), .y({ovf, y}));
endmodule
