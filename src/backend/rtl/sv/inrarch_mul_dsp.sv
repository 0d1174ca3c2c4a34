// The exact product of a signed W-bit a and a signed WB-bit b on DSP48E2s (27 x 18-bit
// signed multipliers), pipelined so that no stage holds more than a DSP's multiply or a
// 33-bit carry chain (stages advance on `en`; p is the product of the operands of 1 fire ago
// when it fits one DSP, of 4 otherwise; dataflow::mul_dsp_depth):
//   27 x 18 either way round: one product, registered (one stage);
//   one operand x of at most 27 bits, the other y of at most 35: y split at bit 17,
//                  x · y_lo (unsigned 17 bits) and x · y_hi, 2 DSPs;
//   both wider:    both split (sign-extended to the wider), the four products a_lo·b_lo,
//                  a_lo·b_hi, a_hi·b_lo, a_hi·b_hi, 4 DSPs: the dsp_for_product tiles of the
//                  resource model.
// Split, the stages are: the products · their middle sum · the final sum's low 32 bits and
// carry, and both high halves · the high half the carry picks. Yosys packs the product
// registers into the DSP48E2s. WB differs from W for an mm's narrow weights.
module inrarch_mul_dsp #(
    parameter int W = 32,
    parameter int WB = W
) (
    input  logic               clk,
    input  logic               en,
    input  logic [W-1:0]       a,
    input  logic [WB-1:0]      b,
    output logic signed [63:0] p
);
  localparam bit ONE = (W <= 18 && WB <= 27) || (W <= 27 && WB <= 18);
  localparam bit A_WHOLE = W <= 27 && WB <= 35, B_WHOLE = WB <= 27 && W <= 35;
  localparam int WM = W > WB ? W : WB;
  if (ONE) begin : g_one
    always_ff @(posedge clk) if (en) p <= 64'($signed(a)) * 64'($signed(b));
  end else begin : g_split
    logic [63:0] x, y;  // p = x + y, formed from the products' registers
    if (A_WHOLE || B_WHOLE) begin : g_two
      localparam int WX = A_WHOLE ? W : WB, WY = A_WHOLE ? WB : W, HY = WY - 17;
      logic [WX-1:0] xv;  // the whole operand
      logic [WY-1:0] yv;  // the split one
      if (A_WHOLE) begin : g_ab
        assign xv = a;
        assign yv = b;
      end else begin : g_ba
        assign xv = b;
        assign yv = a;
      end
      logic signed [17:0] y_lo;   // the low 17 bits, as a non-negative 18-bit value
      logic signed [HY-1:0] y_hi;
      assign y_lo = {1'b0, yv[16:0]};
      assign y_hi = yv[WY-1:17];
      logic signed [WX+17:0] p_lo, p_hi;  // x · y_lo, x · y_hi
      always_ff @(posedge clk)
        if (en) begin
          p_lo <= $signed(xv) * y_lo;
          p_hi <= $signed(xv) * y_hi;
        end
      logic signed [WX+17:0] lo2, hi2;  // the middle stage: nothing to add, carried on
      always_ff @(posedge clk) if (en) {lo2, hi2} <= {p_lo, p_hi};
      assign x = 64'(lo2);
      assign y = 64'(hi2) << 17;
    end else begin : g_four
      localparam int H = WM - 17;  // the high parts' bits (signed)
      logic [WM-1:0] ae, be;      // both at the wider width, sign-extended
      assign ae = WM'($signed(a));
      assign be = WM'($signed(b));
      logic signed [17:0] a_lo, b_lo;
      logic signed [H-1:0] a_hi, b_hi;
      assign a_lo = {1'b0, ae[16:0]};
      assign a_hi = ae[WM-1:17];
      assign b_lo = {1'b0, be[16:0]};
      assign b_hi = be[WM-1:17];
      logic [33:0] ll;              // a_lo · b_lo < 2^34
      logic signed [35:0] lh, hl;   // a_lo · b_hi, a_hi · b_lo
      logic signed [2*H-1:0] hh;    // a_hi · b_hi
      always_ff @(posedge clk)
        if (en) begin
          ll <= 34'(a_lo * b_lo);
          lh <= a_lo * 36'(b_hi);
          hl <= 36'(a_hi) * b_lo;
          hh <= (2 * H)'(36'(a_hi) * 36'(b_hi));
        end
      logic [33:0] ll2;
      logic signed [29:0] hh2;     // 2 (WM - 17) <= 30 bits at WM <= 32
      logic signed [36:0] mid;     // a_lo · b_hi + a_hi · b_lo
      always_ff @(posedge clk)
        if (en) begin
          ll2 <= ll;
          hh2 <= 30'(hh);
          mid <= 37'(lh) + 37'(hl);
        end
      assign x = {hh2, ll2};       // hh · 2^34 + ll: the bits do not overlap
      assign y = 64'(mid) << 17;
    end
    // x + y: the low 32 bits with their carry, and both possible high halves, in one stage;
    // the carry picks one in the next. (Carrying x's and y's high halves a stage instead
    // made a chain of plain flip-flops, which Yosys turns into shift-register LUTs, slow to
    // start an adder from.)
    logic [32:0] low;
    logic [31:0] hi0;
    /* verilator lint_off UNUSEDSIGNAL */
    logic [32:0] hi1;  // x + y + 1 in bits 32 … 1: its own chain, its carry-in from bit 0
    /* verilator lint_on UNUSEDSIGNAL */
    always_ff @(posedge clk)
      if (en) begin
        low <= {1'b0, x[31:0]} + {1'b0, y[31:0]};
        hi0 <= x[63:32] + y[63:32];
        hi1 <= {x[63:32], 1'b1} + {y[63:32], 1'b1};
      end
    // Kept a flip-flop: the low bits below the middle product's are the first product's,
    // carried through plain flip-flops, which Yosys would pack with this one into a
    // shift-register LUT, whose output comes 1.2 ns later, where an adder follows.
    (* keep *) always_ff @(posedge clk) if (en) p <= {low[32] ? hi1[32:1] : hi0, low[31:0]};
  end
endmodule
