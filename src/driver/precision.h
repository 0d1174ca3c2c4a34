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

#include <nlohmann/json.hpp>

#include "backend/hls/hls.h"
#include "ir/bundle.h"

namespace inrarch::driver {

struct PrecisionChoice {
  hls::NumberType type;
  nlohmann::json report;  // {"max_error", "tried": [{type, max_abs_error, max_rel_error, pass}], "chosen"}
};

// Tries fixed<W,I> for W in 18, 20, 24, 27 below `widest`'s width, then `widest` itself
// (I from `widest`), narrowest first, and returns the first whose max abs error is at most
// max_error (scaled as the HLS code will be emitted: `sweep`'s pow2_scaling and
// input_range). Throws inrarch::Error when none does, or when `widest` is not fixed point.
// Work folders go under `work` and are removed.
PrecisionChoice choose_precision(const ir::Bundle& b, const hls::NumberType& widest, double max_error,
                                 const hls::SweepOptions& sweep, const std::filesystem::path& work,
                                 const std::function<void(const std::string&)>& progress);

}  // namespace inrarch::driver
