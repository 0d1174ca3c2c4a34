// Power-of-two scaling of fixed-point streams, fixed at compile time.
//
// One ap_fixed<W,I> for every value wastes its fraction bits on the small ones: in INSP the
// backward chains carry values near 1e-5 (the seed 1/189 times the last layer's weights),
// about a hundred LSBs of ap_fixed<32,10>, so they arrive with a few per cent of error.
// Here every stream gets an exponent k (the kernel stores value * 2^k) chosen from the
// value range the reference interpreter sees on the bundle's inputs, keeping `margin_bits`
// of headroom below the type's range; constant operands (ROMs, splats) get their own
// exponents the same way. Kernels realign with shifts in their wide accumulators (free in
// hardware), so the number type stays data_t everywhere.
//
// Rules: data-movement processes (copy, gather, transpose, permute) keep one exponent for
// all their streams (union-find); top-level ports (sources, sinks) carry true values
// (k = 0); every arithmetic kernel converts between its operands' and its output's
// exponents. Types other than fixed point get no scaling (all zero).
#pragma once

#include <vector>

#include "backend/hls/hls.h"

namespace inrarch::hls {

// Headroom bits below the type's range: for exponents chosen on the bundle's own inputs,
// and on samples of a declared input range (HlsOptions::input_range).
inline constexpr int kBundleMarginBits = 3;
inline constexpr int kRangeMarginBits = 1;
// For narrow weights (Operand::rom_elem_bits): their values are the ROM's, not a sample of
// the inputs', so no headroom is needed but the bit that keeps the rounded max below 2^(I-1).
inline constexpr int kNarrowRomMarginBits = 1;

struct Scaling {
  std::vector<int> stream_exp;                // per stream: stored = value * 2^k
  std::vector<std::vector<int>> operand_exp;  // per process, per operand slot (streams too)
  bool any() const;                           // some exponent is not zero
  static Scaling none(const dataflow::Design& d);  // every exponent zero
};

// Exponents for design d on bundle b's inputs (values from the reference interpreter).
// `evaluate` (empty: ir::evaluate_visit) may visit a node once per block of rows.
Scaling compute_scaling(const dataflow::Design& d, const ir::Bundle& b, const NumberType& type,
                        int margin_bits = kBundleMarginBits, const ir::VisitEvaluator& evaluate = {});

// The exponents emit_hls uses for design d under `opt`: none without pow2_scaling, else on
// samples of opt.input_range (kRangeMarginBits) or on the bundle's inputs (kBundleMarginBits).
Scaling design_scaling(const dataflow::Design& d, const ir::Bundle& b, const HlsOptions& opt);

// The bundle with every input replaced by samples of [lo, hi] (same shapes): along the
// last dim d, rows cycle through the 2^d corners of the box (d <= 16), then uniform random
// points with a fixed seed, so the exponents cover the range rather than one input set.
ir::Bundle calibration_bundle(const ir::Bundle& b, double lo, double hi);

// The exponent that puts max|v| = magnitude just under 2^(I-1-margin) (0 for 0).
int scale_exponent(double magnitude, const NumberType& type, int margin_bits);

}  // namespace inrarch::hls
