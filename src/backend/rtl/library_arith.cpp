// The RTL kernel library, part: The elementwise modules: kernels and their fixed-point lanes (the HLS library's scaled operators).
// Each module is one file of OUT/rtl (Verilator wants a module's file named after it);
// flat ports and SystemVerilog that Verilator 5.006, Icarus 11 and Yosys 0.23 all accept.
#include "backend/rtl/rtl_detail.h"

namespace inrarch::rtl::detail {

std::vector<SvFile> library_arith_files() {
  return {
      {"inrarch_ew1.sv", R"sv(// An elementwise unary kernel (neg, relu, step; sin, cos, exp, tanh, log from tables; sqrt by a
// digit recurrence) on one streamed operand. Otherwise as inrarch_ew2.
module inrarch_ew1 #(
    parameter int OP    = 3,
    parameter int B     = 1,
    parameter int W     = 32,
    parameter int F     = 22,
    parameter int FA    = 36,
    parameter int EA    = 0,
    parameter int EO    = 0,
    parameter int BEATS = 1
) (
    input  logic         clk,
    input  logic         rst,
    input  logic [B*W:0] in_data,
    input  logic         in_valid,
    output logic         in_ready,
    output logic [B*W:0] out_data,
    output logic         out_valid,
    input  logic         out_ready
);
  logic [B*W-1:0] y;
  logic [B-1:0] sat;
  inrarch_ew_fsm #(.NIN(1), .BEATS(BEATS), .DW(B * W)) u_fsm (
      .clk, .rst, .in_valid, .in_ready, .lanes(y), .lanes_ovf(|sat || in_data[B*W]),
      .out_data, .out_valid, .out_ready);
  for (genvar e = 0; e < B; e = e + 1) begin : g_lane
    if (OP == 13) begin : g_sqrt
      inrarch_lane_sqrt #(.W(W), .F(F), .FA(FA), .EA(EA), .EO(EO)) u_lane (
          .a(in_data[e*W+:W]), .y(y[e*W+:W]), .ovf(sat[e]));
    end else if (OP >= 8 && OP <= 10) begin : g_explog
      inrarch_lane_explog #(.OP(OP), .W(W), .F(F), .FA(FA), .EA(EA), .EO(EO)) u_lane (
          .a(in_data[e*W+:W]), .y(y[e*W+:W]), .ovf(sat[e]));
    end else if (OP >= 6) begin : g_sin
      inrarch_lane_sin #(.OP(OP), .W(W), .F(F), .FA(FA), .EA(EA), .EO(EO)) u_lane (
          .a(in_data[e*W+:W]), .y(y[e*W+:W]), .ovf(sat[e]));
    end else begin : g_plain
      inrarch_lane1 #(.OP(OP), .W(W), .F(F), .FA(FA), .EA(EA), .EO(EO)) u_lane (
          .a(in_data[e*W+:W]), .y(y[e*W+:W]), .ovf(sat[e]));
    end
  end
endmodule
)sv"},
      {"inrarch_ew2.sv", R"sv(// An elementwise binary kernel (add, sub, mul) on two streamed operands: lanes of
// inrarch_lane2 over the B elements of a beat, the result held one step (L = 1). A beat is
// {ovf, element B-1, ..., element 0}: each W bits, ovf the sticky overflow sideband of the
// HLS library (the OR of every beat read so far and of every saturation).
module inrarch_ew2 #(
    parameter int OP    = 0,
    parameter int B     = 1,
    parameter int W     = 32,
    parameter int F     = 22,
    parameter int FA    = 36,
    parameter int EA    = 0,
    parameter int EB    = 0,
    parameter int EO    = 0,
    parameter int BEATS = 1
) (
    input  logic         clk,
    input  logic         rst,
    input  logic [B*W:0] a_data,
    input  logic         a_valid,
    output logic         a_ready,
    input  logic [B*W:0] b_data,
    input  logic         b_valid,
    output logic         b_ready,
    output logic [B*W:0] out_data,
    output logic         out_valid,
    input  logic         out_ready
);
  logic [B*W-1:0] y;
  logic [B-1:0] sat;
  logic [1:0] ready;
  inrarch_ew_fsm #(.NIN(2), .BEATS(BEATS), .DW(B * W)) u_fsm (
      .clk, .rst, .in_valid({b_valid, a_valid}), .in_ready(ready), .lanes(y), .lanes_ovf(|sat || a_data[B*W] || b_data[B*W]),
      .out_data, .out_valid, .out_ready);
  assign a_ready = ready[0];
  assign b_ready = ready[1];
  for (genvar e = 0; e < B; e = e + 1) begin : g_lane
    inrarch_lane2 #(.OP(OP), .W(W), .F(F), .FA(FA), .EA(EA), .EB(EB), .EO(EO)) u_lane (
        .a(a_data[e*W+:W]), .b(b_data[e*W+:W]), .y(y[e*W+:W]), .ovf(sat[e]));
  end
endmodule
)sv"},
      {"inrarch_ew2r.sv", R"sv(// An elementwise binary kernel (add, sub, mul) with one streamed operand and a constant
// one, held in a ROM (ROM_FILE, P words at the constant's exponent; a splat is one word):
// element e of beat i is word (i*B + e) mod P, the HLS library's from_rom (P is 1 or a
// multiple of B; a ROM of the whole operand has P = its size). CSLOT says which operand is
// the constant (0: a, 1: b). Otherwise as inrarch_ew2.
module inrarch_ew2r #(
    parameter int OP    = 0,
    parameter int CSLOT = 1,
    parameter int B     = 1,
    parameter int W     = 32,
    parameter int F     = 22,
    parameter int FA    = 36,
    parameter int EA    = 0,
    parameter int EB    = 0,
    parameter int EO    = 0,
    parameter int BEATS = 1,
    parameter int P     = 1,
    parameter ROM_FILE  = "rom.hex"
) (
    input  logic         clk,
    input  logic         rst,
    input  logic [B*W:0] in_data,
    input  logic         in_valid,
    output logic         in_ready,
    output logic [B*W:0] out_data,
    output logic         out_valid,
    input  logic         out_ready
);
  localparam int PW = P > 1 ? $clog2(P) : 1;
  logic [W-1:0] rom[P];
  initial $readmemh(ROM_FILE, rom);
  logic [PW-1:0] base;  // the ROM word of element 0 of this beat
  logic [PW:0] next;    // base + B, below 2P
  assign next = {1'b0, base} + (PW + 1)'(B);
  always_ff @(posedge clk) begin
    if (rst) base <= '0;
    else if (in_ready && P > 1) base <= next >= (PW + 1)'(P) ? '0 : next[PW-1:0];
  end
  logic [B*W-1:0] y;
  logic [B-1:0] sat;
  inrarch_ew_fsm #(.NIN(1), .BEATS(BEATS), .DW(B * W)) u_fsm (
      .clk, .rst, .in_valid, .in_ready, .lanes(y), .lanes_ovf(|sat || in_data[B*W]),
      .out_data, .out_valid, .out_ready);
  for (genvar e = 0; e < B; e = e + 1) begin : g_lane
    logic [W-1:0] x, c;
    assign x = in_data[e*W+:W];
    assign c = rom[P > 1 ? base + PW'(e) : '0];
    inrarch_lane2 #(.OP(OP), .W(W), .F(F), .FA(FA), .EA(EA), .EB(EB), .EO(EO)) u_lane (
        .a(CSLOT == 0 ? c : x), .b(CSLOT == 0 ? x : c), .y(y[e*W+:W]), .ovf(sat[e]));
  end
endmodule
)sv"},
      {"inrarch_lane1.sv", R"sv(// OP 3: neg, 4: relu, 5: step (scaled1<op, EA, EO>): the operator on the stored value in T
// (-min saturates to max and sets ovf), then realigned into A and fit. neg and relu are
// homogeneous (shift by EO - EA); step is invariant: T(1) or T(0), shifted by EO.
module inrarch_lane1 #(
    parameter int OP = 3,
    parameter int W  = 32,
    parameter int F  = 22,
    parameter int FA = 36,
    parameter int EA = 0,
    parameter int EO = 0
) (
    input  logic [W-1:0] a,
    output logic [W-1:0] y,
    output logic         ovf
);
  localparam logic [W-1:0] MIN = {1'b1, {(W - 1) {1'b0}}};
  localparam logic [W-1:0] MAX = {1'b0, {(W - 1) {1'b1}}};
  localparam logic [W-1:0] ONE = W'(1) << F;
  logic pos, min;
  logic [W-1:0] n;  // the operator's result in T
  logic [63:0] r;
  logic f_ovf;
  assign pos = !a[W-1] && a != '0;
  assign min = OP == 3 && a == MIN;  // -min does not fit
  assign n = OP == 3 ? (min ? MAX : -a) : OP == 4 ? (pos ? a : '0) : (pos ? ONE : '0);
  inrarch_shift #(.S((OP == 5 ? EO : EO - EA) + FA - F)) u_shift (.x(64'($signed(n))), .y(r));
  inrarch_fit #(.W(W), .F(F), .FA(FA)) u_fit (.x(r), .y(y), .ovf(f_ovf));
  assign ovf = min || f_ovf;
endmodule
)sv"},
      {"inrarch_lane_sin.sv", R"sv(// OP 6: sin, 7: cos (scaled1<op_sin/op_cos, EA, EO>, kOnTrueValues): the operand to its true
// value in T (A, shift by -EA, fit), then the HLS library's rom_sin/rom_cos (fixed_math.h):
// the phase frac(x / 2π) as 32 bits, x · round(2^65/π) · 2^-66 with the product's bits
// below 2^-32 floored and those above 1 wrapped (cos adds a quarter turn); the top 2 bits
// pick the quadrant, the next 10 index the quarter-wave table TABLE (1025 entries, Q1.31),
// the low 20 interpolate; the result, exact with 51 fraction bits, floors into T; then A,
// a shift by EO, and fit.
module inrarch_lane_sin #(
    parameter int OP = 6,
    parameter int W  = 32,
    parameter int F  = 22,
    parameter int FA = 36,
    parameter int EA = 0,
    parameter int EO = 0,
    parameter TABLE  = "inrarch_sin_rom.hex"
) (
    input  logic [W-1:0] a,
    output logic [W-1:0] y,
    output logic         ovf
);
  logic [31:0] rom[1025];
  initial $readmemh(TABLE, rom);

  // The operand's true value in T.
  logic [63:0] xa;
  logic [W-1:0] x;
  logic x_ovf;
  inrarch_shift #(.S(FA - F - EA)) u_in (.x(64'($signed(a))), .y(xa));
  inrarch_fit #(.W(W), .F(F), .FA(FA)) u_fit_in (.x(xa), .y(x), .ovf(x_ovf));

  // The phase: bits [F+34 +: 32] of x · k (F + 66 fraction bits), wrapped; the product's
  // low F + 66 bits are exact modulo 2^(F+66), which is all the phase needs.
  localparam logic [64:0] K = 65'h0A2F9836E4E44152A;
  logic [F+65:0] prod;
  logic [31:0] phase;
  assign prod  = (F + 66)'($signed(x)) * (F + 66)'(K);
  assign phase = 32'(prod >> (F + 34)) + (OP == 7 ? 32'h4000_0000 : 32'h0);

  // Quadrant, table index, interpolation.
  logic [29:0] u0;
  logic [30:0] u;  // 0 .. 2^30
  logic [10:0] idx;
  logic [31:0] y0, y1;
  logic signed [63:0] raw, sraw;
  assign u0   = phase[29:0];
  assign u    = phase[30] ? 31'h4000_0000 - {1'b0, u0} : {1'b0, u0};
  assign idx  = u[30:20];
  assign y0   = rom[idx];
  assign y1   = rom[idx < 11'd1024 ? idx + 11'd1 : idx];
  assign raw  = (64'(y0) << 20) + (64'($signed({1'b0, y1})) - 64'($signed({1'b0, y0}))) * 64'(u[19:0]);
  assign sraw = phase[31] ? -raw : raw;

  // Into T (floor from 51 fraction bits), then to the output's exponent.
  logic [W-1:0] s;
  logic [63:0] sa;
  logic s_ovf;
  assign s = W'(sraw >>> (51 - F));
  inrarch_shift #(.S(FA - F + EO)) u_out (.x(64'($signed(s))), .y(sa));
  inrarch_fit #(.W(W), .F(F), .FA(FA)) u_fit_out (.x(sa), .y(y), .ovf(s_ovf));
  assign ovf = x_ovf || s_ovf;
endmodule
)sv"},
      {"inrarch_lane2.sv", R"sv(// One element of an elementwise kernel: the HLS library's scaled operators
// (inrarch/scaled.h, elementwise.h) bit for bit. Values are ap_fixed<W, W-F> raw bits
// (F fraction bits); a stream with exponent E holds value * 2^E. The wide accumulator
// A = ap_fixed<64, 64-FA> realigns operands and result with shifts that wrap (A's
// AP_WRAP), fit() floors into T and saturates to its range, setting ovf (array_stream.h).
// The emitter admits only types where A holds every T value and product exactly
// (FA >= F, 64 - FA >= 2 (W - F) + 8), so the unscaled operators, which skip A, give the
// same bits.

// OP 0: add, 1: sub, 2: mul, 11: div, 12: mul in the fabric (scaled2<op, EA, EB, EO>).
module inrarch_lane2 #(
    parameter int OP = 0,
    parameter int W  = 32,
    parameter int F  = 22,
    parameter int FA = 36,
    parameter int EA = 0,
    parameter int EB = 0,
    parameter int EO = 0
) (
    input  logic [W-1:0] a,
    input  logic [W-1:0] b,
    output logic [W-1:0] y,
    output logic         ovf
);
  logic [63:0] r;  // the result in A, before fit()
  logic r_ovf;     // A itself saturated (op_add/op_sub's fit into A)
  if (OP == 2 || OP == 12) begin : g_mul
    // The exact product (2F fraction bits) into A: A(a * b), then realigned.
    logic signed [63:0] p;
    logic [63:0] pa;
    if (OP == 12) begin : g_fabric
      // Where the search moved the product out of the DSPs (op_mul_fabric): shift and add,
      // which Yosys builds from LUTs and carry chains where it would map a `*` to DSP48E2s.
      // Row i adds b[i]·a to the running high part s (W + 1 bits) and retires the sum's low
      // bit as product bit i, so each row is a (W + 2)-bit adder, not a 64-bit one. b's
      // sign bit weighs -2^(W-1): the last row subtracts. |s| < 2^W throughout.
      logic signed [W:0] s;
      logic signed [W+1:0] t;
      logic [W-1:0] low;
      always_comb begin
        s = '0;
        low = '0;
        for (int i = 0; i < W; i = i + 1) begin
          t = i == W - 1 ? (W + 2)'(s) - (b[i] ? (W + 2)'($signed(a)) : '0)
                         : (W + 2)'(s) + (b[i] ? (W + 2)'($signed(a)) : '0);
          low[i] = t[0];
          s = t[W+1:1];
        end
        p = 64'($signed({s, low}));
      end
    end else begin : g_dsp
      assign p = 64'($signed(a)) * 64'($signed(b));
    end
    if (FA >= 2 * F) begin : g_up
      assign pa = p << (FA - 2 * F);
    end else begin : g_down
      assign pa = p >>> (2 * F - FA);
    end
    inrarch_shift #(.S(EO - EA - EB)) u_shift (.x(pa), .y(r));
    assign r_ovf = 1'b0;
  end else if (OP == 11) begin : g_div
    // op_div: the ap_fixed quotient (a << F) / b, truncated toward zero (0 for b = 0, as
    // the compat headers give), fit into T; then A, a shift by EO - EA + EB (kQuotient).
    // A combinational 64 / 32-bit divider: correct first, not cheap.
    logic signed [63:0] num, den, quo;
    logic [W-1:0] q;
    assign num = 64'($signed(a)) <<< F;
    assign den = 64'($signed(b));
    assign quo = den == 64'sd0 ? 64'sd0 : num / den;  // signed operands throughout: a signed division
    inrarch_fit #(.W(W), .F(F), .FA(F)) u_fit_q (.x(quo), .y(q), .ovf(r_ovf));
    inrarch_shift #(.S(EO - EA + EB + FA - F)) u_shift (.x(64'($signed(q))), .y(r));
  end else begin : g_sum
    // Both operands into A at the result's exponent, summed exactly, saturated to A.
    logic [63:0] xa, xb;
    logic signed [64:0] s;
    inrarch_shift #(.S(EO - EA + FA - F)) u_a (.x(64'($signed(a))), .y(xa));
    inrarch_shift #(.S(EO - EB + FA - F)) u_b (.x(64'($signed(b))), .y(xb));
    assign s = OP == 1 ? 65'($signed(xa)) - 65'($signed(xb)) : 65'($signed(xa)) + 65'($signed(xb));
    assign r_ovf = s[64] != s[63];
    assign r = !r_ovf ? s[63:0] : s[64] ? {1'b1, 63'b0} : {1'b0, {63{1'b1}}};
  end
  logic f_ovf;
  inrarch_fit #(.W(W), .F(F), .FA(FA)) u_fit (.x(r), .y(y), .ovf(f_ovf));
  assign ovf = r_ovf || f_ovf;
endmodule
)sv"},
      {"inrarch_shift.sv", R"sv(// x * 2^S in A, A's way: a left shift wraps, a right shift floors (shift_pow2).
module inrarch_shift #(
    parameter int S = 0
) (
    input  logic [63:0] x,
    output logic [63:0] y
);
  if (S >= 0) begin : g_left
    assign y = x << S;
  end else begin : g_right
    assign y = $signed(x) >>> (-S);
  end
endmodule
)sv"},
      {"inrarch_fit.sv", R"sv(// x (FA fraction bits) floored to F fraction bits and saturated to W bits.
module inrarch_fit #(
    parameter int W  = 32,
    parameter int F  = 22,
    parameter int FA = 36
) (
    input  logic [63:0]  x,
    output logic [W-1:0] y,
    output logic         ovf
);
  logic signed [63:0] t;
  logic hi, lo;
  assign t   = $signed(x) >>> (FA - F);
  assign hi  = t > 64'($signed({1'b0, {(W - 1) {1'b1}}}));
  assign lo  = t < 64'($signed({1'b1, {(W - 1) {1'b0}}}));
  assign y   = hi ? {1'b0, {(W - 1) {1'b1}}} : lo ? {1'b1, {(W - 1) {1'b0}}} : t[W-1:0];
  assign ovf = hi || lo;
endmodule
)sv"},
  };
}

}  // namespace inrarch::rtl::detail
