// A gather (select, slice, cat, expand, reshape: dataflow/schedule_gather.cpp) of NIN
// streamed inputs, as tables: STEP_FILE holds each step's {write, read mask} (the schedule,
// every step delay 1), SRC_FILE each output element's address. Addresses below BUF are the
// buffer, which holds every input element read so far (input k's from BASES[k]); the NC
// addresses from BUF on are CONST_FILE, the constant operands (a ROM's words, or one word
// for a splat), which the HLS gather has in its buffer before the first step. Input k
// brings BI[k] elements a beat, at bit AT[k] of in_data (the emitter sums the offsets: Yosys
// 0.23 cannot evaluate a constant function that would); the output takes BO. A step fires
// as a whole when every input it reads has a beat and, if it writes, the output has room;
// an element read in the writing step itself comes straight from its input. A written beat
// carries the sticky flag of every beat read, this step's included (the HLS gather);
// constants carry none.
module inrarch_gather #(
    parameter int NIN = 1,
    parameter int BO = 1,
    parameter int W = 32,
    parameter int STEPS = 1,
    parameter int OUT_ELEMS = 1,
    parameter int BUF = 1,
    parameter int NC = 0,
    parameter int IN_BITS = 33,
    parameter logic [NIN*32-1:0] BI = {NIN{32'd1}},
    parameter logic [NIN*32-1:0] AT = '0,
    parameter logic [NIN*32-1:0] BASES = '0,
    parameter STEP_FILE = "steps.hex",
    parameter SRC_FILE = "src.hex",
    parameter CONST_FILE = "const.hex"
) (
    input  logic               clk,
    input  logic               rst,
    input  logic [IN_BITS-1:0] in_data,
    input  logic [NIN-1:0]     in_valid,
    output logic [NIN-1:0]     in_ready,
    output logic [BO*W:0]      out_data,
    output logic               out_valid,
    input  logic               out_ready
);
  localparam int SW = $clog2(STEPS + 1), AW = BUF + NC > 1 ? $clog2(BUF + NC) : 1;
  localparam int OW = $clog2(OUT_ELEMS + 1), CW = NC > 1 ? $clog2(NC) : 1, BW = BUF > 1 ? $clog2(BUF) : 1;
  localparam int XW = OUT_ELEMS > 1 ? $clog2(OUT_ELEMS) : 1, TW = STEPS > 1 ? $clog2(STEPS) : 1;
  logic [NIN:0] step_rom[STEPS];
  logic [AW-1:0] src_rom[OUT_ELEMS];
  logic [W-1:0] buffer[BUF];
  logic [W-1:0] const_rom[NC > 0 ? NC : 1];
  initial $readmemh(STEP_FILE, step_rom);
  initial $readmemh(SRC_FILE, src_rom);
  if (NC > 0) begin : g_const
    initial $readmemh(CONST_FILE, const_rom);
  end else begin : g_no_const
    initial const_rom[0] = '0;
  end

  logic started, sticky, fire, writes;
  logic [SW-1:0] s;           // the next step
  logic [OW-1:0] o;           // the next output element
  logic [NIN-1:0] reads, flags;
  logic [NIN*32-1:0] start;   // per input: buffer place of the beat it reads next
  logic [NIN:0] step;
  assign step   = s < SW'(STEPS) ? step_rom[TW'(s)] : '0;
  assign reads  = step[NIN-1:0];
  assign writes = step[NIN];
  assign fire   = started && s < SW'(STEPS) && (reads & ~in_valid) == '0 && (!writes || out_ready);
  assign in_ready  = reads & {NIN{fire}};
  assign out_valid = fire && writes;

  for (genvar k = 0; k < NIN; k = k + 1) begin : g_in
    localparam int BK = BI[k*32+:32], AK = AT[k*32+:32];
    logic [31:0] at;
    assign flags[k] = in_data[AK+BK*W];
    always_ff @(posedge clk) begin
      if (rst) at <= BASES[k*32+:32];
      else if (in_ready[k]) at <= at + 32'(BK);
    end
    assign start[k*32+:32] = at;
    for (genvar e = 0; e < BK; e = e + 1) begin : g_elem
      always_ff @(posedge clk) if (in_ready[k]) buffer[BW'(at) + BW'(e)] <= in_data[AK+e*W+:W];
    end
  end

  // Output element e: a constant, a buffered element, or one of an input beat read in this
  // very step (its offset in that beat).
  for (genvar e = 0; e < BO; e = e + 1) begin : g_out
    logic [AW-1:0] addr;
    logic [W-1:0] held, v;
    logic [NIN-1:0] hit;
    logic [W-1:0] fresh[NIN];
    assign addr = src_rom[XW'(o + OW'(e))];
    assign held = 32'(addr) >= 32'(BUF) ? const_rom[CW'(32'(addr) - 32'(BUF))] : buffer[BW'(addr)];
    for (genvar k = 0; k < NIN; k = k + 1) begin : g_hit
      localparam int BK = BI[k*32+:32], AK = AT[k*32+:32], KW = BK > 1 ? $clog2(BK) : 1;
      logic [31:0] off;
      logic [W-1:0] words[BK];
      for (genvar j = 0; j < BK; j = j + 1) begin : g_word
        assign words[j] = in_data[AK+j*W+:W];
      end
      assign off = 32'(addr) - start[k*32+:32];
      assign hit[k] = reads[k] && 32'(addr) >= start[k*32+:32] && off < 32'(BK);
      assign fresh[k] = words[KW'(off)];
    end
    always_comb begin
      v = held;
      for (int k = 0; k < NIN; k = k + 1) if (hit[k]) v = fresh[k];
    end
    assign out_data[e*W+:W] = v;
  end
  assign out_data[BO*W] = sticky || |(reads & flags);

  always_ff @(posedge clk) begin
    if (rst) begin
      started <= 1'b0;
      sticky <= 1'b0;
      s <= '0;
      o <= '0;
    end else begin
      started <= 1'b1;
      if (fire) begin
        s <= s + 1'b1;
        sticky <= sticky || |(reads & flags);
        if (writes) o <= o + OW'(BO);
      end
    end
  end
endmodule
