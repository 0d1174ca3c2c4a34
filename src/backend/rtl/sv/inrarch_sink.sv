// A sink: the top's output port reading its stream, one beat a step (schedule: II = 1).
// The port is an AXI4-Stream master: valid does not wait for ready.
module inrarch_sink #(
    parameter int WIDTH = 33,
    parameter int BEATS = 1
) (
    input  logic             clk,
    input  logic             rst,
    input  logic [WIDTH-1:0] in_data,
    input  logic             in_valid,
    output logic             in_ready,
    output logic [WIDTH-1:0] port_data,
    output logic             port_valid,
    input  logic             port_ready
);
  logic active;
  inrarch_steps #(.STEPS(BEATS)) u_steps (.clk, .rst, .fire(in_ready), .active);
  assign port_valid = active && in_valid;
  assign in_ready   = port_valid && port_ready;
  assign port_data  = in_data;
endmodule
