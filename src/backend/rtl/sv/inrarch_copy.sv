// A copy (fan-out): step i reads beat i and writes it to every output in the same cycle
// (schedule: II = 1, L = 0). The step fires as a whole: only when the input has a beat and
// every output has room; otherwise no handshake of it is raised.
module inrarch_copy #(
    parameter int WIDTH = 33,
    parameter int BEATS = 1,
    parameter int OUTS  = 2
) (
    input  logic             clk,
    input  logic             rst,
    input  logic [WIDTH-1:0] in_data,
    input  logic             in_valid,
    output logic             in_ready,
    output logic [WIDTH-1:0] out_data,
    output logic [ OUTS-1:0] out_valid,
    input  logic [ OUTS-1:0] out_ready
);
  logic active, fire;
  inrarch_steps #(.STEPS(BEATS)) u_steps (.clk, .rst, .fire, .active);
  assign fire      = active && in_valid && &out_ready;
  assign in_ready  = fire;
  assign out_valid = {OUTS{fire}};
  assign out_data  = in_data;
endmodule
