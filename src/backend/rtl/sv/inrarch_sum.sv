// sum over some dims (a gather: dataflow/schedule_gather.cpp): STEP_FILE holds each step's
// {write, read} (the schedule, every step delay 1), DST_FILE a line per input beat, each of
// its elements' accumulator (XR bits, element 0 lowest). The HLS gather sums an output's
// contributors into acc_type (64 bits, FA fraction bits) once all are read, wrapping; integer
// addition modulo 2^64 does not depend on the order, so running sums give its bits. An
// input in T has its low FA - F bits of acc_type zero, and n contributors need W + log2 n
// bits, so each sum is kept in AW = min(64 - (FA - F), W + ⌈log2 n⌉) bits at F fraction
// bits (the emitter works AW out): the same value, wrapping where acc_type does.
// Accumulators: a ring of RING (a power of two) over the outputs, output element o's
// accumulator o mod RING. The emitter sizes the ring to the outputs that are open at once
// (from the lowest not yet written to the highest a read has reached), so each open output
// has its own, and the ring does not grow with the batch where the rows are summed.
// A read adds the beat's elements to their accumulators; a write, in a step after the last
// read of its elements (the schedule's L = 1), fits each element of the output beat into T
// (saturate, ovf) and clears its accumulator for the output that takes it next. A written
// beat carries the flag of every beat read before its step and every fit so far, as the
// HLS gather's, which computes the beat at its last read and writes it a step later.
// Both tables follow the batch's rows, so each holds its lines up to where they start
// repeating and once round the period (STEP_LINES, DST_LINES; support/looped_table.h; the
// last step, a write alone, is LAST_STEP rather than a line that would end the period):
// after its last line the read goes back to line STEP_LOOP (DST_LOOP). The current step's
// bits and the current beat's accumulators are registers, read from their tables a step
// (a beat) ahead, as inrarch_gather reads its own.
module inrarch_sum #(
    parameter int BI = 1,
    parameter int BO = 1,
    parameter int W = 32,
    parameter int AW = 38,
    parameter int RING = 1,
    parameter int STEPS = 1,
    parameter logic [1:0] LAST_STEP = 2'b10,  // the last step's bits, not in the table
    parameter int STEP_LINES = 1,
    parameter int STEP_LOOP = 0,
    parameter int DST_LINES = 1,
    parameter int DST_LOOP = 0,
    parameter STEP_FILE = "steps.hex",
    parameter DST_FILE = "dst.hex"
) (
    input  logic          clk,
    input  logic          rst,
    input  logic [BI*W:0] in_data,
    input  logic          in_valid,
    output logic          in_ready,
    output logic [BO*W:0] out_data,
    output logic          out_valid,
    input  logic          out_ready
);
  localparam int SW = $clog2(STEPS + 1), TW = STEP_LINES > 1 ? $clog2(STEP_LINES) : 1;
  localparam int DW = DST_LINES > 1 ? $clog2(DST_LINES) : 1, XR = RING > 1 ? $clog2(RING) : 1;
  localparam logic [XR-1:0] RMASK = XR'(RING - 1);
  logic [1:0] step_rom[STEP_LINES];
  logic [BI*XR-1:0] dst_rom[DST_LINES];
  logic [AW-1:0] acc[RING];
  initial $readmemh(STEP_FILE, step_rom);
  initial $readmemh(DST_FILE, dst_rom);

  logic started, live, sticky, fire, reads, writes;
  logic [SW-1:0] sn;         // the step after the current one
  logic [TW-1:0] sa;         // its line of the step table
  logic [DW-1:0] da;         // the accumulator table's line for the beat after the current one
  logic [1:0] step;          // the current step's bits (zero past the last step)
  logic [BI*XR-1:0] dline;   // the current input beat's accumulators
  logic [XR-1:0] os;         // the accumulator of the next output element written
  assign reads  = step[0];
  assign writes = step[1];
  assign fire   = started && live && (!reads || in_valid) && (!writes || out_ready);
  assign in_ready  = fire && reads;
  assign out_valid = fire && writes;

  function automatic logic [TW-1:0] next_step_line(input logic [TW-1:0] a);
    next_step_line = 32'(a) == STEP_LINES - 1 ? TW'(STEP_LOOP) : a + 1'b1;
  endfunction
  function automatic logic [DW-1:0] next_dst_line(input logic [DW-1:0] a);
    next_dst_line = 32'(a) == DST_LINES - 1 ? DW'(DST_LOOP) : a + 1'b1;
  endfunction

  // The bits of the step that fires next: step sn after a fire, step 0 after the reset.
  always_ff @(posedge clk)
    if (rst) step <= STEPS == 1 ? LAST_STEP : step_rom[0];
    else if (fire) step <= 32'(sn) + 1 < STEPS ? step_rom[sa] : 32'(sn) + 1 == STEPS ? LAST_STEP : '0;
  always_ff @(posedge clk)
    if (rst || in_ready) dline <= dst_rom[rst ? '0 : da];

  // This beat's elements in AW bits, their accumulators, and the running sum each would
  // store: its accumulator plus every element of the beat with the same one (the last of
  // them stores it).
  logic [AW-1:0] x[BI], part[BI];
  logic [XR-1:0] d[BI];
  logic [BI-1:0] last;
  for (genvar e = 0; e < BI; e = e + 1) begin : g_in
    assign x[e] = AW'($signed(in_data[e*W+:W]));
    assign d[e] = dline[e*XR+:XR] & RMASK;
  end
  always_comb begin
    for (int e = 0; e < BI; e = e + 1) begin
      part[e] = acc[d[e]];
      last[e] = 1'b1;
      for (int k = 0; k < BI; k = k + 1) begin
        if (d[k] == d[e]) part[e] = part[e] + x[k];
        if (k > e && d[k] == d[e]) last[e] = 1'b0;
      end
    end
  end

  // Output element j of the beat: its accumulator, fit into T. Every contributor was added
  // in an earlier step (the schedule writes a sum's beat in the step after its last read),
  // so this step's reads go to other accumulators and the write reads registers only.
  logic [BO-1:0] sat;
  logic [XR-1:0] oj[BO];
  for (genvar j = 0; j < BO; j = j + 1) begin : g_out
    logic [AW-1:0] v;
    assign oj[j] = (os + XR'(j)) & RMASK;
    assign v = acc[oj[j]];
    // v is at T's fraction bits: it fits where its bits W - 1 … AW - 1 are copies of its sign
    // (XW says the bits above AW are, so the test reads AW - W + 1 bits, not 64).
    logic hi, lo;
    inrarch_fit_flags #(.LO(W - 1), .XW(AW)) u_flags (.x(64'($signed(v))), .hi, .lo);
    assign out_data[j*W+:W] = hi ? {1'b0, {(W - 1) {1'b1}}} : lo ? {1'b1, {(W - 1) {1'b0}}} : v[W-1:0];
    assign sat[j] = hi || lo;
  end
  assign out_data[BO*W] = sticky || |sat;

  always_ff @(posedge clk) begin
    if (rst) begin
      started <= 1'b0;
      live <= 1'b1;
      sticky <= 1'b0;
      sn <= SW'(1);
      sa <= next_step_line('0);
      da <= next_dst_line('0);
      os <= '0;
      for (int k = 0; k < RING; k = k + 1) acc[k] <= '0;
    end else begin
      started <= 1'b1;
      if (fire) begin
        sn <= sn + 1'b1;
        sa <= next_step_line(sa);
        live <= 32'(sn) < STEPS;
        sticky <= sticky || (reads && in_data[BI*W]) || (writes && |sat);
        if (reads) begin
          da <= next_dst_line(da);
          for (int e = 0; e < BI; e = e + 1) if (last[e]) acc[d[e]] <= part[e];
        end
        if (writes) begin
          os <= (os + XR'(BO)) & RMASK;
          for (int j = 0; j < BO; j = j + 1) acc[oj[j]] <= '0;
        end
      end
    end
  end
endmodule
