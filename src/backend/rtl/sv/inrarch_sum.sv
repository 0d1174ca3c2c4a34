// sum over some dims (a gather: dataflow/schedule_gather.cpp): STEP_FILE holds each step's
// {write, read} (the schedule, every step delay 1), DST_FILE each input element's output
// element. One accumulator per output element, in A = ap_fixed<64, 64-FA>: a read adds the
// beat's elements to theirs (exact, modulo 2^64 as acc_type wraps, so the order does not
// matter), and a write fits each element of the output beat into T (floor, saturate, ovf),
// the elements read in the same step included, as the HLS gather sums at its write. A
// written beat carries the flag of every beat read and every fit so far.
module inrarch_sum #(
    parameter int BI = 1,
    parameter int BO = 1,
    parameter int W = 32,
    parameter int F = 22,
    parameter int FA = 36,
    parameter int STEPS = 1,
    parameter int IN_ELEMS = 1,
    parameter int OUT_ELEMS = 1,
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
  localparam int SW = $clog2(STEPS + 1), TW = STEPS > 1 ? $clog2(STEPS) : 1;
  localparam int IW = $clog2(IN_ELEMS + 1), XI = IN_ELEMS > 1 ? $clog2(IN_ELEMS) : 1;
  localparam int OW = $clog2(OUT_ELEMS + 1), XO = OUT_ELEMS > 1 ? $clog2(OUT_ELEMS) : 1;
  logic [1:0] step_rom[STEPS];
  logic [XO-1:0] dst_rom[IN_ELEMS];
  logic [63:0] acc[OUT_ELEMS];
  initial $readmemh(STEP_FILE, step_rom);
  initial $readmemh(DST_FILE, dst_rom);

  logic started, sticky, fire, reads, writes;
  logic [SW-1:0] s;  // the next step
  logic [IW-1:0] i;  // the next input element
  logic [OW-1:0] o;  // the next output element
  logic [1:0] step;
  assign step   = s < SW'(STEPS) ? step_rom[TW'(s)] : '0;
  assign reads  = step[0];
  assign writes = step[1];
  assign fire   = started && s < SW'(STEPS) && (!reads || in_valid) && (!writes || out_ready);
  assign in_ready  = fire && reads;
  assign out_valid = fire && writes;

  // This beat's elements in A, where each goes, and the running sum each would store: its
  // accumulator plus every element of the beat with the same destination (the last of
  // them stores it).
  logic [63:0] x[BI], part[BI];
  logic [XO-1:0] d[BI];
  logic [BI-1:0] last;
  for (genvar e = 0; e < BI; e = e + 1) begin : g_in
    assign x[e] = 64'($signed(in_data[e*W+:W])) << (FA - F);
    assign d[e] = dst_rom[XI'(i + IW'(e))];
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

  // Output element o + j: its accumulator and this step's elements, fit into T.
  logic [BO-1:0] sat;
  for (genvar j = 0; j < BO; j = j + 1) begin : g_out
    logic [XO-1:0] oe;
    logic [63:0] v;
    assign oe = XO'(o + OW'(j));
    always_comb begin
      v = acc[oe];
      for (int e = 0; e < BI; e = e + 1) if (reads && d[e] == oe) v = v + x[e];
    end
    inrarch_fit #(.W(W), .F(F), .FA(FA)) u_fit (.x(v), .y(out_data[j*W+:W]), .ovf(sat[j]));
  end
  assign out_data[BO*W] = sticky || (reads && in_data[BI*W]) || |sat;

  always_ff @(posedge clk) begin
    if (rst) begin
      started <= 1'b0;
      sticky <= 1'b0;
      s <= '0;
      i <= '0;
      o <= '0;
      for (int k = 0; k < OUT_ELEMS; k = k + 1) acc[k] <= '0;
    end else begin
      started <= 1'b1;
      if (fire) begin
        s <= s + 1'b1;
        if (reads) i <= i + IW'(BI);
        if (writes) o <= o + OW'(BO);
        sticky <= sticky || (reads && in_data[BI*W]) || (writes && |sat);
        if (reads)
          for (int e = 0; e < BI; e = e + 1) if (last[e]) acc[d[e]] <= part[e];
      end
    end
  end
endmodule
