// OP 8: exp, 9: tanh, 10: log (scaled1<op, EA, EO>, kOnTrueValues): the operand to its true
// value in T (A, shift by -EA, fit), then fixed_exp_log.h's fx_exp / fx_tanh / fx_log, then
// A, a shift by EO, and fit. T = ap_fixed<W, I> (AP_TRN, AP_WRAP): every store into T
// floors and keeps the low W bits, as the library's conversions do.
//   exp:  t = floor(x * log2e * 2^32) (log2e = 0xB8AA3B295C17F0BC * 2^-63), k = t >> 32,
//         2^frac from EXP_TABLE (1025 words, Q.32) interpolated with t's low 22 bits (scale
//         2^-54); k >= I - 1 saturates to the largest value and sets ovf.
//   tanh: the same 2^t of t = floor(-|x| * 2 log2e * 2^32), as e with 32 fraction bits,
//         then q = floor((1 - e) * 2^64 / (1 + e)) (the ap_fixed division: a combinational
//         65 / 34-bit divider), stored in T and negated for x < 0.
//   log:  x <= 0 gives the least value; otherwise (p - F) ln2 + ln(1 + u) (p the leading
//         one, u the 32 bits below it) with ln(1 + u) from LOG_TABLE, scale 2^-54.
module inrarch_lane_explog #(
    parameter int OP = 8,
    parameter int W  = 32,
    parameter int F  = 22,
    parameter int FA = 36,
    parameter int EA = 0,
    parameter int EO = 0,
    parameter EXP_TABLE = "inrarch_exp2_rom.hex",
    parameter LOG_TABLE = "inrarch_log1p_rom.hex"
) (
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
  logic [33:0] rom[1025];
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
  logic [W-1:0] x;
  logic x_ovf;
  inrarch_shift #(.S(FA - F - EA)) u_in (.x(64'($signed(a))), .y(xa));
  inrarch_fit #(.W(W), .F(F), .FA(FA)) u_fit_in (.x(xa), .y(x), .ovf(x_ovf));

  logic [W-1:0] s;  // the operator's result in T
  logic s_op_ovf;   // exp saturated
  if (OP == OP_LOG) begin : g_log
    // The leading one p of x (a priority encoder), the 32 bits below it, the table.
    logic [5:0] p;
    logic [31:0] u;
    logic signed [63:0] yi, raw;
    always_comb begin
      p = '0;
      for (int b = 0; b < W - 1; b = b + 1) if (x[b]) p = 6'(b);
    end
    assign u   = 32'(sra(64'(x) << (6'd63 - p), 64'd31));  // the 32 bits below the leading one
    assign yi  = (64'(rom[11'(u[31:22])]) << 22) + (64'(rom[11'(u[31:22]) + 11'd1]) - 64'(rom[11'(u[31:22])])) * 64'(u[21:0]);
    assign raw = (64'(p) - 64'(F)) * 64'sd12486629536330718 + yi;
    assign s   = x[W-1] || x == '0 ? {1'b1, {(W - 1) {1'b0}}} : W'(sra(raw, 64'(LOG_SH)));
    assign s_op_ovf = 1'b0;
  end else begin : g_exp2
    // m * LOG2E * 2^-(F+63), floored to 32 fraction bits: t = k + frac (k = floor).
    localparam int SH = OP == OP_TANH ? F + 30 : F + 31;  // tanh: twice log2e
    logic [W-1:0] m;
    logic [W+64:0] prod;
    logic signed [63:0] t, yi;
    logic [31:0] u;
    assign m    = OP == OP_TANH && !x[W-1] ? -x : x;  // tanh: -|x|, which fits for every x
    assign prod = (W + 65)'($signed(m)) * (W + 65)'(LOG2E);
    assign t    = 64'($signed(prod) >>> SH);  // SH < 64
    assign u    = t[31:0];
    assign yi   = (64'(rom[11'(u[31:22])]) << 22) + (64'(rom[11'(u[31:22]) + 11'd1]) - 64'(rom[11'(u[31:22])])) * 64'(u[21:0]);
    if (OP == OP_TANH) begin : g_tanh
      // e = 2^t with 32 fraction bits (t <= 0), then (1 - e) / (1 + e), floored to 32 bits.
      logic signed [63:0] sh;
      logic [33:0] e;  // at most 1.0
      logic [31:0] onem;  // 1 - e below 1.0 (0 for e = 1)
      logic [63:0] num, den, q;
      logic [W-1:0] mq;
      assign sh  = 64'sd22 - (t >>> 32);
      assign e   = sh < 64'sd63 ? 34'(sra(yi, sh)) : '0;
      assign onem = -e[31:0];
      assign num = {onem[31:0], 32'b0};  // (1 - e) * 2^64, but 0 for e = 0 (then q = 1.0)
      assign den = {30'b0, e} + 64'h1_0000_0000;
      assign q   = e == '0 ? 64'h1_0000_0000 : num / den;
      assign mq  = W'(sra(q, 64'(TANH_SH)));
      assign s   = x[W-1] ? -mq : mq;
      assign s_op_ovf = 1'b0;
    end else begin : g_exp
      logic signed [63:0] k, sh, raw;
      assign k   = t >>> 32;
      assign sh  = 64'sd54 - 64'(FR) - k;
      assign raw = sh < 0 ? yi << -sh : sh < 64'sd63 ? sra(yi, sh) : '0;
      assign s_op_ovf = k >= 64'(I) - 64'sd1;
      assign s   = s_op_ovf ? {1'b0, {(W - 1) {1'b1}}} : W'(sra(raw, 64'(EXP_SH)));
    end
  end

  // To the output's exponent.
  logic [63:0] sa;
  logic s_ovf;
  inrarch_shift #(.S(FA - F + EO)) u_out (.x(64'($signed(s))), .y(sa));
  inrarch_fit #(.W(W), .F(F), .FA(FA)) u_fit_out (.x(sa), .y(y), .ovf(s_ovf));
  assign ovf = x_ovf || s_op_ovf || s_ovf;
endmodule
