// N register stages, each taking its input on `en` (N = 0: a wire). The pipelined lanes hold
// a digit recurrence's state in them; the elementwise kernel's FSM delays the operands'
// overflow flags by them, so that a flag reaches the result register with its beat.
// LAST_FF: the last stage is a flip-flop marked `keep`, where logic follows y: Yosys makes
// a chain of three or more plain flip-flops a shift-register LUT, whose output comes 1.2 ns
// later than a flip-flop's.
module inrarch_delay #(
    parameter int WIDTH   = 1,
    parameter int N       = 0,
    parameter bit LAST_FF = 1'b0
) (
    input  logic             clk,
    input  logic             en,
    input  logic [WIDTH-1:0] x,
    output logic [WIDTH-1:0] y
);
  if (N == 0) begin : g_wire
    assign y = x;
    /* verilator lint_off UNUSEDSIGNAL */
    logic unused;
    assign unused = clk ^ en;
    /* verilator lint_on UNUSEDSIGNAL */
  end else if (N == 1) begin : g_one
    always_ff @(posedge clk) if (en) y <= x;
  end else if (LAST_FF) begin : g_chain_ff
    logic [WIDTH-1:0] q;
    inrarch_delay #(.WIDTH(WIDTH), .N(N - 1)) u_chain (.clk, .en, .x, .y(q));
    (* keep *) always_ff @(posedge clk) if (en) y <= q;
  end else begin : g_chain
    logic [N*WIDTH-1:0] r;  // stage k at bits [k*WIDTH +: WIDTH], the oldest on top
    always_ff @(posedge clk) if (en) r <= {r[(N-1)*WIDTH-1:0], x};
    assign y = r[(N-1)*WIDTH+:WIDTH];
  end
endmodule
