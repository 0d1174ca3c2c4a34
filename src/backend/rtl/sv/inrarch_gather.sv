// A gather (select, slice, cat, expand, reshape: dataflow/schedule_gather.cpp) of NIN
// streamed inputs, as tables: STEP_FILE holds each step's {write, read mask} (the schedule,
// every step delay 1), SRC_FILE a line per written beat, each output element's entry (PKW
// bits, element 0 lowest), which the emitter works out from the schedule (docs/rtl.md §2,
// the inrarch_gather row). Output element e is its position's candidate `entry`,
// CAND[e * MS + entry]: with bit 30 set, a word of the step's input beats (its place among
// the IN_WORDS words, input k's from QAT[k]); with bit 31 set, a word of CONST_FILE, the NC
// constant operands' words (a ROM's words, or one word for a splat), which the HLS gather
// has in its buffer before the first step; else a buffer word (input k's last NE[k] / BI[k]
// beats, a ring from word BASES[k]: as many as its reads need). A position's candidates are
// the words it ever takes, so its multiplexer spans those alone.
// Input k brings BI[k] elements a beat, at bit AT[k] of in_data (the emitter sums the
// offsets); the output takes BO. A step fires as a whole when every input it reads has a
// beat and, if it writes, the output has room. A written beat carries the sticky flag of
// every beat read, this step's included (the HLS gather); constants carry none.
// Timing: the step's bits and the next beat's entries are registers, read from their tables
// a step ahead, so the step's control is a few LUTs over registers and ports and an output
// element a multiplexer over its candidates (registers, constants and the step's input
// words): no address arithmetic or compares in the step's cycle.
// Both tables follow the batch's rows, so each holds its lines up to where they start
// repeating and once round the period (STEP_LINES, SRC_LINES): after its last line the read
// goes back to line STEP_LOOP (SRC_LOOP), and a table is as long as a row's, whatever the
// batch. STEPS counts the schedule's steps, for its end.
module inrarch_gather #(
    parameter int NIN = 1,
    parameter int BO = 1,
    parameter int W = 32,
    parameter int STEPS = 1,
    parameter int STEP_LINES = 1,
    parameter int STEP_LOOP = 0,
    parameter int SRC_LINES = 1,
    parameter int SRC_LOOP = 0,
    parameter int BUF = 1,
    parameter int NC = 0,
    parameter int IN_BITS = 33,
    parameter int IN_WORDS = 1,
    parameter int PKW = 1,  // a pick's bits
    parameter int MS = 1,   // candidates a position
    parameter logic [NIN*32-1:0] BI = {NIN{32'd1}},
    parameter logic [NIN*32-1:0] AT = '0,
    parameter logic [NIN*32-1:0] QAT = '0,
    parameter logic [NIN*32-1:0] BASES = '0,
    parameter logic [NIN*32-1:0] NE = {NIN{32'd1}},
    parameter bit HELD = 1'b1,  // some element is read from the buffer (else none is built)
    parameter logic [BO*MS*32-1:0] CAND = '0,
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
  localparam int EW = PKW;  // an entry: the index of a candidate
  localparam int SW = $clog2(STEPS + 1), TW = STEP_LINES > 1 ? $clog2(STEP_LINES) : 1;
  localparam int XW = SRC_LINES > 1 ? $clog2(SRC_LINES) : 1;
  localparam int CW = NC > 1 ? $clog2(NC) : 1, BW = BUF > 1 ? $clog2(BUF) : 1;
  localparam int IQ = IN_WORDS > 1 ? $clog2(IN_WORDS) : 1;
  logic [NIN:0] step_rom[STEP_LINES];
  logic [BO*EW-1:0] src_rom[SRC_LINES];
  /* verilator lint_off UNUSEDSIGNAL */
  logic [W-1:0] buffer[HELD ? BUF : 1];       // (unused without HELD)
  logic [W-1:0] const_rom[NC > 0 ? NC : 1];   // (unused where no position reads a constant)
  /* verilator lint_on UNUSEDSIGNAL */
  initial $readmemh(STEP_FILE, step_rom);
  initial $readmemh(SRC_FILE, src_rom);
  if (NC > 0) begin : g_const
    initial $readmemh(CONST_FILE, const_rom);
  end else begin : g_no_const
    initial const_rom[0] = '0;
  end

  logic started, live, sticky, fire, writes;
  logic [SW-1:0] sn;          // the step after the current one
  logic [TW-1:0] sa;          // its line of the step table
  logic [XW-1:0] wa;          // the entry table's line for the beat after the one `ent` is for
  logic [NIN-1:0] reads, flags;
  logic [NIN:0] step;         // the current step's bits (zero past the last step)
  /* verilator lint_off UNUSEDSIGNAL */
  logic [BO*EW-1:0] ent;      // the entries of the next beat written (unused where MS is 1)
  /* verilator lint_on UNUSEDSIGNAL */
  assign reads  = step[NIN-1:0];
  assign writes = step[NIN];
  assign fire   = started && live && (reads & ~in_valid) == '0 && (!writes || out_ready);
  assign in_ready  = reads & {NIN{fire}};
  assign out_valid = fire && writes;

  function automatic logic [TW-1:0] next_step_line(input logic [TW-1:0] a);
    next_step_line = 32'(a) == STEP_LINES - 1 ? TW'(STEP_LOOP) : a + 1'b1;
  endfunction
  function automatic logic [XW-1:0] next_src_line(input logic [XW-1:0] a);
    next_src_line = 32'(a) == SRC_LINES - 1 ? XW'(SRC_LOOP) : a + 1'b1;
  endfunction

  always_ff @(posedge clk)
    if (rst || fire) step <= (rst || 32'(sn) < STEPS) ? step_rom[rst ? '0 : sa] : '0;
  always_ff @(posedge clk)
    if (rst || out_valid) ent <= src_rom[rst ? '0 : wa];

  // Input k's beats fill a ring of RB = NE[k] / BI[k] beats from buffer word BASES[k], a beat
  // (BI[k] elements) a step that reads it: word BASES[k] + n takes element n mod BI[k] of
  // every beat b with b mod RB = n / BI[k], so each word has one writer and its enable is a
  // compare of the beat count (modulo RB, a power of two where the ring wraps) with a
  // constant.
  logic [W-1:0] in_words[IN_WORDS];
  for (genvar k = 0; k < NIN; k = k + 1) begin : g_in
    localparam int BK = BI[k*32+:32], AK = AT[k*32+:32], QK = QAT[k*32+:32], NK = NE[k*32+:32];
    localparam int B0 = BASES[k*32+:32], RB = NK / BK, NBW = RB > 1 ? $clog2(RB) : 1;
    assign flags[k] = in_data[AK+BK*W];
    for (genvar e = 0; e < BK; e = e + 1) begin : g_word
      assign in_words[QK+e] = in_data[AK+e*W+:W];
    end
    if (HELD && RB > 1) begin : g_fill
      logic [NBW-1:0] bn;  // beats read, modulo RB where RB is a power of two
      always_ff @(posedge clk) begin
        if (rst) bn <= '0;
        else if (in_ready[k]) bn <= bn + 1'b1;
      end
      for (genvar n = 0; n < NK; n = n + 1) begin : g_elem
        always_ff @(posedge clk) if (in_ready[k] && bn == NBW'(n / BK)) buffer[B0+n] <= in_words[QK+n%BK];
      end
    end else if (HELD && RB == 1) begin : g_fill_one  // every beat into the same words
      for (genvar n = 0; n < NK; n = n + 1) begin : g_elem
        always_ff @(posedge clk) if (in_ready[k]) buffer[B0+n] <= in_words[QK+n];
      end
    end
  end

  // Output element e: one of its candidates (words of this step's input beats, buffer words
  // and constants, at indices fixed here).
  for (genvar e = 0; e < BO; e = e + 1) begin : g_out
    logic [W-1:0] cand[MS];
    for (genvar j = 0; j < MS; j = j + 1) begin : g_cand
      localparam logic [31:0] CJ = CAND[(e*MS+j)*32+:32];
      localparam logic [31:0] QJ = {2'b00, CJ[29:0]};
      if (CJ[31]) begin : g_const_word
        assign cand[j] = const_rom[CW'(CJ[30:0])];
      end else if (CJ[30]) begin : g_input_word
        assign cand[j] = in_words[IQ'(QJ)];
      end else if (HELD) begin : g_buffer_word
        assign cand[j] = buffer[BW'(QJ)];
      end else begin : g_none
        assign cand[j] = '0;
      end
    end
    if (MS > 1) begin : g_pick
      assign out_data[e*W+:W] = cand[ent[e*EW+:EW]];
    end else begin : g_one
      assign out_data[e*W+:W] = cand[0];
    end
  end
  assign out_data[BO*W] = sticky || |(reads & flags);

  always_ff @(posedge clk) begin
    if (rst) begin
      started <= 1'b0;
      live <= 1'b1;
      sticky <= 1'b0;
      sn <= SW'(1);
      sa <= next_step_line('0);
      wa <= next_src_line('0);
    end else begin
      started <= 1'b1;
      if (fire) begin
        sn <= sn + 1'b1;
        sa <= next_step_line(sa);
        live <= 32'(sn) < STEPS;
        sticky <= sticky || |(reads & flags);
        if (writes) wa <= next_src_line(wa);
      end
    end
  end
endmodule
