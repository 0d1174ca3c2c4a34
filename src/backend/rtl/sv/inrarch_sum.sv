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
// (from the lowest not yet picked to the highest a read has reached), so each open output
// has its own, and the ring does not grow with the batch where the rows are summed.
// A read adds the beat's elements to their accumulators, each sum in two halves (the high
// half a cycle later, with the low half's carry registered), so no add is longer than about
// AW / 2 bits. A write comes at least four steps after the last read so far (the schedule's
// kSumWriteLag): two steps before it (kSumPickAhead), each element of its beat is read from
// its accumulator into a register, and the accumulator cleared for the output that takes it
// next; a step before, fit into T (saturate, ovf) into another; in its own step the beat
// goes out. So the write reads registers only, and no path holds both a selection among
// the accumulators and a fit. A written beat carries the flag of every beat read before its
// step and every fit so far, as the HLS gather's, which computes the beat at its last read
// and writes it when the schedule does.
// Both tables follow the batch's rows, so each holds its lines up to where they start
// repeating and once round the period (STEP_LINES, DST_LINES; support/looped_table.h; the
// last steps, SUF_LINES lines after the period (SUFFIX: a column sum's writes among its last
// row's reads, the writes due after the last read with steps of nothing between them), then
// TAIL_WRITES writes, are parameters rather than lines that would end the period): after
// its last line the read goes back to line STEP_LOOP (DST_LOOP). The bits of the current
// step and of the two after it, and the current beat's accumulators, are registers, read
// from their tables steps (a beat) ahead, as inrarch_gather reads its own.
module inrarch_sum #(
    parameter int BI = 1,
    parameter int BO = 1,
    parameter int W = 32,
    parameter int AW = 38,
    parameter int RING = 1,
    parameter int STEPS = 2,
    parameter int SUF_LINES = 0,    // after the table's steps: these lines,
    parameter logic [2*(SUF_LINES>0?SUF_LINES:1)-1:0] SUFFIX = '0,  // line i at bit 2i
    parameter int TAIL_WRITES = 1,  // then writes alone
    parameter int STEP_LINES = 1,
    parameter int STEP_LOOP = 0,
    parameter int DST_LINES = 1,
    parameter int DST_LOOP = 0,
    parameter logic [BI*BI-1:0] SHARE = '0,  // bit e·BI + k: elements e and k may share an accumulator
    parameter logic [RING*BI-1:0] STORE = '1,    // bit a·BI + e: element e may store accumulator a
    parameter logic [BI*RING-1:0] STORE_T = '1,  // the same, bit e·RING + a
    parameter logic [BO*RING-1:0] OUTS = '1,     // bit j·RING + a: output position j may read accumulator a
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
  localparam int SW = $clog2(STEPS + 4), TW = STEP_LINES > 1 ? $clog2(STEP_LINES) : 1;
  localparam int DW = DST_LINES > 1 ? $clog2(DST_LINES) : 1, XR = RING > 1 ? $clog2(RING) : 1;
  localparam logic [XR-1:0] RMASK = XR'(RING - 1);
  logic [1:0] step_rom[STEP_LINES];
  logic [BI*XR-1:0] dst_rom[DST_LINES];
  initial $readmemh(STEP_FILE, step_rom);
  initial $readmemh(DST_FILE, dst_rom);

  logic started, live, sticky, fire, reads, writes;
  logic [SW-1:0] sn;         // the step whose bits are read next: three after the current one
  logic [TW-1:0] sa;         // its line of the step table
  logic [DW-1:0] da;         // the accumulator table's line for the beat after the current one
  logic [1:0] step;          // the current step's bits (zero past the last step)
  logic [1:0] step1, step2;  // the next step's and the one after it
  logic [BI*XR-1:0] dline;   // the current input beat's accumulators
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
  // The bits of step n, whose line of the table is `line` and of the suffix `suf`: the
  // table's up to TABLE_STEPS, then SUF_LINES of the suffix, then TAIL_WRITES writes.
  localparam int TABLE_STEPS = STEPS - SUF_LINES - TAIL_WRITES;
  localparam int UW = SUF_LINES > 1 ? $clog2(SUF_LINES) : 1;
  function automatic logic [1:0] step_bits(input logic [SW-1:0] n, input logic [1:0] line, input logic [1:0] suf);
    step_bits = 32'(n) < TABLE_STEPS ? line :
                32'(n) < TABLE_STEPS + SUF_LINES ? suf : 32'(n) < STEPS ? 2'b10 : 2'b00;
  endfunction
  // Steps 1 and 2's suffix lines (the table keeps at least step 0), and su: the suffix's
  // line for step sn, counted from TABLE_STEPS and held at its last line.
  localparam int K1 = 1 - TABLE_STEPS, K2 = 2 - TABLE_STEPS, K3 = 3 - TABLE_STEPS;
  localparam bit IN1 = K1 >= 0 && K1 < SUF_LINES, IN2 = K2 >= 0 && K2 < SUF_LINES;
  localparam logic [1:0] SUF1 = IN1 ? SUFFIX[2*(IN1 ? K1 : 0)+:2] : 2'b00;
  localparam logic [1:0] SUF2 = IN2 ? SUFFIX[2*(IN2 ? K2 : 0)+:2] : 2'b00;
  localparam int SU0 = K3 <= 0 ? 0 : K3 < SUF_LINES ? K3 : (SUF_LINES > 0 ? SUF_LINES - 1 : 0);
  logic [UW-1:0] su;
  // Steps 1 and 2's lines, and step 3's (read after the first fire).
  localparam int L1 = STEP_LINES == 1 ? STEP_LOOP : 1;
  localparam int L2 = L1 == STEP_LINES - 1 ? STEP_LOOP : L1 + 1;
  localparam int L3 = L2 == STEP_LINES - 1 ? STEP_LOOP : L2 + 1;

  always_ff @(posedge clk)
    if (rst) begin
      step <= step_bits(SW'(0), step_rom[0], 2'b00);
      step1 <= step_bits(SW'(1), step_rom[L1], SUF1);
      step2 <= step_bits(SW'(2), step_rom[L2], SUF2);
    end else if (fire) begin
      step <= step1;
      step1 <= step2;
      step2 <= step_bits(sn, step_rom[sa], SUFFIX[2*su+:2]);
    end
  if (SUF_LINES > 1) begin : g_suffix
    always_ff @(posedge clk)
      if (rst) su <= UW'(SU0);
      else if (fire && 32'(sn) >= TABLE_STEPS && 32'(su) + 1 < SUF_LINES) su <= su + 1'b1;
  end else begin : g_no_suffix
    assign su = '0;
  end
  always_ff @(posedge clk)
    if (rst || in_ready) dline <= dst_rom[rst ? '0 : da];

  // Each running sum is kept in two halves, LOW bits and the HIGH bits above them, so no
  // add is longer than about AW / 2 bits: a read adds the beat's elements' low halves to
  // their accumulators' and registers the carries; a cycle later the high halves take the
  // elements' high halves and those carries. A write comes at least two steps after the
  // last read of its elements (the schedule's kSumWriteLag), so both halves are complete.
  localparam int LOW = (AW + 1) / 2, HIGH = AW - LOW, CB = $clog2(BI + 1);
  logic [LOW-1:0] lo[RING];
  logic [HIGH-1:0] hi[RING];
  logic [LOW-1:0] xl[BI];
  logic [HIGH-1:0] xh[BI];
  // An element, or an output position, that only ever meets one accumulator needs no index.
  /* verilator lint_off UNUSEDSIGNAL */
  logic [XR-1:0] d[BI];
  /* verilator lint_on UNUSEDSIGNAL */
  for (genvar e = 0; e < BI; e = e + 1) begin : g_in
    logic [AW-1:0] x;
    assign x = AW'($signed(in_data[e*W+:W]));
    assign {xh[e], xl[e]} = x;
    assign d[e] = dline[e*XR+:XR] & RMASK;
  end
  // STORE and OUTS (from the layout) prune the ring's multiplexers: element e reads and
  // stores only the accumulators it ever stores, accumulator a is loaded only from those
  // elements, and output position j reads only the accumulators it ever writes (a column
  // sum's element meets a few accumulators of the ring, and with one there is no compare).
  // A mask's bits are counted with $countones, and where one is set, $clog2 finds it (a
  // constant function with a loop in it makes Icarus 11 compute other modules wrong).
  // Elements e and k of a beat share an accumulator only where SHARE (bit e·BI + k) says
  // some beat has them in one (the emitter reads it off the table): the others need no
  // compare and no add between them. Every sum below is a chain of continuous assignments,
  // each word written once (an always_comb that writes a word twice re-runs forever in
  // Icarus); split_var tells Verilator a chain's words are separate signals, not a loop.
  logic [BI*BI-1:0] same;   // bit e·BI + k: e and k share an accumulator in this beat
  logic [BI*BI-1:0] hsame;  // the same, for the beat the high halves take
  logic [BI-1:0] last;      // e stores its accumulator: no later element shares it
  logic [LOW+CB-1:0] lsum[BI];

  // High halves, a cycle after the read: the registered high halves of the same elements
  // and the low half's carry.
  logic h_go;
  /* verilator lint_off UNUSEDSIGNAL */
  logic [BI-1:0] h_last;  // an element that never stores leaves its bit unread
  logic [XR-1:0] hd[BI];
  /* verilator lint_on UNUSEDSIGNAL */
  logic [HIGH-1:0] hx[BI];
  logic [CB-1:0] hc[BI];
  logic [HIGH-1:0] hsum[BI];
  always_ff @(posedge clk) begin
    h_go <= !rst && fire && reads;
    h_last <= last;
    for (int e = 0; e < BI; e = e + 1) begin
      hd[e] <= d[e];
      hx[e] <= xh[e];
      hc[e] <= lsum[e][LOW+:CB];
    end
  end

  for (genvar e = 0; e < BI; e = e + 1) begin : g_sum
    for (genvar k = 0; k < BI; k = k + 1) begin : g_pair
      if (k != e && SHARE[e*BI+k]) begin : g_may
        assign same[e*BI+k] = d[k] == d[e];
        assign hsame[e*BI+k] = hd[k] == hd[e];
      end else begin : g_never
        assign same[e*BI+k] = 1'b0;
        assign hsame[e*BI+k] = 1'b0;
      end
    end
    assign last[e] = !(|(same[e*BI+:BI] >> (e + 1)));
    // Low half: element e's accumulator plus every element of the beat with the same one,
    // in LOW + CB bits (the top CB bits are the carry). x - ~a - 1 = x + a: the element is
    // the carry chain's DI (its first operand, where Yosys may put either of an add's), so
    // the ring's multiplexer feeds only each bit's S LUT and merges with it.
    // Its accumulator's halves (the low one now, the high one a cycle later), read where
    // it stores: its only accumulator, all the ring, or an AND-OR over those it stores.
    localparam logic [RING-1:0] SA = STORE_T[e*RING+:RING];
    localparam int NA = $countones(SA), A0 = NA == 1 ? $clog2(SA) : 0;
    logic [LOW-1:0] lo_rd;
    logic [HIGH-1:0] hi_rd;
    if (NA <= 1) begin : g_one_acc
      assign lo_rd = lo[A0];
      assign hi_rd = hi[A0];
    end else if (NA == RING) begin : g_all_accs
      assign lo_rd = lo[d[e]];
      assign hi_rd = hi[hd[e]];
    end else begin : g_some_accs
      logic [LOW-1:0] lr[RING+1]  /*verilator split_var*/;
      logic [HIGH-1:0] hr[RING+1]  /*verilator split_var*/;
      assign lr[0] = '0;
      assign hr[0] = '0;
      for (genvar a = 0; a < RING; a = a + 1) begin : g_a
        if (SA[a]) begin : g_may
          assign lr[a+1] = lr[a] | (32'(d[e]) == a ? lo[a] : '0);
          assign hr[a+1] = hr[a] | (32'(hd[e]) == a ? hi[a] : '0);
        end else begin : g_never
          assign lr[a+1] = lr[a];
          assign hr[a+1] = hr[a];
        end
      end
      assign lo_rd = lr[RING];
      assign hi_rd = hr[RING];
    end
    logic [LOW+CB-1:0] lc[BI+1]  /*verilator split_var*/;
    logic [HIGH-1:0] hcs[BI+1]  /*verilator split_var*/;
    assign lc[0] = (LOW + CB)'(xl[e]) - (~((LOW + CB)'(lo_rd))) - 1'b1;
    if (BI == 1) begin : g_one
      // One element a beat: its one-bit carry is the high chain's carry-in, ({x, c} + {h, 1})
      // >> 1 (written as lc[0]'s), so the high half is one add.
      /* verilator lint_off UNUSEDSIGNAL */
      logic hone_in;  // the carry-in's own bit of the sum
      /* verilator lint_on UNUSEDSIGNAL */
      assign {hcs[0], hone_in} = {hx[e], hc[e][0]} - ~{hi_rd, 1'b1} - 1'b1;
    end else begin : g_many
      assign hcs[0] = hx[e] + hi_rd + HIGH'(hc[e]);
    end
    for (genvar k = 0; k < BI; k = k + 1) begin : g_chain
      assign lc[k+1] = lc[k] + (same[e*BI+k] ? (LOW + CB)'(xl[k]) : '0);
      assign hcs[k+1] = hcs[k] + (hsame[e*BI+k] ? hx[k] : '0);
    end
    assign lsum[e] = lc[BI];
    assign hsum[e] = hcs[BI];
  end

  // Output element j of a written beat, in three steps. Two steps before the write (step2's
  // write bit: the pick), its accumulator is read into v1 and cleared for the output that
  // takes it next, through an index register of its own stepped by BO at each pick: every
  // contributor was added two steps or more before, so both halves are complete. A step
  // before the write (step1's), v1 is fit into T (inrarch_fit_stage). The write sends it.
  logic [BO-1:0] fs;
  logic pick, fit;
  assign pick = fire && step2[1];
  assign fit = fire && step1[1];
  /* verilator lint_off UNUSEDSIGNAL */
  logic [XR-1:0] pj[BO];
  /* verilator lint_on UNUSEDSIGNAL */
  for (genvar j = 0; j < BO; j = j + 1) begin : g_out
    logic [AW-1:0] v, v1;
    always_ff @(posedge clk)
      if (rst) pj[j] <= XR'(j) & RMASK;
      else if (pick) pj[j] <= (pj[j] + XR'(BO)) & RMASK;
    localparam logic [RING-1:0] OA = OUTS[j*RING+:RING];
    localparam int NA = $countones(OA), A0 = NA == 1 ? $clog2(OA) : 0;
    if (NA <= 1) begin : g_one_acc
      assign v = {hi[A0], lo[A0]};
    end else if (NA == RING) begin : g_all_accs
      assign v = {hi[pj[j]], lo[pj[j]]};
    end else begin : g_some_accs
      logic [AW-1:0] vr[RING+1]  /*verilator split_var*/;
      assign vr[0] = '0;
      for (genvar a = 0; a < RING; a = a + 1) begin : g_a
        if (OA[a]) begin : g_may
          assign vr[a+1] = vr[a] | (32'(pj[j]) == a ? {hi[a], lo[a]} : '0);
        end else begin : g_never
          assign vr[a+1] = vr[a];
        end
      end
      assign v = vr[RING];
    end
    always_ff @(posedge clk)
      if (pick) v1 <= v;
    // v1 is at T's fraction bits (F = FA here): it fits where its bits W - 1 … AW - 1 are
    // copies of its sign (XW says the bits above AW are, so the test reads AW - W + 1 bits).
    // The stage registers the range flags and the kept bits; its saturating select is the
    // one LUT between them and the output.
    inrarch_fit_stage #(.W(W), .F(0), .FA(0), .XW(AW)) u_fit (
        .clk, .en(fit), .x(64'($signed(v1))), .sat(1'b0), .y(out_data[j*W+:W]), .ovf(fs[j]));
  end
  assign out_data[BO*W] = sticky || |fs;

  // Accumulator a is cleared by the reset or by the pick of its output (a synchronous
  // reset of its flip-flops), else loaded by the element of the beat that stores it: with
  // one such element ever, its sum straight into their D inputs; with several (at most one
  // a beat), an AND-OR over them.
  for (genvar a = 0; a < RING; a = a + 1) begin : g_acc
    logic [BO-1:0] wr;
    logic [BI-1:0] lo_hit, hi_hit;
    logic [LOW-1:0] lo_part[BI+1]  /*verilator split_var*/;
    logic [HIGH-1:0] hi_part[BI+1]  /*verilator split_var*/;
    for (genvar j = 0; j < BO; j = j + 1) begin : g_w
      if (!OUTS[j*RING+a]) begin : g_never
        assign wr[j] = 1'b0;
      end else if ($countones(OUTS[j*RING+:RING]) == 1) begin : g_only
        assign wr[j] = pick;
      end else begin : g_may
        assign wr[j] = pick && 32'(pj[j]) == a;
      end
    end
    assign lo_part[0] = '0;
    assign hi_part[0] = '0;
    for (genvar e = 0; e < BI; e = e + 1) begin : g_e
      if (!STORE[a*BI+e]) begin : g_never
        assign lo_hit[e] = 1'b0;
        assign hi_hit[e] = 1'b0;
      end else if ($countones(STORE_T[e*RING+:RING]) == 1) begin : g_only
        assign lo_hit[e] = fire && reads && last[e];
        assign hi_hit[e] = h_go && h_last[e];
      end else begin : g_may
        assign lo_hit[e] = fire && reads && last[e] && 32'(d[e]) == a;
        assign hi_hit[e] = h_go && h_last[e] && 32'(hd[e]) == a;
      end
      assign lo_part[e+1] = lo_part[e] | (lo_hit[e] ? lsum[e][LOW-1:0] : '0);
      assign hi_part[e+1] = hi_part[e] | (hi_hit[e] ? hsum[e] : '0);
    end
    localparam logic [BI-1:0] SE = STORE[a*BI+:BI];
    localparam int NE = $countones(SE), E0 = NE == 1 ? $clog2(SE) : 0;
    logic [LOW-1:0] lo_next;
    logic [HIGH-1:0] hi_next;
    assign lo_next = NE <= 1 ? lsum[E0][LOW-1:0] : lo_part[BI];
    assign hi_next = NE <= 1 ? hsum[E0] : hi_part[BI];
    always_ff @(posedge clk)
      if (rst || |wr) lo[a] <= '0;
      else if (|lo_hit) lo[a] <= lo_next;
    always_ff @(posedge clk)
      if (rst || |wr) hi[a] <= '0;
      else if (|hi_hit) hi[a] <= hi_next;
  end

  always_ff @(posedge clk) begin
    if (rst) begin
      started <= 1'b0;
      live <= 1'b1;
      sticky <= 1'b0;
      sn <= SW'(3);
      sa <= TW'(L3);
      da <= next_dst_line('0);
    end else begin
      started <= 1'b1;
      if (fire) begin
        sn <= sn + 1'b1;
        sa <= next_step_line(sa);
        live <= 32'(sn) < STEPS + 2;  // the step after the current one, sn - 2, is a step
        sticky <= sticky || (reads && in_data[BI*W]) || (writes && |fs);
        if (reads) da <= next_dst_line(da);
      end
    end
  end
endmodule
