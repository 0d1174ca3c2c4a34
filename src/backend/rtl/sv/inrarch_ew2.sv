// An elementwise binary kernel (add, sub, mul, div) on two streamed operands: lanes of
// inrarch_lane2 or inrarch_lane_div (pipelined: D - 1 register stages) over the B elements of
// a beat, the result register written D steps after its operands were read. A beat is
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
    parameter int BEATS = 1,
    parameter int D     = 5   // the pipeline depth (src/dataflow/elementwise.def)
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
  logic en;  // the lanes' stage enable: their D - 1 register stages advance on it
  inrarch_ew_fsm #(.NIN(2), .BEATS(BEATS), .DW(B * W), .D(D)) u_fsm (
      .clk, .rst, .in_valid({b_valid, a_valid}), .in_ready(ready), .in_ovf(a_data[B*W] || b_data[B*W]), .en,
      .lanes(y), .lanes_ovf(|sat), .out_data, .out_valid, .out_ready);
  assign a_ready = ready[0];
  assign b_ready = ready[1];
  // The lane code of the divider (the OP column of src/dataflow/elementwise.def; a test checks it).
  localparam int OP_DIV = 11;
  for (genvar e = 0; e < B; e = e + 1) begin : g_lane
    if (OP == OP_DIV) begin : g_div
      inrarch_lane_div #(.W(W), .F(F), .FA(FA), .EA(EA), .EB(EB), .EO(EO), .D(D)) u_lane (
          .clk, .en, .a(a_data[e*W+:W]), .b(b_data[e*W+:W]), .y(y[e*W+:W]), .ovf(sat[e]));
    end else begin : g_plain
      inrarch_lane2 #(.OP(OP), .W(W), .F(F), .FA(FA), .EA(EA), .EB(EB), .EO(EO), .D(D)) u_lane (
          .clk, .en, .a(a_data[e*W+:W]), .b(b_data[e*W+:W]), .y(y[e*W+:W]), .ovf(sat[e]));
    end
  end
endmodule
