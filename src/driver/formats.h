// The number formats a fixed-point design computes in (report.json `precision.formats`,
// docs/report.md): every stream's and every constant operand's format as the value it
// holds (a stream stored at exponent k in fixed<W,I> holds values of fixed<W, I-k>; a
// narrow ROM has its own W), a count of streams per format, and each MAC kernel's product
// widths with the DSP48E2s one product takes (dataflow::dsp_per_product, what the resource
// model and the floor count).
#pragma once

#include <nlohmann/json.hpp>

#include "backend/hls/scaling.h"
#include "dataflow/resources.h"

namespace inrarch::driver {

// {"type", "streams": {name: format}, "by_format": {format: streams}, "constants":
//  {"process.operand": format}, "products": {kernel: {a_bits, b_bits, dsp}}}. Fixed point only.
nlohmann::json number_formats(const dataflow::Design& d, const hls::NumberType& type, const hls::Scaling& sc,
                              const dataflow::Arith& arith);

}  // namespace inrarch::driver
