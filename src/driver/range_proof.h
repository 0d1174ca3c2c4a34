// Whether every stream's value fits its fixed-point format for any input in the declared
// range (`compile --input-range LO,HI`): the static bounds of passes/value_bounds.h against
// each stream's range at its exponent (docs/hls.md, "Range safety").
//
// The exponents are chosen on samples of the range with a bit of headroom; a stream is
// proven when its interval bound over the whole box is below its format's limit,
// 2^(I-1-k) for ap_fixed<W,I> at exponent k. The bound is on the exact (real-valued)
// computation; the fixed-point one differs by its rounding error (the C simulation's
// measured error), which the headroom reported per stream can be read against.
#pragma once

#include <nlohmann/json.hpp>

#include "backend/hls/scaling.h"

namespace inrarch::driver {

// {"box": [lo, hi], "method": "interval", "rows_analysed", "streams", "proven",
//  "unbounded", "tightest": [{stream, bound, limit, headroom_bits}] (the five with the least
//  headroom; negative: not proven)}. Requires a fixed-point type and ho.input_range.
// `sc`: the design's exponents (hls::design_scaling).
nlohmann::json range_proof(const dataflow::Design& d, const ir::Bundle& b, const hls::HlsOptions& ho,
                           const hls::Scaling& sc);

}  // namespace inrarch::driver
