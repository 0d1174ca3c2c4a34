// The exact product of two signed W-bit values in the fabric, where a `*` would map to
// DSP48E2s: the W partial products b[i]·a summed by a registered binary tree of adders,
// one level a stage (stages advance on `en`; p is the product of the operands of
// LEVELS fires ago, LEVELS = ceil(log2 W)). Level 1 forms each pair of rows inside its
// adder (an AND per bit feeds the carry chain's LUT); b's sign bit weighs -2^(W-1), so the
// row it selects is subtracted. A node of level k sums 2^k rows and spans W + 2^k + 1 bits;
// combining two nodes, the lower one's low 2^(k-1) bits pass through and only the bits
// above them are added, so the last level's carry chain is W + R/2 + 2 bits (R: the rows
// rounded up to a power of two), not 2W. A row-per-stage pipeline would be W stages deep
// and hold W^2 operand and partial-sum bits in flight (docs/rtl.md, "Pipelined lanes").
module inrarch_mul_tree #(
    parameter int W = 32,
    parameter int D = 8  // the product's delay in fires: this tree's stages (8 at W = 32), padded if more
) (
    input  logic                clk,
    input  logic                en,
    input  logic [W-1:0]        a,
    input  logic [W-1:0]        b,
    output logic signed [63:0]  p
);
  // b sign-extended to an even number of bits WB, so that its sign bit, which weighs
  // -2^(WB-1), is the upper row of a pair and level 1 subtracts it in its adder's carry
  // chain (a separate -a would be a second chain in series).
  localparam int WB = W + W % 2;
  localparam int LEVELS = $clog2(WB);
  localparam int R = 1 << LEVELS;  // rows, padded with zero ones
  // The widest adder a stage holds at 300 MHz (Yosys timing, docs/rtl.md): 40 bits fed by a
  // LUT2, 32 at level 1, whose LUT also forms the partial products (a LUT4, slower pins).
  // The stages: one a level, two where a level's adder is wider (the C++ model's
  // mul_fabric_depth counts them alike). (Icarus takes no call inside a constant function.)
  function automatic int stages();
    stages = 0;
    for (int k = 1; k <= LEVELS; k = k + 1) stages = stages + (W + (1 << (k - 1)) + 1 > (k == 1 ? 32 : 40) ? 2 : 1);
  endfunction
  localparam int OWN = stages();
  initial if (D < OWN) $fatal(1, "inrarch_mul_tree: depth %0d is below the tree's %0d stages", D, OWN);
  logic [WB-1:0] bx;
  assign bx = WB'($signed(b));
  // Row i: b[i] ? a : 0 (the sign row's magnitude), zero past WB.
  logic signed [W:0] rows[R];
  for (genvar i = 0; i < R; i = i + 1) begin : g_row
    if (i < WB) begin : g_bit
      assign rows[i] = bx[i] ? (W + 1)'($signed(a)) : '0;
    end else begin : g_pad
      assign rows[i] = '0;
    end
  end
  for (genvar k = 1; k <= LEVELS; k = k + 1) begin : g_lv
    localparam int H = 1 << (k - 1);  // the upper operand's shift (rows per lower operand)
    localparam int NI = W + H + 1;    // an operand's width (level k - 1's nodes)
    for (genvar j = 0; j < (R >> k); j = j + 1) begin : g_n
      /* verilator lint_off UNUSEDSIGNAL */  // the root's bits past 64 (a 64-bit p)
      logic signed [NI+H-1:0] v;      // W + 2^k + 1 bits: the sum of rows j·2^k …
      /* verilator lint_on UNUSEDSIGNAL */
      logic signed [NI-1:0] lo, hi;
      if (k == 1) begin : g_rows
        assign lo = NI'(rows[2*j]);
        assign hi = NI'(rows[2*j+1]);
      end else begin : g_nodes
        assign lo = g_lv[k-1].g_n[2*j].v;
        assign hi = g_lv[k-1].g_n[2*j+1].v;
      end
      logic signed [NI-1:0] x, y, sum;  // the operands, aligned, and their sum
      assign x = NI'($signed(lo[NI-1:H]));
      assign y = k == 1 && 2 * j + 1 == WB - 1 ? ~hi : hi;  // x - hi as x + ~hi + 1
      localparam logic CIN = k == 1 && 2 * j + 1 == WB - 1;
      logic [H-1:0] low;
      if (NI <= (k == 1 ? 32 : 40)) begin : g_one
        always_ff @(posedge clk) if (en) sum <= x + y + NI'(CIN);
        // keep: the bits passed on unchanged stay flip-flops; as a chain of them Yosys would
        // build a shift-register LUT, and an adder fed by one starts 1.2 ns late.
        (* keep *) always_ff @(posedge clk) if (en) low <= lo[H-1:0];
      end else begin : g_two
        // Too long a carry for one stage: the low C bits and their carry, then the rest.
        localparam int C = NI / 2;
        logic [C:0] s0;
        logic [NI-C-1:0] xh, yh, s1;
        logic [C-1:0] s0r;
        logic [H-1:0] low0;
        always_ff @(posedge clk)
          if (en) begin
            s0 <= (C + 1)'(x[C-1:0]) + (C + 1)'(y[C-1:0]) + (C + 1)'(CIN);
            s1 <= xh + yh + (NI - C)'(s0[C]);
          end
        (* keep *) always_ff @(posedge clk)
          if (en) {low, low0, s0r, xh, yh} <= {low0, lo[H-1:0], s0[C-1:0], x[NI-1:C], y[NI-1:C]};
        assign sum = {s1, s0r};
      end
      assign v = {sum, low};
    end
  end
  // Padded to a deeper kernel, the extra stages end in a flip-flop: the fit's flags follow.
  inrarch_delay #(.WIDTH(64), .N(D > OWN ? D - OWN : 0), .LAST_FF(1'b1)) u_pad (.clk, .en, .x(64'(g_lv[LEVELS].g_n[0].v)), .y(p));
endmodule
