// The cost rules of the resource model (resources.h): DSPs per multiply, block-RAM tiling,
// and the per-lane cost of each elementwise op (the cost columns of elementwise.def).
#include <fmt/format.h>

#include <algorithm>
#include <bit>

#include "dataflow/elementwise.h"
#include "dataflow/memory.h"
#include "dataflow/resources.h"
#include "dataflow/resources_detail.h"
#include "support/error.h"

namespace inrarch::dataflow {

namespace {

int64_t ceil_div(int64_t a, int64_t b) { return (a + b - 1) / b; }

// The pipelined digit recurrences (inrarch_lane_sqrt, inrarch_lane_div; docs/rtl.md
// "Pipelined lanes"), a lane each: fitted to Yosys 0.23 (`synth_xilinx -family xcup
// -flatten`), the lane module alone at fixed<32,10> and fixed<16,6>, a stage a register.
// LUTs (not counting shift-register LUTs, as `inrarch synth` does not): the stages' adders
// plus the realignments and fits around them; flip-flops: the register stages, each holding
// the remainder, the partial quotient or root and the operand bits still to come.
//   sqrt: 762 LUT (and 52 SRL16E), 1,376 FF at w = 32; 187 LUT (and 8), 423 FF at w = 16
//   div:  1,201 LUT, 3,291 FF at w = 32; 347 LUT, 947 FF at w = 16
int64_t sqrt_luts(int64_t w) { return 3 * w * w / 4; }
int64_t sqrt_ffs(int64_t w) { return w * w + 10 * w; }
int64_t div_luts(int64_t w) { return w * w + 6 * w; }
int64_t div_ffs(int64_t w) { return 11 * w * w / 4 + 15 * w; }
// The pipelined sine-table lane (inrarch_lane_sin, its table in a block RAM), the lane module
// alone in Yosys: 794 LUT, 1,169 FF at w = 32; 712, 1,012 at w = 24; 652, 932 at w = 16; 7, 5
// and 4 DSP48E2, sdsp's tiles exactly, and one RAMB36E2. Most of it does not scale with w:
// the phase's carry-save vectors are F + 66 bits, the interpolation's 56.
int64_t sine_luts(int64_t w) { return 9 * w + 508; }
int64_t sine_ffs(int64_t w) { return 15 * w + 692; }
// The pipelined exp2/log1p-table lanes (inrarch_lane_explog), likewise, the lane module alone
// at fixed<32,10> and fixed<16,6> (docs/rtl.md "Pipelined lanes"): exp 891 / 708 LUT, 1,480 /
// 1,218 FF, 8 / 5 DSP48E2; log 438 / 350 LUT, 903 / 649 FF, 2 DSP48E2; tanh, its 32-stage
// divider included, 2,033 / 1,864 LUT, 4,235 / 3,961 FF, 8 / 5 DSP48E2; one RAMB36E2 each.
// Most of it does not scale with w: the product by log2e is F + 95 bits, the interpolation
// 64, the divider's stages 35, and the stage registers hold them.
int64_t exp_luts(int64_t w) { return 23 * w / 2 + 524; }
int64_t exp_ffs(int64_t w) { return 33 * w / 2 + 952; }
int64_t log_luts(int64_t w) { return 11 * w / 2 + 262; }
int64_t log_ffs(int64_t w) { return 16 * w + 391; }
int64_t tanh_luts(int64_t w) { return 21 * w / 2 + 1697; }
int64_t tanh_ffs(int64_t w) { return 17 * w + 3691; }

// Vitis HLS cores on UltraScale+ (full-DSP implementations, the tool's default at 300 MHz):
// fmul 3, fadd/fsub 2, dmul 11, dadd/dsub 3 DSP48E2.
constexpr int64_t kFloatMulDsp = 3, kFloatAddDsp = 2, kDoubleMulDsp = 11, kDoubleAddDsp = 3;

}  // namespace

int64_t dsp_for_product(int64_t a, int64_t b) {
  if (a <= 0 || b <= 0) return 0;
  return std::min(ceil_div(a, 27) * ceil_div(b, 18), ceil_div(b, 27) * ceil_div(a, 18));
}

int64_t dsp_per_multiply(const Arith& a) {
  switch (a.kind) {
    case Arith::Fixed: return dsp_for_product(a.bits, a.bits);
    case Arith::Float: return kFloatMulDsp;
    case Arith::Double: return kDoubleMulDsp;
  }
  return 0;
}

int64_t fabric_multiply_luts(const Arith& a) {
  // Fixed point: the RTL's tree of adders (inrarch_mul_tree), a LUT a bit of each, and the
  // lane's realignment and fit, 2W^2 - 6W, fitted to Yosys at 16 and 32 bits with the
  // operands' exponents 6 and 18 and the result's 18 (within 3 %; 24 bits: 1.08; docs/rtl.md,
  // "Pipelined lanes"); Vitis's fabric fmul/dmul cores otherwise (uncalibrated).
  if (a.kind == Arith::Fixed) return 2 * a.bits * a.bits - 6 * a.bits;
  return a.kind == Arith::Float ? 700 : 2600;
}

// The flip-flops of that tree, node by node (those holding a partial product; a level of two
// stages also holds its low sum and its operands' high parts), and 2W + 4 of the lane's.
int64_t fabric_multiply_ffs(const Arith& a) {
  if (a.kind != Arith::Fixed) return 2 * a.bits;
  const int64_t w = a.bits, rows = w + w % 2;
  int64_t ffs = 2 * w + 4;
  for (int64_t k = 1; k <= mul_fabric_levels(w); ++k) {
    const int64_t h = int64_t{1} << (k - 1), ni = mul_fabric_adder_bits(w, k), c = ni / 2;
    const int64_t nodes = (rows + 2 * h - 1) / (2 * h);
    ffs += nodes * (mul_fabric_level_split(w, k) ? (c + 1) + 3 * (ni - c) + c + 2 * h : ni + h);
  }
  return ffs;
}

// The LUTs of a product on DSP48E2s besides them: the sums of the tiles' partial products
// (inrarch_mul_dsp), 59/2 a tile and 29, none for one tile (fitted as the lanes are).
int64_t mul_dsp_luts(const Arith& a) {
  const int64_t tiles = dsp_per_multiply(a);
  return tiles > 1 ? 59 * tiles / 2 + 29 : 0;
}

int64_t dsp_per_add(const Arith& a) {
  return a.kind == Arith::Fixed ? 0 : a.kind == Arith::Float ? kFloatAddDsp : kDoubleAddDsp;
}

// A fixed-point MAC accumulates in the fabric (the accumulator is wider than the DSP's
// post-adder path for 32-bit operands); float/double need an adder core too.
int64_t dsp_per_mac(const Arith& a) { return dsp_per_multiply(a) + dsp_per_add(a); }

int64_t bram18k_tiles(int64_t width_bits, int64_t words) {
  if (width_bits <= 0 || words <= 0) return 0;
  static constexpr int64_t kShapes[][2] = {{18, 1024}, {9, 2048}, {4, 4096}, {2, 8192}, {1, 16384}};
  int64_t best = INT64_MAX;
  for (const auto& [w, d] : kShapes) best = std::min(best, ceil_div(width_bits, w) * ceil_div(words, d));
  return best;
}

int64_t uram_tiles(int64_t width_bits, int64_t words) {
  if (width_bits <= 0 || words <= 0) return 0;
  return ceil_div(width_bits, 72) * ceil_div(words, 4096);
}

namespace detail {

// The cost of one lane is elementwise.def's row. Transcendentals are a table lookup plus
// linear interpolation (the HLS kernel library's fixed_math.h / fixed_exp_log.h): the
// argument scaling is a W x 64-bit product, the interpolation a 33 x 20-bit one (`tdsp`;
// sin and cos one DSP, `sdsp`),
// and each lane reads two neighbouring entries of its own 1025-word table (one dual-port
// bank). LUT/FF are per lane, fitted to Yosys (elementwise.def).
LaneCost lane_cost(ir::Op op, const Arith& a, bool fabric_mul) {
  const int64_t w = a.bits;
  if (op == ir::Op::Mul && fabric_mul) return {0, fabric_multiply_luts(a), fabric_multiply_ffs(a), 0, 0};
  const int64_t tdsp = dsp_for_product(w, 64) + dsp_for_product(33, 20);
  // sin/cos: the slope between neighbouring quarter-wave entries fits 23 bits, so the
  // interpolation is one DSP48E2 (its low 17 bits) and three masked adds (inrarch_lane_sin).
  const int64_t sdsp = dsp_for_product(w, 64) + 1;
#define ELEMENTWISE(Name, code, lane, functor, dsp, lut, ff, table_words, table_width, depth) \
  if (op == ir::Op::Name) return {dsp, lut, ff, table_words, table_width};
#include "dataflow/elementwise.def"
  // Only elementwise processes have lanes, and every elementwise op has its row (elementwise.cpp).
  INRARCH_ASSERT(false, fmt::format("resources: {} is not an elementwise op", ir::op_name(op)));
  return {};
}

// A multiply-accumulate lane of an mm kernel besides its DSPs: the accumulator (2W + a few
// guard bits) and the operand registers; float/double: the cores' fabric share.
Usage mac_lane(const Arith& a) {
  const int64_t w = a.bits;
  if (a.kind == Arith::Fixed) return {dsp_per_mac(a), 0, 0, 2 * w + 8, 3 * w + 8};
  if (a.kind == Arith::Float) return {dsp_per_mac(a), 0, 0, 450, 650};
  return {dsp_per_mac(a), 0, 0, 1000, 1400};
}

Usage mac_lane(const Arith& a, int64_t a_bits, int64_t b_bits) {
  Usage u = mac_lane(a);
  if (a.kind == Arith::Fixed) u.dsp = dsp_for_product(a_bits, b_bits);
  return u;
}

// inrarch_mm_engine_aligned (docs/rtl.md, "The mm engine") and the A rows around it: L lanes
// in L / GS groups of GS = min(L, K), each group an adder tree of AW-bit sums (AW = a_bits +
// b_bits + ceil(log2 K) + 1, at most 64: the bits an element's sum can use), a register per
// node; the element sums, the route to the bc beat slots (its one-hot selects registered, a
// bit a slot and group), the fits and the beat, and the control down the pipeline (a few
// bits a stage). Per lane: the operand registers, the
// product's (a product split over DSP tiles: its fabric stages, inrarch_mul_dsp) and B's
// word read a cycle ahead. The kernel's two A rows are registers, each bit a LUT3 of
// load, shift and rotate. LUTs: a LUT a bit of every adder, the route's AND-OR (three
// select and data pairs a LUT6), a fit's saturation. Checked against Yosys (synth_xilinx
// -family xcup): nine mm instances of INSP width 32 at 24 x 18 bits, 16 lanes of K = 32
// and smaller forms, 36,316 FF and 28,871 LUT against 37,537 and 28,421 (docs/resources.md).
Usage aligned_mm_engine(int64_t lanes, int64_t inner, int64_t bc, int64_t w, int64_t a_bits, int64_t b_bits) {
  const int64_t group = std::min(lanes, inner), groups = lanes / group;
  int64_t aw = a_bits + b_bits + 1;
  while ((int64_t(1) << (aw - a_bits - b_bits - 1)) < inner) ++aw;
  aw = std::min<int64_t>(aw, 64);
  int64_t nodes = 0, levels = 0;  // the tree's registers, and its levels
  for (int64_t n = group; n > 1; n = (n + 1) / 2, ++levels) nodes += (n + 1) / 2;
  const bool split = dsp_for_product(a_bits, b_bits) > 1;
  const int64_t depth = 5 + levels + (split ? 4 : 1), a_rows = 2 * inner * a_bits;
  Usage u;
  u.dsp = lanes * dsp_for_product(a_bits, b_bits);
  // (+ per lane the high half's delay, per node its carry, per group the low half's delay)
  u.ff = lanes * (2 * a_bits + 3 * b_bits + aw / 2 + (split ? 224 : 0)) + groups * (nodes * (aw + 1) + aw * 3 / 2) +
         bc * ((groups + 17) / 18) * aw + bc * (2 * w + 3 + groups) + depth * (4 + groups + 4) + a_rows;
  u.lut = lanes * (split ? 100 : 0) + groups * group * aw + bc * ((groups + 2) / 3) * aw + bc * (w + aw / 6 + 2) +
          a_rows * 3 / 2;
  return u;
}

// The handshake and loop control every process has.
Usage process_control() { return {0, 0, 0, 60, 60}; }

namespace {

// LUTs a bit of a k-to-1 multiplexer: a LUT6 takes four words and two selects, MUXF7/F8
// join up to 16 (not LUTs), and wider ones are a tree of those.
int64_t mux_luts(int64_t k) { return k <= 1 ? 0 : (k + 3) / 4 + (k > 16 ? mux_luts((k + 15) / 16) : 0); }

int64_t counter_bits(int64_t n) { return std::bit_width(uint64_t(std::max<int64_t>(n, 1))); }

// LUTs a bit of inrarch_sum's choice among n of `all` words: a multiplexer on the index
// where it may be any, else an AND-OR with a compare a word (two words and their selects
// a LUT6, then an OR of those).
int64_t sum_select_luts(int64_t n, int64_t all) {
  if (n <= 1) return 0;
  if (n == all) return mux_luts(n);
  const int64_t first = (n + 2) / 3;
  return first + (first > 1 ? (first + 4) / 6 : 0);
}

// The address bits of a table of `lines` (none for one line: a constant).
int64_t line_bits(int64_t lines) { return lines > 1 ? counter_bits(lines - 1) : 0; }

// A table of `lines` lines read into a register, `bits` of them changing: a LUT6 ROM a bit
// per 64 lines, MUXF7/F8 joining up to four.
int64_t table_luts(int64_t lines, int64_t bits) { return lines > 1 ? bits * ((lines + 63) / 64) : 0; }

}  // namespace

// The entries that steer each position are registers read from a table a beat ahead, and
// Yosys keeps only their bits that change, so a position always taken from one word is
// wires. Against Yosys (`inrarch synth`'s classes, synth_xilinx -family xcup), tables kept
// to their period: INSP width 32 at 24 bits, six classes, 0.86-1.01 LUT and FF equal (a
// select 6 LUT / 8 FF, a cat of two 16-element streams 398 / 17); the NeRF MLP's four,
// 0.86-1.11 LUT and FF equal (its cat of 576 steps 169 / 99).
Usage gather_logic(const std::vector<int64_t>& sources, int64_t w, int64_t steps, const GatherTables& tables,
                   int64_t held, const std::vector<int64_t>& rings) {
  Usage u{0, 0, 0, 7,
          counter_bits(steps) + 3 + line_bits(tables.step_lines) + line_bits(tables.entry_lines) + tables.step_bits +
              tables.entry_bits + w * held};
  for (int64_t k : sources) u.lut += w * mux_luts(k);
  for (int64_t ring : rings)
    if (ring > 1) u.lut += ring, u.ff += counter_bits(ring - 1);
  u.lut += table_luts(tables.step_lines, tables.step_bits) + table_luts(tables.entry_lines, tables.entry_bits);
  return u;
}

// inrarch_sum, pruned by its layout's masks (docs/rtl.md §2): the accumulators that are ever
// loaded a flip-flop a bit, cleared by their synchronous reset and loaded through their
// enable, so a LUT a bit only where several elements store one (an AND-OR over their sums);
// each element that stores an add onto its accumulator, read through a selection of the
// accumulators it stores (sum_select_luts), and one more add and index compare for each
// element of its beat that shares its accumulator; an output position its accumulators'
// selection and its fit (a LUT a bit). The high halves' stage registers each element's
// high half, and each storing one's carry, its index where it has several accumulators, and
// whether it stores where it shares. An output position reads its accumulator into a
// register, through an index register of its own, and fits it into another (the kept bits,
// the two range flags and the saturation flag); the bits of the two steps ahead are
// registers too.
Usage sum_logic(const SumShape& s, int64_t steps, const GatherTables& tables) {
  const int64_t slot_bits = line_bits(s.ring), aw = s.acc_bits;
  Usage u{0, 0, 0, 7 + table_luts(tables.step_lines, tables.step_bits) + table_luts(tables.entry_lines, tables.entry_bits),
          counter_bits(steps + 3) + 3 + line_bits(tables.step_lines) + line_bits(tables.entry_lines) +
              3 * tables.step_bits + tables.entry_bits + s.bo * (slot_bits + aw + s.w + 3) + 1};
  for (int64_t n : s.acc_elems) u.ff += n > 0 ? aw : 0, u.lut += aw * sum_select_luts(n, s.bi);
  for (size_t e = 0; e < s.elem_accs.size(); ++e) {
    const int64_t n = s.elem_accs[e], k = e < s.elem_sharers.size() ? s.elem_sharers[e] : 0;
    u.ff += aw / 2;  // its high half, which a sharing element's chain may read
    if (n == 0) continue;
    u.ff += std::bit_width(uint64_t(k + 1)) + (n > 1 ? slot_bits : 0) + (k > 0 ? 1 : 0);  // carry, index, stores
    u.lut += aw * (n <= 2 ? 1 : 1 + sum_select_luts(n, s.ring)) + (n > 1 ? 2 * n : 0);
  }
  u.lut += s.chain_pairs * (aw + slot_bits);
  for (int64_t n : s.out_accs) u.lut += aw * sum_select_luts(n, s.ring) + s.w + (n > 1 ? n : 0);
  return u;
}

// A FIFO: depth <= 2 is a register pair, read through a 2:1 multiplexer a bit at depth 2
// (inrarch_fifo's ring; Yosys: width + 8 LUT, 2 width + 5 FF). Deeper, a RAM (memory.h)
// read into a register: in LUT RAM, its pointers (write, read, next read: AW bits each) and
// counts (CW bits each) cost, fitted to Yosys at 73 bits and depths 3-64, 7 AW + 4 LUT and
// width + 3 AW + 2 CW + 3 FF (depth 3: 64 LUT / 86 FF against the rule's 66 / 86; 38:
// 135 / 106 against 134 / 106; 64: 142 / 107 against 134 / 108); in block RAM, an address
// pair.
Usage fifo_usage(int64_t width_bits, int64_t depth) {
  if (depth <= kShiftRegisterDepth) return {0, 0, 0, 8 + (depth == 2 ? width_bits : 0), depth * width_bits + 4};
  if (depth <= kLutRamFifoDepth) {
    const int64_t aw = counter_bits(depth - 1), cw = counter_bits(depth);
    return {0, 0, 0, fifo_lutram_luts(width_bits, depth) + 7 * aw + 4, width_bits + 3 * aw + 2 * cw + 3};
  }
  return {0, fifo_bram18k(width_bits, depth), 0, 40, 2 * 16 + 8};
}

}  // namespace detail

}  // namespace inrarch::dataflow
