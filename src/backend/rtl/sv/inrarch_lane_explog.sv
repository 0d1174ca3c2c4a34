// OP 8: exp, 9: tanh, 10: log (scaled1<op, EA, EO>, kOnTrueValues): the operand to its true
// value in T (A, shift by -EA, fit), then fixed_exp_log.h's fx_exp / fx_tanh / fx_log, then
// A, a shift by EO, and fit. T = ap_fixed<W, I> (AP_TRN, AP_WRAP): every store into T
// floors and keeps the low W bits, as the library's conversions do.
//   exp:  t = floor(x * log2e * 2^32) (log2e = 0xB8AA3B295C17F0BC * 2^-63), k = t >> 32,
//         2^frac from EXP_TABLE (1025 words, Q.32) interpolated with t's low 22 bits (scale
//         2^-54); k >= I - 1 saturates to the largest value and sets ovf.
//   tanh: the same 2^t of t = floor(-|x| * 2 log2e * 2^32), as e with 32 fraction bits,
//         then q = floor((1 - e) * 2^64 / (1 + e)) (the ap_fixed division: q < 2^32, a
//         restoring division of 32 stages), stored in T and negated for x < 0.
//   log:  x <= 0 gives the least value; otherwise (p - F) ln2 + ln(1 + u) (p the leading
//         one, u the 32 bits below it) with ln(1 + u) from LOG_TABLE, scale 2^-54.
//
// Pipelined (docs/rtl.md, "Pipelined lanes"): the kernel's depth D (elementwise.def: 5 for exp
// and log, 22 for tanh) leaves D - 1 register stages to the lane, taking their input on `en`.
// Cuts: after the input fit (0), the table argument (1: exp/tanh's product by log2e, log's
// leading one), the table read (2, registered: a block RAM) and the interpolation (3); tanh
// then cuts after its quotient's operands (4) and spreads the rest over the division's 32
// stages, at most two between registers. exp and log end in one combinational stage, tanh
// in the quotient's scaling; then the output shift and fit. A smaller D leaves the later
// cuts as wires (D = 1: combinational). The tables hold entries 0 .. 1023 (a block RAM's
// depth); entry 1024 (2.0 for exp2, ln 2 for log1p, in Q.32) is the constant LAST.
module inrarch_lane_explog #(
    parameter int OP = 8,
    parameter int W  = 32,
    parameter int F  = 22,
    parameter int FA = 36,
    parameter int EA = 0,
    parameter int EO = 0,
    parameter int D  = 1,
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
  localparam int I = W - F;
  localparam int FR = F + 8 < 63 - I ? F + 8 : 63 - I;  // exp's fraction bits before T
  localparam int EXP_SH = FR - F, TANH_SH = 32 - F, LOG_SH = 54 - F;
  localparam logic [64:0] LOG2E = 65'h0B8AA3B295C17F0BC;
  localparam logic [33:0] LAST = OP == OP_LOG ? 34'h0_B172_17F8 : 34'h2_0000_0000;  // entry 1024
  localparam int G = D - 1;  // the lane's register stages
  localparam int NQ = 32;    // tanh's quotient bits
  localparam int GQ = OP == OP_TANH && G > 5 ? G - 5 : 0;  // registers among the division's stages
  localparam int NR_END = OP != OP_TANH && G > 4 ? G - 4 : 0;  // exp, log: the rest at the end
  logic [33:0] rom[1024];
  // (Not one $readmemh of a ?: between the names: Icarus pads the shorter string with
  // NULs, and the file name is then not a valid string.)
  if (OP == OP_LOG) begin : g_log_rom
    initial $readmemh(LOG_TABLE, rom);
  end else begin : g_exp_rom
    initial $readmemh(EXP_TABLE, rom);
  end
  // v >>> n in 64 bits. Every shift that a narrowing cast takes goes through it: Verilator
  // 5.006 sizes a shift inside a cast to the cast's width, and an amount that reaches that
  // width gives 0 (a tanh of 6.4 came out as exactly 1).
  function automatic logic [63:0] sra(input logic [63:0] v, input logic [63:0] n);
    sra = $signed(v) >>> n;
  endfunction

  // The operand's true value in T.
  logic [63:0] xa;
  logic [W-1:0] x0, x;
  logic x_ovf0, x_ovf1;
  inrarch_shift #(.S(FA - F - EA)) u_in (.x(64'($signed(a))), .y(xa));
  inrarch_fit #(.W(W), .F(F), .FA(FA)) u_fit_in (.x(xa), .y(x0), .ovf(x_ovf0));
  inrarch_delay #(.WIDTH(W + 1), .N(G > 0 ? 1 : 0)) u_cut0 (.clk, .en, .x({x_ovf0, x0}), .y({x_ovf1, x}));

  // The table argument: exp/tanh t = m * LOG2E * 2^-(F+63) floored to 32 fraction bits (t =
  // k + frac, its low 32 bits index and interpolate); log: the leading one p of x and the 32
  // bits below it.
  logic signed [63:0] t0;
  logic [5:0] p0;
  logic [31:0] arg0;
  if (OP == OP_LOG) begin : g_arg_log
    always_comb begin
      p0 = '0;
      for (int b = 0; b < W - 1; b = b + 1) if (x[b]) p0 = 6'(b);
    end
    assign arg0 = 32'(sra(64'(x) << (6'd63 - p0), 64'd31));
    assign t0 = '0;
  end else begin : g_arg_exp
    localparam int SH = OP == OP_TANH ? F + 30 : F + 31;  // tanh: twice log2e
    logic [W-1:0] m;
    logic signed [W+65:0] prod;  // exact: a W-bit signed operand times 66 bits
    assign m    = OP == OP_TANH && !x[W-1] ? -x : x;  // tanh: -|x|, which fits for every x
    assign prod = $signed(m) * $signed({1'b0, LOG2E});
    assign t0   = 64'(prod >>> SH);  // SH < 64
    assign arg0 = t0[31:0];
    assign p0   = '0;
  end
  logic signed [63:0] t;
  logic [5:0] p;
  logic [31:0] arg;
  logic x_ovf2, xneg2, xzero2;
  inrarch_delay #(.WIDTH(105), .N(G > 1 ? 1 : 0)) u_cut1 (
      .clk, .en, .x({x_ovf1, x[W-1], x == '0, t0, p0, arg0}), .y({x_ovf2, xneg2, xzero2, t, p, arg}));

  // The two neighbouring entries, read in the cut's register (a registered read: a block
  // RAM) or as wires; entry 1024 is LAST.
  logic [9:0] idx, idx1;
  logic [33:0] q0, q1, y0, y1;
  assign idx  = arg[31:22];
  assign idx1 = idx + 10'd1;
  if (G > 2) begin : g_read_reg
    always_ff @(posedge clk) begin
      if (en) begin
        q0 <= rom[idx];
        q1 <= rom[idx1];
      end
    end
  end else begin : g_read_comb
    assign q0 = rom[idx];
    assign q1 = rom[idx1];
  end
  logic signed [63:0] t3;
  logic [5:0] p3;
  logic [21:0] lo;
  logic x_ovf3, xneg3, xzero3, top;
  inrarch_delay #(.WIDTH(96), .N(G > 2 ? 1 : 0)) u_cut2 (
      .clk, .en, .x({x_ovf2, xneg2, xzero2, t, p, arg[21:0], idx == 10'd1023}),
      .y({x_ovf3, xneg3, xzero3, t3, p3, lo, top}));
  assign y0 = q0;
  assign y1 = top ? LAST : q1;

  // The interpolation: (y0 << 22) + (y1 - y0) * lo, scale 2^-54 (exact: a 35 x 23-bit slope).
  logic signed [34:0] dy;
  logic signed [57:0] slope;
  logic signed [63:0] yi0, yi;
  // What the last stage may need; each op reads its own (exp: t; log: p, the sign, zero;
  // tanh: t, the sign).
  /* verilator lint_off UNUSEDSIGNAL */
  logic signed [63:0] t4;
  logic [5:0] p4;
  logic xneg4, xzero4;
  /* verilator lint_on UNUSEDSIGNAL */
  logic x_ovf4;
  assign dy    = $signed({1'b0, y1}) - $signed({1'b0, y0});
  assign slope = dy * $signed({1'b0, lo});
  assign yi0   = (64'(y0) << 22) + 64'(slope);
  inrarch_delay #(.WIDTH(137), .N(G > 3 ? 1 : 0)) u_cut3 (
      .clk, .en, .x({x_ovf3, xneg3, xzero3, t3, p3, yi0}), .y({x_ovf4, xneg4, xzero4, t4, p4, yi}));

  logic [W-1:0] s;  // the operator's result in T
  logic s_op_ovf;   // exp saturated
  logic x_ovf_end;  // the input fit's flag, at the result
  if (OP == OP_LOG) begin : g_log
    logic signed [63:0] raw;
    logic [W-1:0] s0;
    assign raw = (64'(p4) - 64'(F)) * 64'sd12486629536330718 + yi;
    assign s0  = xneg4 || xzero4 ? {1'b1, {(W - 1) {1'b0}}} : W'(sra(raw, 64'(LOG_SH)));
    inrarch_delay #(.WIDTH(W + 1), .N(NR_END)) u_end (.clk, .en, .x({x_ovf4, s0}), .y({x_ovf_end, s}));
    assign s_op_ovf = 1'b0;
  end else if (OP == OP_TANH) begin : g_tanh
    // e = 2^t with 32 fraction bits (t <= 0), then (1 - e) / (1 + e), floored to 32 bits:
    // q = floor(onem * 2^32 / den), onem = 1 - e < den = 1 + e, so q < 2^32.
    logic signed [63:0] sh;
    logic [33:0] e;  // at most 1.0
    logic [31:0] onem0, onem;  // 1 - e below 1.0 (0 for e = 1)
    logic [33:0] den0, den;
    logic x_ovf5, xneg5, e_zero;
    assign sh    = 64'sd22 - (t4 >>> 32);
    assign e     = sh < 64'sd63 ? 34'(sra(yi, sh)) : '0;
    assign onem0 = -e[31:0];
    assign den0  = e + 34'h1_0000_0000;
    inrarch_delay #(.WIDTH(69), .N(G > 4 ? 1 : 0)) u_cut4 (
        .clk, .en, .x({x_ovf4, xneg4, e == '0, onem0, den0}), .y({x_ovf5, xneg5, e_zero, onem, den}));
    // Restoring division, a quotient bit a stage: the remainder r < den doubles (the
    // dividend's low 32 bits are zeros) and den is subtracted when it can be.
    localparam int SW = 3 + 34 + 34 + NQ;  // {x_ovf, xneg, e_zero, den, r, q}
    logic [(NQ+1)*SW-1:0] st;
    assign st[0+:SW] = {x_ovf5, xneg5, e_zero, den, 2'b00, onem, NQ'(0)};
    for (genvar k = 0; k < NQ; k = k + 1) begin : g_stage
      localparam int NR = ((k + 1) * GQ) / NQ - (k * GQ) / NQ;
      logic [SW-1:0] s_in;
      logic [33:0] dk, r;
      /* verilator lint_off UNUSEDSIGNAL */
      logic [NQ-1:0] q;  // its top bit leaves as the next comes in
      /* verilator lint_on UNUSEDSIGNAL */
      logic [34:0] r2;
      logic ge;
      assign s_in = st[k*SW+:SW];
      assign {dk, r, q} = s_in[SW-4:0];
      assign r2 = {r, 1'b0};
      assign ge = r2 >= {1'b0, dk};
      inrarch_delay #(.WIDTH(SW), .N(NR)) u_reg (
          .clk, .en, .x({s_in[SW-1:SW-3], dk, ge ? 34'(r2 - {1'b0, dk}) : 34'(r2), {q[NQ-2:0], ge}}),
          .y(st[(k+1)*SW+:SW]));
    end
    /* verilator lint_off UNUSEDSIGNAL */
    logic [SW-1:0] last;  // its divisor and remainder are spent
    /* verilator lint_on UNUSEDSIGNAL */
    logic [63:0] qv;
    logic [W-1:0] mq;
    logic xneg_end, e_zero_end;
    assign last = st[NQ*SW+:SW];
    assign {x_ovf_end, xneg_end, e_zero_end} = last[SW-1:SW-3];
    assign qv = e_zero_end ? 64'h1_0000_0000 : 64'(last[NQ-1:0]);
    assign mq = W'(sra(qv, 64'(TANH_SH)));
    assign s  = xneg_end ? -mq : mq;
    assign s_op_ovf = 1'b0;
  end else begin : g_exp
    logic signed [63:0] k, sh, raw;
    logic [W-1:0] s0;
    logic sat;
    assign k   = t4 >>> 32;
    assign sh  = 64'sd54 - 64'(FR) - k;
    assign raw = sh < 0 ? yi << -sh : sh < 64'sd63 ? sra(yi, sh) : '0;
    assign sat = k >= 64'(I) - 64'sd1;
    assign s0  = sat ? {1'b0, {(W - 1) {1'b1}}} : W'(sra(raw, 64'(EXP_SH)));
    inrarch_delay #(.WIDTH(W + 2), .N(NR_END)) u_end (.clk, .en, .x({x_ovf4, sat, s0}), .y({x_ovf_end, s_op_ovf, s}));
  end

  // To the output's exponent.
  logic [63:0] sa;
  logic s_ovf;
  inrarch_shift #(.S(FA - F + EO)) u_out (.x(64'($signed(s))), .y(sa));
  inrarch_fit #(.W(W), .F(F), .FA(FA)) u_fit_out (.x(sa), .y(y), .ovf(s_ovf));
  assign ovf = x_ovf_end || s_op_ovf || s_ovf;
endmodule
