// The step sequence of an elementwise kernel (schedule: II = 1, L = D, the op's pipeline
// depth): step i (0 .. BEATS + D - 1) reads beat i of every streamed operand when
// i < BEATS and writes result beat i - D when i >= D. A step fires as a whole, in the first
// cycle (at least one after the previous step or the start) where all its reads find a beat
// and its write finds room; a step with neither (BEATS < D) fires in its cycle. `en` is the
// fire: the lanes' D - 1 register stages advance on it, so the lanes show beat i - (D - 1)
// during step i, and the result register takes it then, with the sticky overflow bit: the
// OR of every operand beat's flag and every saturation so far (the operands' flags delayed
// D - 1 fires to meet their beat), which each written beat carries (the HLS library's
// beat::ovf). D = 1: the lanes are combinational and the register takes step i's beat.
module inrarch_ew_fsm #(
    parameter int NIN   = 2,
    parameter int BEATS = 1,
    parameter int DW    = 32,  // the beat's element bits
    parameter int D     = 1
) (
    input  logic           clk,
    input  logic           rst,
    input  logic [NIN-1:0] in_valid,
    output logic [NIN-1:0] in_ready,
    input  logic           in_ovf,     // an operand beat of this step is flagged
    output logic           en,         // the step fires: the lanes' stages advance
    input  logic [ DW-1:0] lanes,      // the results of beat i - (D - 1)
    input  logic           lanes_ovf,  // a lane saturated on that beat
    output logic [   DW:0] out_data,
    output logic           out_valid,
    input  logic           out_ready
);
  localparam int NW = $clog2(BEATS + D + 2);
  logic started;
  logic [NW-1:0] i1;  // the step after the one on offer (BEATS + D + 1 when done)
  // What the step on offer, j, does: `reads` beat j, `writes` beat j - D, `takes` the lanes'
  // beat into the result register, is `live` (j < BEATS + D). They are registers, computed
  // from i1 when the step before fires, so `fire` is a few gates on them and the
  // handshakes, not a compare of the counter.
  function automatic logic [3:0] flags_of(logic [NW-1:0] j);
    logic r, w, t, l;
    r = j < NW'(BEATS);
    w = j >= NW'(D) && j < NW'(BEATS + D);
    t = D == 1 ? r : j >= NW'(D - 1) && j < NW'(BEATS + D - 1);  // D = 1: step j's own beat
    l = j < NW'(BEATS + D);
    flags_of = {r, w, t, l};  // Yosys 0.23 takes no `return` here
  endfunction
  logic reads, writes, takes, live, fire, sticky, flag;
  assign fire      = started && live && (!reads || &in_valid) && (!writes || out_ready);
  assign en        = fire;
  assign in_ready  = {NIN{fire && reads}};
  assign out_valid = fire && writes;
  inrarch_delay #(.WIDTH(1), .N(D - 1)) u_flag (.clk, .en(fire), .x(in_ovf), .y(flag));
  always_ff @(posedge clk) begin
    if (rst) begin
      started <= 1'b0;
      i1 <= NW'(1);
      {reads, writes, takes, live} <= flags_of('0);
      sticky <= 1'b0;
    end else begin
      started <= 1'b1;
      if (fire) begin
        i1 <= i1 + 1'b1;
        {reads, writes, takes, live} <= flags_of(i1);
      end
      if (fire && takes) sticky <= sticky || lanes_ovf || flag;
    end
  end
  always_ff @(posedge clk) if (fire && takes) out_data <= {sticky || lanes_ovf || flag, lanes};
endmodule
