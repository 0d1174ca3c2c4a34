// OP 3: neg, 4: relu, 5: step (scaled1<op, EA, EO>): the operator on the stored value in T
// (-min saturates to max and sets ovf), then realigned into A and fit. neg and relu are
// homogeneous (shift by EO - EA); step is invariant: T(1) or T(0), shifted by EO.
module inrarch_lane1 #(
    parameter int OP = 3,
    parameter int W  = 32,
    parameter int F  = 22,
    parameter int FA = 36,
    parameter int EA = 0,
    parameter int EO = 0
) (
    input  logic [W-1:0] a,
    output logic [W-1:0] y,
    output logic         ovf
);
  // The lane codes (the OP column of src/dataflow/elementwise.def; a test checks them).
  /* verilator lint_off UNUSEDPARAM */
  localparam int OP_NEG = 3, OP_RELU = 4, OP_STEP = 5;
  /* verilator lint_on UNUSEDPARAM */
  localparam logic [W-1:0] MIN = {1'b1, {(W - 1) {1'b0}}};
  localparam logic [W-1:0] MAX = {1'b0, {(W - 1) {1'b1}}};
  localparam logic [W-1:0] ONE = W'(1) << F;
  logic pos, min;
  logic [W-1:0] n;  // the operator's result in T
  logic [63:0] r;
  logic f_ovf;
  assign pos = !a[W-1] && a != '0;
  assign min = OP == OP_NEG && a == MIN;  // -min does not fit
  assign n = OP == OP_NEG ? (min ? MAX : -a) : OP == OP_RELU ? (pos ? a : '0) : (pos ? ONE : '0);
  inrarch_shift #(.S((OP == OP_STEP ? EO : EO - EA) + FA - F)) u_shift (.x(64'($signed(n))), .y(r));
  inrarch_fit #(.W(W), .F(F), .FA(FA)) u_fit (.x(r), .y(y), .ovf(f_ovf));
  assign ovf = min || f_ovf;
endmodule
