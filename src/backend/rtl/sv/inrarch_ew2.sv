// An elementwise binary kernel (add, sub, mul) on two streamed operands: lanes of
// inrarch_lane2 over the B elements of a beat, the result held one step (L = 1). A beat is
// {ovf, element B-1, ..., element 0}: each W bits, ovf the sticky overflow sideband of the
// HLS library (the OR of every beat read so far and of every saturation).
module inrarch_ew2 #(
    parameter int OP    = 0,
    parameter int B     = 1,
    parameter int W     = 32,
    parameter int F     = 22,
    parameter int FA    = 36,
    parameter int EA    = 0,
    parameter int EB    = 0,
    parameter int EO    = 0,
    parameter int BEATS = 1
) (
    input  logic         clk,
    input  logic         rst,
    input  logic [B*W:0] a_data,
    input  logic         a_valid,
    output logic         a_ready,
    input  logic [B*W:0] b_data,
    input  logic         b_valid,
    output logic         b_ready,
    output logic [B*W:0] out_data,
    output logic         out_valid,
    input  logic         out_ready
);
  logic [B*W-1:0] y;
  logic [B-1:0] sat;
  logic [1:0] ready;
  inrarch_ew_fsm #(.NIN(2), .BEATS(BEATS), .DW(B * W)) u_fsm (
      .clk, .rst, .in_valid({b_valid, a_valid}), .in_ready(ready), .lanes(y), .lanes_ovf(|sat || a_data[B*W] || b_data[B*W]),
      .out_data, .out_valid, .out_ready);
  assign a_ready = ready[0];
  assign b_ready = ready[1];
  for (genvar e = 0; e < B; e = e + 1) begin : g_lane
    inrarch_lane2 #(.OP(OP), .W(W), .F(F), .FA(FA), .EA(EA), .EB(EB), .EO(EO)) u_lane (
        .a(a_data[e*W+:W]), .b(b_data[e*W+:W]), .y(y[e*W+:W]), .ovf(sat[e]));
  end
endmodule
