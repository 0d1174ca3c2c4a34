// The step counter of a kernel whose every step has delay 1 (source, sink, copy): `active`
// while steps are left, and never in cycle 0 (a first step comes one cycle after the start).
module inrarch_steps #(
    parameter int STEPS = 1
) (
    input  logic clk,
    input  logic rst,
    input  logic fire,   // a step fires this cycle
    output logic active  // a step may fire this cycle
);
  localparam int NW = $clog2(STEPS + 1);
  logic started;
  logic [NW-1:0] n;
  assign active = started && n != NW'(STEPS);
  always_ff @(posedge clk) begin
    if (rst) begin
      started <= 1'b0;
      n <= '0;
    end else begin
      started <= 1'b1;
      if (fire) n <= n + 1'b1;
    end
  end
endmodule
