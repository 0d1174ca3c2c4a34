// The exact product of two signed W-bit values on DSP48E2s (27 x 18-bit signed
// multipliers), pipelined so that no stage holds more than a DSP's multiply or a 33-bit
// carry chain (stages advance on `en`; p is the product of the operands of 1 fire ago at
// W <= 18, of 4 above; dataflow::mul_dsp_depth):
//   W <= 18:       one product, registered (one stage);
//   18 < W <= 27:  b split at bit 17, a · b_lo (unsigned 17 bits) and a · b_hi, 2 DSPs;
//   W > 27:        both split, the four products a_lo·b_lo, a_lo·b_hi, a_hi·b_lo, a_hi·b_hi,
//                  4 DSPs: the dsp_for_product tiles of the resource model.
// Split, the stages are: the products · their middle sum · the final sum's low 32 bits and
// carry, and both high halves · the high half the carry picks. Yosys packs the product
// registers into the DSP48E2s.
module inrarch_mul_dsp #(
    parameter int W = 32
) (
    input  logic               clk,
    input  logic               en,
    input  logic [W-1:0]       a,
    input  logic [W-1:0]       b,
    output logic signed [63:0] p
);
  if (W <= 18) begin : g_one
    always_ff @(posedge clk) if (en) p <= 64'($signed(a)) * 64'($signed(b));
  end else begin : g_split
    localparam int H = W - 17;  // the high parts' bits (signed)
    logic signed [17:0] b_lo;   // the low 17 bits, as a non-negative 18-bit value
    logic signed [H-1:0] b_hi;
    assign b_lo = {1'b0, b[16:0]};
    assign b_hi = b[W-1:17];
    logic [63:0] x, y;  // p = x + y, formed from the products' registers
    if (W <= 27) begin : g_two
      logic signed [W+17:0] p_lo, p_hi;  // a · b_lo, a · b_hi
      always_ff @(posedge clk)
        if (en) begin
          p_lo <= $signed(a) * b_lo;
          p_hi <= $signed(a) * b_hi;
        end
      logic signed [W+17:0] lo2, hi2;  // the middle stage: nothing to add, carried on
      always_ff @(posedge clk) if (en) {lo2, hi2} <= {p_lo, p_hi};
      assign x = 64'(lo2);
      assign y = 64'(hi2) << 17;
    end else begin : g_four
      logic signed [17:0] a_lo;
      logic signed [H-1:0] a_hi;
      assign a_lo = {1'b0, a[16:0]};
      assign a_hi = a[W-1:17];
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
      logic signed [29:0] hh2;     // 2 (W - 17) <= 30 bits at W <= 32
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
