// The step sequence of an elementwise kernel (schedule: a step every C cycles, L = LS steps):
// its lanes take a beat in C chunks of DW / C bits, one a cycle (C = 1: the whole beat), so
// it runs sub-steps s = 0, 1, ...: sub-step s = j*C + k is chunk k of step j. Step j's first
// sub-step (k = 0) reads beat j of every streamed operand when j < BEATS and writes result
// beat j - LS when LS <= j < BEATS + LS, LS = ceil((C - 1 + D) / C) (elementwise_steps): the
// beat's last chunk leaves the lanes' D - 1 register stages at sub-step j*C + C - 1 + D - 1.
// A sub-step fires as a whole, in the first cycle (at least one after the previous sub-step
// or the start) where all its reads find a beat and its write finds room; one with neither
// fires in its cycle. `en` is the fire: the lanes' stages advance on it, so the lanes show
// the chunk of sub-step s - (D - 1) during sub-step s. `feed` says the lanes take a chunk of
// a beat that was read, `chunk` which (k). The results' chunks 0 .. C-2 gather in a
// register; the last one goes with them into the result register, with the sticky
// overflow bit: the OR of every operand beat's flag and every saturation so far (the
// operands' flags delayed D - 1 sub-steps to meet their beat's first chunk), which each
// written beat carries (the HLS library's beat::ovf). D = 1: the lanes are combinational.
module inrarch_ew_fsm #(
    parameter int NIN   = 2,
    parameter int BEATS = 1,
    parameter int DW    = 32,  // the beat's element bits
    parameter int D     = 1,
    parameter int C     = 1,   // cycles a beat (a power of two)
    localparam int GW   = DW / C,
    localparam int KW   = C > 1 ? $clog2(C) : 1
) (
    input  logic           clk,
    input  logic           rst,
    input  logic [NIN-1:0] in_valid,
    output logic [NIN-1:0] in_ready,
    input  logic           in_ovf,     // an operand beat of this step is flagged
    output logic           en,         // the sub-step fires: the lanes' stages advance
    output logic           feed,       // ... and the lanes take a chunk of a beat read
    output logic [ KW-1:0] chunk,      // the chunk the lanes take (k)
    input  logic [ GW-1:0] lanes,      // the results of the chunk of sub-step s - (D - 1)
    input  logic           lanes_ovf,  // a lane saturated on that chunk
    output logic [   DW:0] out_data,
    output logic           out_valid,
    input  logic           out_ready
);
  localparam int LS = (C - 1 + D + C - 1) / C;
  localparam int NW = $clog2((BEATS + LS) * C + 2);
  localparam int LAST = (BEATS - 1 + LS) * C;  // the last sub-step (a write)
  logic started;
  logic [NW-1:0] s1;  // the sub-step after the one on offer
  // What the sub-step on offer, s, does: `reads` beat j, `writes` beat j - LS, `feeds` the
  // lanes a chunk of beat j (j < BEATS), `takes` the lanes' chunk, `ends` a beat with it, is
  // `live` (s <= LAST). Registers, computed from s1 when the sub-step before fires, so `fire`
  // is a few gates on them and the handshakes, not a compare of the counter.
  function automatic logic [5:0] flags_of(logic [NW-1:0] s);
    logic [NW-1:0] j, t;
    logic r, w, f, k0, tk, e, l;
    j  = s / NW'(C);
    k0 = s % NW'(C) == '0;
    f  = j < NW'(BEATS);
    r  = k0 && f;
    w  = k0 && j >= NW'(LS) && j < NW'(BEATS + LS);
    tk = D == 1 ? s < NW'(BEATS * C) : s >= NW'(D - 1) && s < NW'(D - 1 + BEATS * C);
    t  = s - NW'(D - 1);
    e  = tk && t % NW'(C) == NW'(C - 1);
    l  = s <= NW'(LAST);
    flags_of = {r, w, f, tk, e, l};  // Yosys 0.23 takes no `return` here
  endfunction
  logic reads, writes, feeds, takes, ends, live, fire, sticky, flag;
  logic [KW-1:0] k;
  assign fire      = started && live && (!reads || &in_valid) && (!writes || out_ready);
  assign en        = fire;
  assign feed      = fire && feeds;
  assign chunk     = k;
  assign in_ready  = {NIN{fire && reads}};
  assign out_valid = fire && writes;
  inrarch_delay #(.WIDTH(1), .N(D - 1)) u_flag (.clk, .en(fire), .x(in_ovf && reads), .y(flag));
  always_ff @(posedge clk) begin
    if (rst) begin
      started <= 1'b0;
      s1 <= NW'(1);
      k <= '0;
      {reads, writes, feeds, takes, ends, live} <= flags_of('0);
      sticky <= 1'b0;
    end else begin
      started <= 1'b1;
      if (fire) begin
        s1 <= s1 + 1'b1;
        k <= C > 1 ? KW'(s1 % NW'(C)) : '0;
        {reads, writes, feeds, takes, ends, live} <= flags_of(s1);
      end
      if (fire && takes) sticky <= sticky || lanes_ovf || flag;
    end
  end
  // ends = takes when C = 1: every chunk is a whole beat.
  if (C == 1) begin : g_whole
    always_ff @(posedge clk) if (fire && ends) out_data <= {sticky || lanes_ovf || flag, lanes};
  end else begin : g_gather
    logic [DW-GW-1:0] gathered;  // chunks 0 .. C-2, the newest on top
    if (C == 2) begin : g_one
      always_ff @(posedge clk) if (fire && takes && !ends) gathered <= lanes;
    end else begin : g_shift
      always_ff @(posedge clk) if (fire && takes && !ends) gathered <= {lanes, gathered[DW-GW-1:GW]};
    end
    always_ff @(posedge clk) if (fire && ends) out_data <= {sticky || lanes_ovf || flag, lanes, gathered};
  end
endmodule
