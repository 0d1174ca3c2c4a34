// The one of N W-bit inputs that a one-hot `sel` picks (zero when none is picked), in
// S = select_stages(N) register stages on `en` (dataflow::select_tree_stages; docs/rtl.md,
// "The mm engine"). The first stage ANDs and ORs groups of up to 18 inputs, every later
// stage ORs groups of up to 36: two LUT levels a stage (a LUT6 takes three select and data
// pairs, or six partial ORs), where one combinational OR of N inputs would be log6 of 2N.
module inrarch_select_tree #(
    parameter int N = 1,
    parameter int W = 1,
    parameter bit FIRST = 1'b1  // this stage ANDs the selects; later ones only OR
) (
    input  logic         clk,
    input  logic         en,
    input  logic [N-1:0] sel,
    input  logic [N*W-1:0] x,
    output logic [W-1:0] y
);
  localparam int GS = FIRST ? 18 : 36, NG = (N + GS - 1) / GS;
  logic [NG*W-1:0] r;
  for (genvar g = 0; g < NG; g = g + 1) begin : g_group
    logic [W-1:0] acc;
    always_comb begin
      acc = '0;
      for (int i = g * GS; i < (g + 1) * GS && i < N; i = i + 1) acc = acc | ({W{sel[i]}} & x[i*W+:W]);
    end
    always_ff @(posedge clk) if (en) r[g*W+:W] <= acc;
  end
  if (NG == 1) begin : g_done
    assign y = r;
  end else begin : g_next
    inrarch_select_tree #(.N(NG), .W(W), .FIRST(1'b0)) u_next (.clk, .en, .sel({NG{1'b1}}), .x(r), .y);
  end
endmodule
