// A permute of NUM elements of any rank (schedule: full buffer): steps 0 .. NUM/BI - 1 read
// every input beat into a buffer (II = 1), then the next NUM/BO steps write every output
// beat (II = 1). Output element (o_0, ..., o_{RANK-1}) is input element sum_d o_d * STRIDES[d]
// (the input's stride along the input dim that output dim d is). The buffer holds whole
// input beats, a word of BI elements each, so that it has one write port and can be a RAM;
// an input element a is element a mod BI of word a / BI, and addresses are kept in that
// form, (word, lane), so that no division is needed. An odometer over the output's index,
// stepping the last dim by BO, keeps the place of the next beat's element 0 with adds and
// subtractions of constants only; element e of the beat is that place plus e *
// STRIDES[last], since BO divides the last output dim. Every written beat carries the
// sticky flag of all input beats (the HLS library's permute). The buffer is read
// asynchronously, so the first write can follow the last read by one cycle, as the
// schedule has it.
module inrarch_permute #(
    parameter int W = 32,
    parameter int BI = 1,
    parameter int BO = 1,
    parameter int NUM = 1,
    parameter int RANK = 1,
    parameter logic [RANK*32-1:0] DIMS = '0,    // the output's dims, dim d at [d*32 +: 32]
    parameter logic [RANK*32-1:0] STRIDES = '0  // per output dim, the input's stride along it
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
  localparam int IN_BEATS = NUM / BI, OUT_BEATS = NUM / BO;
  localparam int QW = IN_BEATS > 1 ? $clog2(IN_BEATS) : 1;  // a word of the buffer
  localparam int RW = $clog2(BI + 1);                       // a lane, and a lane + 1
  localparam int IW = $clog2(NUM + 1);                      // holds any dim
  localparam int SW = $clog2(IN_BEATS + OUT_BEATS + 1);
  localparam int LAST = (RANK - 1) * 32;
  logic active, reads, fire, sticky, carry;
  logic [SW-1:0] s;                    // the step; reads while s < IN_BEATS
  logic [QW-1:0] wq;                   // the word the next input beat goes to
  // The place of the next output beat's element 0: word bq, lane br < BI. Word sums are
  // modulo 2^QW; the true word is below IN_BEATS, so the low QW bits are all it needs.
  logic [QW-1:0] bq, bq_next;
  logic [RW-1:0] br, br_next;
  logic [RANK*IW-1:0] idx, idx_next;   // the next output beat's index
  logic [BI*W-1:0] buffer[IN_BEATS];
  inrarch_steps #(.STEPS(IN_BEATS + OUT_BEATS)) u_steps (.clk, .rst, .fire, .active);
  assign reads     = s < SW'(IN_BEATS);
  assign fire      = active && (reads ? in_valid : out_ready);
  assign in_ready  = fire && reads;
  assign out_valid = fire && !reads;
  assign out_data[BO*W] = sticky;
  always_ff @(posedge clk) if (in_ready) buffer[wq] <= in_data[BI*W-1:0];

  // Element e: the place (bq, br) plus the constant e * STRIDES[last] as (word, lane).
  for (genvar e = 0; e < BO; e = e + 1) begin : g_out
    localparam int OFF = e * STRIDES[LAST+:32];
    logic [RW:0] lane, r;  // r: the lane, below BI
    logic [QW-1:0] q;
    logic [BI*W-1:0] word;
    assign lane = {1'b0, br} + (RW + 1)'(OFF % BI);
    assign r    = lane >= (RW + 1)'(BI) ? lane - (RW + 1)'(BI) : lane;
    assign q    = bq + QW'(OFF / BI) + QW'(lane >= (RW + 1)'(BI));
    assign word = buffer[q];
    assign out_data[e*W+:W] = word[32'(r)*W+:W];
  end

  // The odometer: the last dim steps by BO, the others by 1, which moves the place by
  // step * STRIDES[d]; a dim that wraps takes back (DIMS[d] - step) * STRIDES[d] and carries.
  // Each constant c moves the word by c / BI and the lane by c mod BI, with a carry or a
  // borrow between them.
  always_comb begin
    idx_next = idx;
    bq_next  = bq;
    br_next  = br;
    carry    = 1'b1;
    for (int d = RANK - 1; d >= 0; d = d - 1) begin
      if (carry) begin
        if ({1'b0, idx[d*IW+:IW]} + (IW + 1)'(d == RANK - 1 ? BO : 1) < (IW + 1)'(DIMS[d*32+:32])) begin
          idx_next[d*IW+:IW] = idx[d*IW+:IW] + IW'(d == RANK - 1 ? BO : 1);
          carry = 1'b0;
          add((d == RANK - 1 ? BO : 1) * STRIDES[d*32+:32]);
        end else begin
          idx_next[d*IW+:IW] = '0;
          sub((DIMS[d*32+:32] - (d == RANK - 1 ? BO : 1)) * STRIDES[d*32+:32]);
        end
      end
    end
  end
  // (bq_next, br_next) += c or -= c, for c >= 0.
  task automatic add(input logic [31:0] c);
    if ({1'b0, br_next} + (RW + 1)'(c % BI) >= (RW + 1)'(BI)) begin
      br_next = RW'({1'b0, br_next} + (RW + 1)'(c % BI) - (RW + 1)'(BI));
      bq_next = bq_next + QW'(c / BI) + 1'b1;
    end else begin
      br_next = br_next + RW'(c % BI);
      bq_next = bq_next + QW'(c / BI);
    end
  endtask
  task automatic sub(input logic [31:0] c);  // br - c mod BI, plus BI: no borrow when >= BI
    if ({1'b0, br_next} + (RW + 1)'(BI - c % BI) >= (RW + 1)'(BI)) begin
      br_next = RW'({1'b0, br_next} + (RW + 1)'(BI - c % BI) - (RW + 1)'(BI));
      bq_next = bq_next - QW'(c / BI);
    end else begin
      br_next = RW'({1'b0, br_next} + (RW + 1)'(BI - c % BI));
      bq_next = bq_next - QW'(c / BI) - 1'b1;
    end
  endtask

  always_ff @(posedge clk) begin
    if (rst) begin
      s <= '0;
      wq <= '0;
      bq <= '0;
      br <= '0;
      idx <= '0;
      sticky <= 1'b0;
    end else if (fire) begin
      s <= s + 1'b1;
      if (reads) begin
        wq <= wq + 1'b1;
        sticky <= sticky || in_data[BI*W];
      end else begin
        idx <= idx_next;
        bq <= bq_next;
        br <= br_next;
      end
    end
  end
endmodule
