// An elementwise unary kernel (neg, relu, step; sin, cos, exp, tanh, log from tables; sqrt by a
// digit recurrence) on one streamed operand; every lane is pipelined (D - 1 register stages).
// Otherwise as inrarch_ew2.
module inrarch_ew1 #(
    parameter int OP    = 3,
    parameter int B     = 1,
    parameter int W     = 32,
    parameter int F     = 22,
    parameter int FA    = 36,
    parameter int EA    = 0,
    parameter int EO    = 0,
    parameter int BEATS = 1,
    parameter int D     = 4,  // the lanes' pipeline depth (src/dataflow/elementwise.def)
    parameter int C     = 1   // cycles a beat (the process's ew_fold): B / C lanes
) (
    input  logic         clk,
    input  logic         rst,
    input  logic [B*W:0] in_data,
    input  logic         in_valid,
    output logic         in_ready,
    output logic [B*W:0] out_data,
    output logic         out_valid,
    input  logic         out_ready
);
  // The lane codes (the OP column of src/dataflow/elementwise.def; a test checks them).
  /* verilator lint_off UNUSEDPARAM */
  localparam int OP_SIN = 6, OP_COS = 7, OP_EXP = 8, OP_TANH = 9, OP_LOG = 10, OP_SQRT = 13;
  /* verilator lint_on UNUSEDPARAM */
  localparam int G = B / C, KW = C > 1 ? $clog2(C) : 1;
  logic [G*W-1:0] y, x;
  logic [G-1:0] sat;
  logic en;  // the lanes' stage enable: their D - 1 register stages advance on it
  logic [KW-1:0] chunk;
  /* verilator lint_off UNUSEDSIGNAL */
  logic feed;
  /* verilator lint_on UNUSEDSIGNAL */
  inrarch_ew_fsm #(.NIN(1), .BEATS(BEATS), .DW(B * W), .D(D), .C(C)) u_fsm (
      .clk, .rst, .in_valid, .in_ready, .in_ovf(in_data[B*W]), .en, .feed, .chunk, .lanes(y), .lanes_ovf(|sat),
      .out_data, .out_valid, .out_ready);
  inrarch_ew_chunk #(.DW(B * W), .C(C)) u_in (.clk, .load(in_ready), .chunk, .data(in_data[B*W-1:0]), .y(x));
  for (genvar e = 0; e < G; e = e + 1) begin : g_lane
    if (OP == OP_SQRT) begin : g_sqrt
      inrarch_lane_sqrt #(.W(W), .F(F), .FA(FA), .EA(EA), .EO(EO), .D(D)) u_lane (
          .clk, .en, .a(x[e*W+:W]), .y(y[e*W+:W]), .ovf(sat[e]));
    end else if (OP == OP_EXP || OP == OP_TANH || OP == OP_LOG) begin : g_explog
      inrarch_lane_explog #(.OP(OP), .W(W), .F(F), .FA(FA), .EA(EA), .EO(EO), .D(D)) u_lane (
          .clk, .en, .a(x[e*W+:W]), .y(y[e*W+:W]), .ovf(sat[e]));
    end else if (OP == OP_SIN || OP == OP_COS) begin : g_sin
      inrarch_lane_sin #(.OP(OP), .W(W), .F(F), .FA(FA), .EA(EA), .EO(EO), .D(D)) u_lane (
          .clk, .en, .a(x[e*W+:W]), .y(y[e*W+:W]), .ovf(sat[e]));
    end else begin : g_plain
      inrarch_lane1 #(.OP(OP), .W(W), .F(F), .FA(FA), .EA(EA), .EO(EO), .D(D)) u_lane (
          .clk, .en, .a(x[e*W+:W]), .y(y[e*W+:W]), .ovf(sat[e]));
    end
  end
endmodule
