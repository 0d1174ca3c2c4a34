// A source: the top's input port writing its stream, one beat a step (schedule: II = 1, the
// first step one cycle after the start). The port is an AXI4-Stream slave: ready does not
// wait for valid, a beat moves when both are high. It takes BEATS beats and then no more.
module inrarch_source #(
    parameter int WIDTH = 33,
    parameter int BEATS = 1
) (
    input  logic             clk,
    input  logic             rst,
    input  logic [WIDTH-1:0] port_data,
    input  logic             port_valid,
    output logic             port_ready,
    output logic [WIDTH-1:0] out_data,
    output logic             out_valid,
    input  logic             out_ready
);
  logic active;
  inrarch_steps #(.STEPS(BEATS)) u_steps (.clk, .rst, .fire(out_valid), .active);
  assign port_ready = active && out_ready;
  assign out_valid  = port_valid && port_ready;
  assign out_data   = port_data;
endmodule
