// An elementwise binary kernel (add, sub, mul, div) on two streamed operands: B / C lanes of
// inrarch_lane2 or inrarch_lane_div (pipelined: D - 1 register stages) over the B elements of
// a beat, C a cycle (inrarch_ew_fsm), the result register written LS steps after its operands
// were read. A beat is
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
    parameter int D     = 5,  // the lanes' pipeline depth (src/dataflow/elementwise.def)
    parameter int C     = 1   // cycles a beat (the process's ew_fold): B / C lanes
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
  localparam int G = B / C, KW = C > 1 ? $clog2(C) : 1;
  logic [G*W-1:0] y, xa, xb;
  logic [G-1:0] sat;
  logic [1:0] ready;
  logic en;  // the lanes' stage enable: their D - 1 register stages advance on it
  logic [KW-1:0] chunk;
  /* verilator lint_off UNUSEDSIGNAL */
  logic feed;
  /* verilator lint_on UNUSEDSIGNAL */
  inrarch_ew_fsm #(.NIN(2), .BEATS(BEATS), .DW(B * W), .D(D), .C(C)) u_fsm (
      .clk, .rst, .in_valid({b_valid, a_valid}), .in_ready(ready), .in_ovf(a_data[B*W] || b_data[B*W]), .en,
      .feed, .chunk, .lanes(y), .lanes_ovf(|sat), .out_data, .out_valid, .out_ready);
  assign a_ready = ready[0];
  assign b_ready = ready[1];
  inrarch_ew_chunk #(.DW(B * W), .C(C)) u_a (.clk, .load(ready[0]), .chunk, .data(a_data[B*W-1:0]), .y(xa));
  inrarch_ew_chunk #(.DW(B * W), .C(C)) u_b (.clk, .load(ready[1]), .chunk, .data(b_data[B*W-1:0]), .y(xb));
  // The lane code of the divider (the OP column of src/dataflow/elementwise.def; a test checks it).
  localparam int OP_DIV = 11;
  for (genvar e = 0; e < G; e = e + 1) begin : g_lane
    if (OP == OP_DIV) begin : g_div
      inrarch_lane_div #(.W(W), .F(F), .FA(FA), .EA(EA), .EB(EB), .EO(EO), .D(D)) u_lane (
          .clk, .en, .a(xa[e*W+:W]), .b(xb[e*W+:W]), .y(y[e*W+:W]), .ovf(sat[e]));
    end else begin : g_plain
      inrarch_lane2 #(.OP(OP), .W(W), .F(F), .FA(FA), .EA(EA), .EB(EB), .EO(EO), .D(D)) u_lane (
          .clk, .en, .a(xa[e*W+:W]), .b(xb[e*W+:W]), .y(y[e*W+:W]), .ovf(sat[e]));
    end
  end
endmodule
