// OP 8: exp, 9: tanh, 10: log (scaled1<op, EA, EO>, kOnTrueValues): the operand to its true
// value in T (A, shift by -EA, fit), then fixed_exp_log.h's fx_exp / fx_tanh / fx_log, then
// A, a shift by EO, and fit. T = ap_fixed<W, I> (AP_TRN, AP_WRAP): every store into T
// floors and keeps the low W bits, as the library's conversions do.
//   exp:  t = floor(x * log2e * 2^32) (log2e = 0xB8AA3B295C17F0BC * 2^-63), k = t >> 32,
//         2^frac from EXP_TABLE (1025 words, Q.32) interpolated with t's low 22 bits (yi,
//         scale 2^-54, below 2^56), floored into T: yi >> (54 - F - k); k >= I - 1
//         saturates to the largest value and sets ovf.
//   tanh: the same 2^t of t = floor(-|x| * 2 log2e * 2^32), as e = yi >> (22 - k) with 32
//         fraction bits, then q = floor((1 - e) * 2^64 / (1 + e)) (the ap_fixed division:
//         q < 2^32), stored in T and negated for x < 0.
//   log:  x <= 0 gives the least value; otherwise (p - F) ln2 + ln(1 + u) (p the leading
//         one, u the 32 bits below it) with ln(1 + u) from LOG_TABLE, scale 2^-54.
//
// Pipelined for 300 MHz (docs/rtl.md, "Pipelined lanes"): register stages on `en`, each at
// most a DSP48E2's multiply, two carry-save levels, a 36-bit carry chain or two LUT levels;
// the kernel's result register makes D = 21 (exp), 20 (log), 56 (tanh): elementwise.def.
//    1 operand   2 the input fit's flags   3 x, its true value in T
//   exp, tanh:  4 m = x, or -|x| for tanh (one chain)   5 m · log2e's 27 x 18 tiles (6 DSPs,
//      3 at W <= 18)   6 two carry-save levels   7 the third: two vectors   8 their sum in
//      chains: the carry from the bits below t, t's halves for either carry in   9 t
//   log:  4 each nibble's leading zeros   5 each half's   6 the leading zeros L of the
//      operand's magnitude bits   7-9 the normalizing shift by L (16s, 4s, 1s): the 32 bits
//      below the leading one
//   10 the table index, the next one; exp and tanh: k's range and the final shift n
//   11 the two entries (a block RAM's registered read)   12 entry 1024 where indexed
//   13 the slope y1 - y0   14 the slope times t's low 22 bits (2 DSPs); log: (p - F) ln 2,
//      a 32-word table of L   15 carry-save: y0 · 2^22, the two tiles (and log's term)
//   16 the sum's low half, its high half for either carry in   17 the sum
//   exp:  18 the shift by n's multiples of 8   19 the rest, or saturation   20 the output
//         fit's flags
//   log:  18 the sum floored into T, or the least value   19 the output fit's flags
//   tanh: 18-19 e by the shift   20 1 - e, 1 + e   21-52 the quotient, non-restoring, a bit
//         a stage   53 q in T, ones' complemented for x < 0   54 the carry in   55 the
//         output fit's flags
// A deeper D delays the result by the difference. The tables hold entries 0 .. 1023 (a
// block RAM's depth); entry 1024 (2.0 for exp2, ln 2 for log1p, in Q.32) is the constant
// LAST. Bits that only pass on are registers marked `keep` where logic reads them, as in
// the sine lane.
module inrarch_lane_explog #(
    parameter int OP = 8,
    parameter int W  = 32,
    parameter int F  = 22,
    parameter int FA = 36,
    parameter int EA = 0,
    parameter int EO = 0,
    parameter int D  = 21,
    parameter EXP_TABLE = "inrarch_exp2_rom.hex",
    parameter LOG_TABLE = "inrarch_log1p_rom.hex"
) (
    input  logic         clk,
    input  logic         en,
    input  logic [W-1:0] a,
    output logic [W-1:0] y,
    output logic         ovf
);
  // The lane codes (the OP column of src/dataflow/elementwise.def; a test checks them).
  /* verilator lint_off UNUSEDPARAM */
  localparam int OP_EXP = 8, OP_TANH = 9, OP_LOG = 10;
  /* verilator lint_on UNUSEDPARAM */
  localparam int OWN = OP == OP_TANH ? 56 : OP == OP_EXP ? 21 : 20;
  initial if (D < OWN) $fatal(1, "inrarch_lane_explog: depth %0d is below the lane's %0d stages", D, OWN);
  localparam logic [33:0] LAST = OP == OP_LOG ? 34'h0_B172_17F8 : 34'h2_0000_0000;  // entry 1024

  // 1-3: the operand, its true value in T.
  logic [W-1:0] a1, x, x0;
  logic [63:0] xa;
  logic ovf_in, ovf3;
  always_ff @(posedge clk) if (en) a1 <= a;
  inrarch_shift #(.S(FA - F - EA)) u_in (.x(64'($signed(a1))), .y(xa));
  inrarch_fit_stage #(.W(W), .F(F), .FA(FA)) u_fit_in (.clk, .en, .x(xa), .sat(1'b0), .y(x0), .ovf(ovf_in));
  always_ff @(posedge clk) if (en) {ovf3, x} <= {ovf_in, x0};
  logic x_ovf_end;  // the input fit's flag at the last stage, a flip-flop: the flags' OR follows
  inrarch_delay #(.WIDTH(1), .N(OWN - 4), .LAST_FF(1'b1)) u_ovf (.clk, .en, .x(ovf3), .y(x_ovf_end));

  // 4-9: the table argument arg (index and interpolation bits); exp and tanh also k.
  logic [31:0] arg9;
  logic signed [31:0] k9;
  /* verilator lint_off UNUSEDSIGNAL */
  logic [4:0] lz6;  // log: the leading zeros L, at stage 6
  /* verilator lint_on UNUSEDSIGNAL */
  if (OP == OP_LOG) begin : g_arg_log
    inrarch_explog_norm #(.W(W)) u_norm (.clk, .en, .x, .lz(lz6), .arg(arg9));
    assign k9 = '0;
  end else begin : g_arg_exp
    inrarch_explog_t #(.W(W), .SH(OP == OP_TANH ? F + 30 : F + 31), .TANH(OP == OP_TANH))
        u_t (.clk, .en, .x, .t({k9, arg9}));
    assign lz6 = '0;
  end

  // 10: the table index and the next one; exp: saturation (k >= I - 1) and zero (the shift
  // n = 54 - F - k at 56 or more); tanh: zero (n = 22 - k at 56 or more; t <= 0, so k <= 0:
  // t's 64 bits hold the product's I + 36 whole bits).
  initial if (OP == OP_TANH && W - F > 28) $fatal(1, "inrarch_lane_explog: tanh takes at most 28 integer bits");
  logic [9:0] idx, idx1;
  logic [21:0] lo10;
  logic top10;
  /* verilator lint_off UNUSEDSIGNAL */
  logic sat10, zero10;  // exp's and tanh's: log reads neither
  logic [5:0] n10;
  /* verilator lint_on UNUSEDSIGNAL */
  always_ff @(posedge clk)
    if (en) begin
      {idx, lo10} <= arg9;
      idx1 <= arg9[31:22] + 10'd1;
      top10 <= &arg9[31:22];
      sat10 <= OP == OP_EXP && k9 >= 32'(W - F - 1);
      zero10 <= OP == OP_EXP ? k9 <= 32'(-2 - F) : k9 < -32'sd33;
      n10 <= OP == OP_EXP ? 6'(54 - F) - 6'(k9) : 6'd22 - 6'(k9);
    end

  // 11-12: the two entries, read in registers (a block RAM of 1,024 words; entry 1024 is LAST).
  logic [33:0] rom[1024];
  // (Not one $readmemh of a ?: between the names: Icarus pads the shorter string with
  // NULs, and the file name is then not a valid string.)
  if (OP == OP_LOG) begin : g_log_rom
    initial $readmemh(LOG_TABLE, rom);
  end else begin : g_exp_rom
    initial $readmemh(EXP_TABLE, rom);
  end
  logic [33:0] q0, q1, y0, y1, y0_13, y0_14;
  logic [21:0] lo11, lo12, lo13;
  logic top11;
  always_ff @(posedge clk)
    if (en) begin
      q0 <= rom[idx];
      q1 <= rom[idx1];
    end
  (* keep *) always_ff @(posedge clk) if (en) {top11, lo11} <= {top10, lo10};
  always_ff @(posedge clk)
    if (en) begin
      y0 <= q0;
      y1 <= top11 ? LAST : q1;
    end
  (* keep *) always_ff @(posedge clk) if (en) lo12 <= lo11;

  // 13-14: the slope y1 - y0 (35 bits, signed), times lo in two tiles (its low 17 bits
  // unsigned, its high 18 signed).
  logic signed [34:0] dy;
  logic [38:0] m_lo;
  logic signed [40:0] m_hi;
  always_ff @(posedge clk) if (en) dy <= $signed({1'b0, y1}) - $signed({1'b0, y0});
  (* keep *) always_ff @(posedge clk) if (en) {y0_13, lo13} <= {y0, lo12};
  always_ff @(posedge clk)
    if (en) begin
      m_lo <= 39'({1'b0, dy[16:0]} * {1'b0, lo13});
      m_hi <= $signed(dy[34:17]) * $signed({1'b0, lo13});
    end
  (* keep *) always_ff @(posedge clk) if (en) y0_14 <= y0_13;

  // 15-17: yi = y0 · 2^22 + m_lo + m_hi · 2^17 (+ log's (p - F) ln 2), modulo 2^64: one or
  // two carry-save levels, then the sum in two halves.
  logic [63:0] term3;  // log's (p - F) ln 2 in Q.54; 0 for exp and tanh
  if (OP == OP_LOG) begin : g_term_log
    logic [4:0] lz13;
    logic [63:0] cp[32];
    inrarch_delay #(.WIDTH(5), .N(7), .LAST_FF(1'b1)) u_lz (.clk, .en, .x(lz6), .y(lz13));
    for (genvar l = 0; l < 32; l = l + 1) begin : g_cp
      localparam int PF = W - 2 - l - F;  // p - F, p = W - 2 - L
      assign cp[l] = 64'(64'(PF) * 64'sd12486629536330718);
    end
    always_ff @(posedge clk) if (en) term3 <= cp[lz13];
  end else begin : g_term_none
    assign term3 = '0;
  end
  logic [63:0] rs, rc, ta, tb, tc, s1, c1;
  assign {ta, tb, tc} = {64'(y0_14) << 22, 64'(m_lo), 64'(m_hi) << 17};
  assign s1 = ta ^ tb ^ tc;
  assign c1 = ((ta & tb) | (ta & tc) | (tb & tc)) << 1;
  always_ff @(posedge clk)
    if (en) {rs, rc} <= {s1 ^ c1 ^ term3, ((s1 & c1) | (s1 & term3) | (c1 & term3)) << 1};
  logic [32:0] r_lo;
  logic [31:0] r_hi0, r_hi1, yi_hi;
  /* verilator lint_off UNUSEDSIGNAL */
  logic [32:0] r_hi1w;  // the high half plus one in bits 32 … 1
  /* verilator lint_on UNUSEDSIGNAL */
  // (x + y + 1 as {x, 1} + {y, 1}: its own carry chain, where Yosys would add 1 to x + y.)
  assign r_hi1w = {rs[63:32], 1'b1} + {rc[63:32], 1'b1};
  always_ff @(posedge clk)
    if (en) begin
      r_lo  <= {1'b0, rs[31:0]} + {1'b0, rc[31:0]};
      r_hi0 <= rs[63:32] + rc[63:32];
      r_hi1 <= r_hi1w[32:1];
    end
  logic [31:0] yi_lo;
  always_ff @(posedge clk) if (en) yi_hi <= r_lo[32] ? r_hi1 : r_hi0;
  (* keep *) always_ff @(posedge clk) if (en) yi_lo <= r_lo[31:0];
  /* verilator lint_off UNUSEDSIGNAL */
  logic [63:0] yi;  // below 2^56 but for log's term
  /* verilator lint_on UNUSEDSIGNAL */
  assign yi = {yi_hi, yi_lo};

  // 18 …: the operator's result in T, s, and the flag of exp's saturation, both at the
  // stage before the output fit's.
  logic [W-1:0] s;
  logic s_op_ovf;
  if (OP == OP_LOG) begin : g_log
    // 18: the sum floored into T (its bits from 54 - F up, its sign above bit 63), or the
    // least value for x <= 0 (x's sign and x = 0, from stage 4).
    logic nonpos4, nonpos17;
    /* verilator lint_off UNUSEDSIGNAL */
    logic [63:0] yl;  // its low W bits are T's
    /* verilator lint_on UNUSEDSIGNAL */
    always_ff @(posedge clk) if (en) nonpos4 <= x[W-1] || x == '0;
    inrarch_delay #(.WIDTH(1), .N(13), .LAST_FF(1'b1)) u_np (.clk, .en, .x(nonpos4), .y(nonpos17));
    assign yl = $signed(yi) >>> (54 - F);  // (not inside W'(): Verilator 5.006 would shift in W bits)
    always_ff @(posedge clk) if (en) s <= nonpos17 ? {1'b1, {(W - 1) {1'b0}}} : W'(yl);
    assign s_op_ovf = 1'b0;
  end else begin : g_shifted
    // n, zero and sat from stage 10 to 17.
    logic [5:0] n17;
    logic zero17, sat17;
    inrarch_delay #(.WIDTH(8), .N(7), .LAST_FF(1'b1)) u_n (
        .clk, .en, .x({n10, zero10, sat10}), .y({n17, zero17, sat17}));
    // 18-19: yi >> n, or 0, its low 34 bits (W <= 32 of them for exp; yi < 2^56).
    logic [55:0] ys;
    logic [2:0] n18;
    /* verilator lint_off UNUSEDSIGNAL */
    logic zero18, sat18;  // tanh reads no saturation
    logic [55:0] ysh;     // its low 34 bits
    logic [33:0] sh;      // exp reads its low W bits
    /* verilator lint_on UNUSEDSIGNAL */
    always_ff @(posedge clk) if (en) ys <= yi[55:0] >> {n17[5:3], 3'b000};
    (* keep *) always_ff @(posedge clk) if (en) {n18, zero18, sat18} <= {n17[2:0], zero17, sat17};
    assign ysh = ys >> n18;
    assign sh = ysh[33:0];
    if (OP == OP_EXP) begin : g_exp
      always_ff @(posedge clk)
        if (en) s <= sat18 ? {1'b0, {(W - 1) {1'b1}}} : zero18 ? '0 : W'(sh);
      inrarch_delay #(.WIDTH(1), .N(2), .LAST_FF(1'b1)) u_sat (.clk, .en, .x(sat18), .y(s_op_ovf));
    end else begin : g_tanh
      logic [33:0] e;
      always_ff @(posedge clk) if (en) e <= zero18 ? '0 : sh;
      inrarch_explog_tanh_end #(.W(W), .F(F)) u_end (.clk, .en, .e, .x, .s);
      assign s_op_ovf = 1'b0;
    end
  end

  // The last stage: the output fit's flags on s shifted to the output's exponent.
  logic [63:0] sa;
  logic [W-1:0] yo;
  logic s_ovf;
  inrarch_shift #(.S(FA - F + EO)) u_out (.x(64'($signed(s))), .y(sa));
  inrarch_fit_stage #(.W(W), .F(F), .FA(FA)) u_fit_out (.clk, .en, .x(sa), .sat(1'b0), .y(yo), .ovf(s_ovf));
  inrarch_delay #(.WIDTH(W + 1), .N(D - OWN)) u_pad (
      .clk, .en, .x({x_ovf_end || s_op_ovf || s_ovf, yo}), .y({ovf, y}));
endmodule
