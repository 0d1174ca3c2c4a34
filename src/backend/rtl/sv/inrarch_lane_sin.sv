// OP 6: sin, 7: cos (scaled1<op_sin/op_cos, EA, EO>, kOnTrueValues): the operand to its true
// value in T (A, shift by -EA, fit), then the HLS library's rom_sin/rom_cos (fixed_math.h):
// the phase frac(x / 2π) as 32 bits, x · round(2^65/π) · 2^-66 with the product's bits
// below 2^-32 floored and those above 1 wrapped (cos adds a quarter turn); the top 2 bits
// pick the quadrant, the next 10 index the quarter-wave table (1025 entries, Q1.31),
// the low 20 interpolate; the result, exact with 51 fraction bits, floors into T; then A,
// a shift by EO, and fit.
//
// Pipelined for 300 MHz (docs/rtl.md, "Pipelined lanes"): 17 register stages on `en`, each
// at most a DSP48E2's multiply, two carry-save levels or a 33-bit carry chain; y and ovf are
// those of the operand of 17 fires ago, and the kernel's result register makes D = 18
// (elementwise.def). A deeper D delays the result by the difference.
//    1 operand           2 the input fit's flags    3 x, its true value in T
//    4 x · K's 27 x 18 tiles (inrarch_mul_const_csa: 3 DSPs at W <= 18, 4 at W <= 27, 6), K = round(2^65/π)
//    5 two carry-save levels over the tiles   6 the third: two vectors
//    7 their sum's low bits' carry, in two halves (each for both carries in), and the
//      32 phase bits for both carries      8 the phase, and a quarter turn for cos
//    9 the quadrant folded: the table index, the next one and the interpolation bits
//   10 the two entries (a block RAM's registered read)   11 entry 1024, 1.0, where indexed
//   12 the slope y1 - y0 and y0, negated in the lower half-turn
//   13 the slope times the interpolation bits (1 DSP, the top 3 bits in LUTs)   14 two carry-save levels
//   15 the sum's low 28 bits and carry   16 the rest: ±(y0 · 2^20 + slope)
//   17 the output fit's flags, on the value floored into T and shifted by EO
// Bits that only pass on are registers marked `keep`: as chains of plain flip-flops Yosys
// would make shift-register LUTs of them, and an adder fed by one starts 1.2 ns late.
module inrarch_lane_sin #(
    parameter int OP = 6,
    parameter int W  = 32,
    parameter int F  = 22,
    parameter int FA = 36,
    parameter int EA = 0,
    parameter int EO = 0,
    parameter int D  = 18,
    parameter TABLE  = "inrarch_sin_rom.hex"
) (
    input  logic         clk,
    input  logic         en,
    input  logic [W-1:0] a,
    output logic [W-1:0] y,
    output logic         ovf
);
  // The lane codes (the OP column of src/dataflow/elementwise.def; a test checks them).
  /* verilator lint_off UNUSEDPARAM */
  localparam int OP_SIN = 6, OP_COS = 7;
  /* verilator lint_on UNUSEDPARAM */
  localparam int OWN = 18;
  initial if (D < OWN) $fatal(1, "inrarch_lane_sin: depth %0d is below the lane's %0d stages", D, OWN);
  localparam logic [63:0] K = 64'hA2F9836E4E44152A;  // round(2^65 / π)
  localparam logic [31:0] LAST = 32'h8000_0000;       // entry 1024, sin(π/2) = 1.0 in Q1.31
  localparam int PW = F + 66;                          // the product bits the phase needs
  localparam int LB = F + 34;                          // the phase's lowest bit in it

  // 1-3: the operand, its true value in T.
  logic [W-1:0] a1, x;
  logic [63:0] xa;
  logic [W-1:0] x0;
  logic ovf_in, ovf3;
  always_ff @(posedge clk) if (en) a1 <= a;
  inrarch_shift #(.S(FA - F - EA)) u_in (.x(64'($signed(a1))), .y(xa));
  inrarch_fit_stage #(.W(W), .F(F), .FA(FA)) u_fit_in (.clk, .en, .x(xa), .sat(1'b0), .y(x0), .ovf(ovf_in));
  always_ff @(posedge clk) if (en) {ovf3, x} <= {ovf_in, x0};

  // 4-6: x · K modulo 2^PW (only the product's F + 66 low bits, all the phase needs) as two
  // carry-save vectors: the tiles, then three carry-save levels over two stages.
  logic [PW-1:0] s4, c4;
  inrarch_mul_const_csa #(.W(W), .PW(PW), .K(K)) u_phase (.clk, .en, .x, .s(s4), .c(c4));
  logic ovf17;  // the input's overflow flag at stage 17, in a flip-flop: the kernel's flag logic follows
  inrarch_delay #(.WIDTH(1), .N(14), .LAST_FF(1'b1)) u_ovf (.clk, .en, .x(ovf3), .y(ovf17));

  // 7: s4 + c4: the carry into bit LB, from two halves of the bits below (the upper half for
  // either carry in), and the 32 phase bits for either carry into them.
  localparam int HA = LB / 2, HB = LB - HA;
  // (x + y + 1 as {x, 1} + {y, 1} in bits 1 …: its own carry chain, where Yosys would add 1
  // to the shared x + y, a second chain after the first.)
  logic ca, cb0, cb1;
  logic [31:0] p0;
  /* verilator lint_off UNUSEDSIGNAL */
  logic [32:0] p1;  // the sum plus one in bits 32 … 1
  /* verilator lint_on UNUSEDSIGNAL */
  always_ff @(posedge clk)
    if (en) begin
      ca  <= 1'((({1'b0, s4[HA-1:0]}) + {1'b0, c4[HA-1:0]}) >> HA);
      cb0 <= 1'((({1'b0, s4[LB-1:HA]}) + {1'b0, c4[LB-1:HA]}) >> HB);
      cb1 <= 1'((({1'b0, s4[LB-1:HA], 1'b1}) + {1'b0, c4[LB-1:HA], 1'b1}) >> (HB + 1));
      p0  <= s4[PW-1:LB] + c4[PW-1:LB];
      p1  <= {s4[PW-1:LB], 1'b1} + {c4[PW-1:LB], 1'b1};
    end
  // 8: the phase (a quarter turn on for cos: its top two bits plus one).
  logic [31:0] pc, phase;
  assign pc = (ca ? cb1 : cb0) ? p1[32:1] : p0;
  always_ff @(posedge clk) if (en) phase <= OP == OP_COS ? {pc[31:30] + 2'd1, pc[29:0]} : pc;

  // 9: the quadrant folded, u = phase[30] ? 2^30 - u0 : u0 as (u0 ^ q) + q, and u + 2^20, whose
  // index is the next entry (1025 past the end reads as entry 1024 too: its top bit is set).
  logic q;
  logic [30:0] uf, u;
  /* verilator lint_off UNUSEDSIGNAL */
  logic [30:0] u1;  // its index bits only
  /* verilator lint_on UNUSEDSIGNAL */
  assign q  = phase[30];
  assign uf = {1'b0, phase[29:0] ^ {30{q}}};
  logic [10:0] idx, idx1;
  logic [19:0] lo9;
  logic neg9;
  assign u  = uf + 31'(q);
  assign u1 = uf + (31'(1 << 20) | 31'(q));  // one carry chain: q and 2^20 are one operand
  always_ff @(posedge clk) if (en) {idx, idx1, lo9, neg9} <= {u[30:20], u1[30:20], u[19:0], phase[31]};

  // 10-11: the two entries, read in registers (a block RAM of 1,024 words; entry 1024 is LAST).
  logic [31:0] rom[1024];
  initial $readmemh(TABLE, rom);
  logic [31:0] q0, q1, y0, y1;
  logic top0, top1, neg10, neg11;
  logic [19:0] lo10, lo11;
  always_ff @(posedge clk)
    if (en) begin
      q0 <= rom[idx[9:0]];
      q1 <= rom[idx1[9:0]];
    end
  (* keep *) always_ff @(posedge clk)
    if (en) {top0, top1, neg10, lo10, neg11, lo11} <= {idx[10], idx1[10], neg9, lo9, neg10, lo10};
  always_ff @(posedge clk)
    if (en) begin
      y0 <= top0 ? LAST : q0;
      y1 <= top1 ? LAST : q1;
    end

  // 12: the slope and y0, both negated in the lower half-turn, so that the sum is ±raw.
  logic signed [22:0] dy;  // 23 bits suffice (13, below)
  logic signed [32:0] y0n;
  logic [19:0] lo12;
  always_ff @(posedge clk)
    if (en) begin
      // One carry chain each (the operands swapped, y0 ^ neg + neg), not two and a select.
      dy  <= 23'($signed({1'b0, neg11 ? y0 : y1}) - $signed({1'b0, neg11 ? y1 : y0}));
      y0n <= $signed({1'b0, y0} ^ {33{neg11}}) + $signed({32'd0, neg11});
    end
  // 13: dy · lo. Neighbouring entries differ by less than 2^22 (sin's slope is at most 1: by
  // (π/2) / 1024 · 2^31 < 3.3 · 10^6, a test checks the table), so dy is 23 bits signed: dy ·
  // lo's low 17 bits is one DSP48E2 (27 x 18); dy · its top 3 bits is two masked terms in
  // LUTs, bits 17 and 18 summed here (one carry chain), bit 19's alone.
  logic signed [40:0] m_lo;
  logic signed [24:0] m_01, m_2;
  logic signed [32:0] y0n13;
  always_ff @(posedge clk)
    if (en) begin
      m_lo <= dy * $signed({1'b0, lo12[16:0]});
      m_01 <= (lo12[17] ? 25'(dy) : 25'd0) + (lo12[18] ? 25'(dy) << 1 : 25'd0);
      m_2  <= lo12[19] ? 25'(dy) << 2 : 25'd0;
    end
  (* keep *) always_ff @(posedge clk) if (en) {lo12, y0n13} <= {lo11, y0n};

  // 14-16: raw = y0n · 2^20 + m_lo + (m_01 + m_2) · 2^17 (|raw| < 2^52), two carry-save
  // levels, then the sum in two halves.
  localparam int RW = 56, RL = 28;
  function automatic logic [2*RW-1:0] carry_save(input logic [RW-1:0] t0, input logic [RW-1:0] t1, input logic [RW-1:0] t2);
    carry_save = {t0 ^ t1 ^ t2, ((t0 & t1) | (t0 & t2) | (t1 & t2)) << 1};
  endfunction
  logic [RW-1:0] rs, rc, ss, sc;
  assign {ss, sc} = carry_save(RW'(y0n13) << 20, RW'(m_lo), RW'(m_01) << 17);
  always_ff @(posedge clk) if (en) {rs, rc} <= carry_save(ss, sc, RW'(m_2) << 17);
  logic [RL:0] r_lo;
  logic [RW-RL-1:0] rs_hi, rc_hi;
  always_ff @(posedge clk) if (en) r_lo <= {1'b0, rs[RL-1:0]} + {1'b0, rc[RL-1:0]};
  (* keep *) always_ff @(posedge clk) if (en) {rs_hi, rc_hi} <= {rs[RW-1:RL], rc[RW-1:RL]};
  logic [RW-RL-1:0] raw_hi;
  logic [RL-1:0] raw_lo;
  always_ff @(posedge clk) if (en) raw_hi <= rs_hi + rc_hi + (RW - RL)'(r_lo[RL]);
  (* keep *) always_ff @(posedge clk) if (en) raw_lo <= r_lo[RL-1:0];

  // 17: floored into T, shifted by EO, the output fit's flags; the select follows.
  logic [W-1:0] s, y17;
  logic [63:0] sa;
  logic ovf_out;
  assign s = W'($signed(64'($signed({raw_hi, raw_lo}))) >>> (51 - F));
  inrarch_shift #(.S(FA - F + EO)) u_out (.x(64'($signed(s))), .y(sa));
  inrarch_fit_stage #(.W(W), .F(F), .FA(FA)) u_fit_out (.clk, .en, .x(sa), .sat(1'b0), .y(y17), .ovf(ovf_out));
  inrarch_delay #(.WIDTH(W + 1), .N(D - OWN)) u_pad (.clk, .en, .x({ovf17 || ovf_out, y17}), .y({ovf, y}));
endmodule
