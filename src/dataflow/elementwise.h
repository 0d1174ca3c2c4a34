// The elementwise table (elementwise.def) as lookups: per elementwise op, the RTL lane code
// and module, the HLS operator, and (resources_rules.cpp) the cost of one lane. The back ends
// read an op's hardware here and nowhere else.
#pragma once

#include <cstdint>
#include <vector>

#include "dataflow/design.h"
#include "ir/ops.h"

namespace inrarch::dataflow {

struct ElementwiseRow {
  ir::Op op;
  int code;             // the lanes' OP parameter
  const char* lane;     // the SystemVerilog lane module
  const char* functor;  // the HLS kernel library's operator struct (namespace inrarch_hls)
};

// The row of an elementwise op; nullptr for any other op.
const ElementwiseRow* elementwise_row(ir::Op op);
// Every row, in elementwise.def's order.
const std::vector<ElementwiseRow>& elementwise_rows();

// A multiply the design puts in LUTs (LowerOptions::fabric_elementwise_mul, set by the search):
// a lane code and HLS operator of its own, on the same lane module as the DSP multiply.
inline constexpr ElementwiseRow kMulInFabric{ir::Op::Mul, 12, "inrarch_lane2", "op_mul_fabric"};

// What an elementwise process of d computes: its op's row, or kMulInFabric for a multiply
// of a design whose elementwise multipliers are in LUTs. Throws inrarch::Error naming the
// process when its op has no row.
const ElementwiseRow& elementwise_row(const Design& d, const Process& p);

// The digit recurrences' pipelines at w-bit elements (docs/rtl.md, "Pipelined lanes").
// Division (inrarch_lane_div): the operands, their magnitudes, the saturation test, w
// non-restoring stages (a quotient bit each, one carry chain), the signed quotient, the two
// fits' flags with the quotient between them, the result register. The square root
// (inrarch_lane_sqrt): the operand's range flags, the initial state, a register a root bit
// (at most min(w, 32) of them at any binary point: a radicand of w - 1 + S <= 64 bits,
// S <= w; fewer are padded), the result's range flags, the result register.
constexpr int64_t div_depth(int64_t w) { return w + 8; }
constexpr int64_t sqrt_depth(int64_t w) { return (w < 32 ? w : 32) + 4; }
// A product on DSP48E2s (inrarch_mul_dsp): one stage up to 18 bits (one DSP); wider, the
// 27 x 18 tiles' products, their middle sum and the final sum's two halves.
// An a x b product is one stage when it fits one DSP48E2 (27 x 18, either way round).
constexpr int64_t mul_dsp_depth(int64_t a, int64_t b) {
  return (a <= 18 && b <= 27) || (a <= 27 && b <= 18) ? 1 : 4;
}
constexpr int64_t mul_dsp_depth(int64_t w) { return mul_dsp_depth(w, w); }
// A multiply in the fabric (kMulInFabric; inrarch_mul_tree): the operands, a binary tree
// of adders over the w partial products (b sign-extended to an even count, padded to a
// power of two), one level a stage, two where its adder is wider than a stage holds (32 bits
// at level 1, which also forms the partial products; 40 above), then the fit's flags and the
// result register. 11 at 32 bits, 7 at 16.
constexpr int64_t mul_fabric_levels(int64_t w) {
  int64_t levels = 0;
  while ((int64_t{1} << levels) < w + w % 2) ++levels;
  return levels;
}
// The width of level k's adders (k = 1 … levels): the operands' high part, w + 2^(k-1) + 1.
constexpr int64_t mul_fabric_adder_bits(int64_t w, int64_t k) { return w + (int64_t{1} << (k - 1)) + 1; }
constexpr bool mul_fabric_level_split(int64_t w, int64_t k) { return mul_fabric_adder_bits(w, k) > (k == 1 ? 32 : 40); }
constexpr int64_t mul_fabric_depth(int64_t w) {
  int64_t stages = 3;
  for (int64_t k = 1; k <= mul_fabric_levels(w); ++k) stages += mul_fabric_level_split(w, k) ? 2 : 1;
  return stages;
}
static_assert(mul_fabric_depth(32) == 11 && mul_fabric_depth(16) == 7 && mul_fabric_depth(2) == 4);

// The pipeline depth of an elementwise op's kernel at `bits`-bit elements (elementwise.def's
// depth column; schedule.h): step i reads beat i and writes beat i - depth.
int64_t elementwise_depth(ir::Op op, int64_t bits);
// That of an elementwise process of d (at the design's elem_bits; a multiply in the fabric
// takes mul_fabric_depth). Throws as elementwise_row.
int64_t elementwise_depth(const Design& d, const Process& p);
// A kernel folded to C = ew_fold cycles a beat (schedule.h) reads a beat every C cycles and
// writes it S steps later: the first write step at least C - 1 + depth cycles after the read
// (its last chunk enters the lanes C - 1 cycles after the first and leaves `depth` later),
// S = ceil((C - 1 + depth) / C). depth itself when C = 1.
constexpr int64_t folded_steps(int64_t depth, int64_t fold) { return (fold - 1 + depth + fold - 1) / fold; }
static_assert(folded_steps(5, 1) == 5 && folded_steps(5, 4) == 2 && folded_steps(1, 2) == 1);
// The cycles such a kernel takes on its own over `beats` beats: 1 + (beats - 1 + S) * C.
constexpr int64_t folded_cycles(int64_t beats, int64_t depth, int64_t fold) {
  return 1 + (beats - 1 + folded_steps(depth, fold)) * fold;
}
// Whether a kernel of `block` elements a beat may take it in `fold` cycles: a power of two
// that divides the block.
constexpr bool fold_fits(int64_t block, int64_t fold) {
  return fold >= 1 && (fold & (fold - 1)) == 0 && block % fold == 0;
}
// The steps of an elementwise process: folded_steps(elementwise_depth(d, p), p.ew_fold).
int64_t elementwise_steps(const Design& d, const Process& p);

}  // namespace inrarch::dataflow
