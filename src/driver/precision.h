// The narrowest fixed-point type that meets an error bound (`compile --max-error E`).
//
// A narrower type is cheaper everywhere: a product of operands up to 18 bits is one DSP48E2,
// up to 27 bits two, 32 bits four (dataflow/resources.h), so the DSP floor and the
// parallelism the search can afford move with it. The error is what the generated HLS code
// computes: the sequential C simulation against the reference interpreter, as in
// `inrarch precision-sweep` (FIFO depths and parallelism do not change a sequential
// simulation's numbers, so the design as lowered, unsized, serves).
#pragma once

#include <filesystem>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "backend/hls/hls.h"
#include "ir/bundle.h"

namespace inrarch::driver {

struct PrecisionChoice {
  hls::NumberType type;
  int weight_bits = 0;    // an mm's weights (LowerOptions::weight_bits); 0: type's width
  // {"max_error", "tried": [{type, weight_bits, dsp_per_mac, max_abs_error, max_rel_error,
  //  max_scaled_error, pass}], "chosen", "weight_bits"}
  nlohmann::json report;
};

// The (W, weight bits) pairs tried: fixed<W,I> for W in 18, 20, 24, 27 below `widest`'s
// width and `widest` itself (I from `widest`), each with the weights at W and, below W, at
// 18 bits (weight_bits > 0: at that instead), cheapest first: by the DSPs of an mm's
// product (W x weight bits), then of a product of two streams (W x W), then narrowest.
// At fixed<32,10>: 18/18, 20/18, 24/18, 27/18, 20, 24, 27, 32/18, 32.
std::vector<std::pair<hls::NumberType, int>> precision_candidates(const hls::NumberType& widest, int weight_bits);

// Tries precision_candidates in order and returns the first whose max scaled error is at
// most max_error (scaled as the HLS code will be emitted: `sweep`'s pow2_scaling and
// input_range). Throws inrarch::Error when none does, or when `widest` is not fixed point.
// Work folders go under `work` and are removed.
PrecisionChoice choose_precision(const ir::Bundle& b, const hls::NumberType& widest, int weight_bits,
                                 double max_error, const hls::SweepOptions& sweep, const std::filesystem::path& work,
                                 const std::function<void(const std::string&)>& progress);

}  // namespace inrarch::driver
