// FIFO depths given by the user (`inrarch analyze --depths`).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "dataflow/design.h"

namespace inrarch::dataflow {

// "all=N" (N an integer or "unbounded"), or a JSON file {"stream": depth, ..., "all": N},
// optionally wrapped as {"depths": {...}} (report.json's fifo section). One depth per stream
// of `d`, 2 where none is given. A depth is "unbounded" or an integer from 1 to
// limits::kMaxFifoDepth (LimitError past that); errors name the file (or --depths).
std::vector<int64_t> read_depths(const Design& d, const std::string& spec);

// The JSON form from a file's text; errors name `filename`.
std::vector<int64_t> depths_from_json_text(const Design& d, std::string_view text, std::string_view filename);

}  // namespace inrarch::dataflow
