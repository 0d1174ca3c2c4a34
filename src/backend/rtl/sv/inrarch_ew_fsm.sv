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
  localparam int NW = $clog2(BEATS + D + 1);
  logic started;
  logic [NW-1:0] i;  // the next step; BEATS + D when done
  logic reads, writes, takes, fire, sticky, flag;
  assign reads     = i < NW'(BEATS);
  assign writes    = i >= NW'(D) && i < NW'(BEATS + D);
  if (D == 1) begin : g_comb  // the lanes hold a beat: step i's own
    assign takes = reads;
  end else begin : g_piped     // beat i - (D - 1)
    assign takes = i >= NW'(D - 1) && i < NW'(BEATS + D - 1);
  end
  assign fire      = started && i < NW'(BEATS + D) && (!reads || &in_valid) && (!writes || out_ready);
  assign en        = fire;
  assign in_ready  = {NIN{fire && reads}};
  assign out_valid = fire && writes;
  inrarch_delay #(.WIDTH(1), .N(D - 1)) u_flag (.clk, .en(fire), .x(in_ovf), .y(flag));
  always_ff @(posedge clk) begin
    if (rst) begin
      started <= 1'b0;
      i <= '0;
      sticky <= 1'b0;
    end else begin
      started <= 1'b1;
      if (fire) i <= i + 1'b1;
      if (fire && takes) sticky <= sticky || lanes_ovf || flag;
    end
  end
  always_ff @(posedge clk) if (fire && takes) out_data <= {sticky || lanes_ovf || flag, lanes};
endmodule
