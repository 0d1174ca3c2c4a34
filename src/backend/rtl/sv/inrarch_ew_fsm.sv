// The step sequence of an elementwise kernel (schedule: II = 1, L = 1): step i (0..BEATS)
// reads beat i of every streamed operand when i < BEATS and writes result beat i - 1 when
// i >= 1. A step fires as a whole, in the first cycle (at least one after the previous
// step or the start) where all its reads find a beat and its write finds room. A step that
// reads also takes the lanes' results into the result register (the pipeline of depth 1)
// with the sticky overflow bit: the OR of every operand beat's flag and every saturation
// so far, which each written beat carries (the HLS library's beat::ovf).
module inrarch_ew_fsm #(
    parameter int NIN   = 2,
    parameter int BEATS = 1,
    parameter int DW    = 32  // the beat's element bits
) (
    input  logic           clk,
    input  logic           rst,
    input  logic [NIN-1:0] in_valid,
    output logic [NIN-1:0] in_ready,
    input  logic [ DW-1:0] lanes,      // this step's results
    input  logic           lanes_ovf,  // a lane saturated, or an operand beat is flagged
    output logic [   DW:0] out_data,
    output logic           out_valid,
    input  logic           out_ready
);
  localparam int NW = $clog2(BEATS + 2);
  logic started;
  logic [NW-1:0] i;  // the next step; BEATS + 1 when done
  logic reads, writes, fire, sticky;
  assign reads     = i < NW'(BEATS);
  assign writes    = i != '0 && i <= NW'(BEATS);
  assign fire      = started && (reads || writes) && (!reads || &in_valid) && (!writes || out_ready);
  assign in_ready  = {NIN{fire && reads}};
  assign out_valid = fire && writes;
  always_ff @(posedge clk) begin
    if (rst) begin
      started <= 1'b0;
      i <= '0;
      sticky <= 1'b0;
    end else begin
      started <= 1'b1;
      if (fire) i <= i + 1'b1;
      if (fire && reads) sticky <= sticky || lanes_ovf;
    end
  end
  always_ff @(posedge clk) if (fire && reads) out_data <= {sticky || lanes_ovf, lanes};
endmodule
