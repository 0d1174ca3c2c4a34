// report.json sections of the dataflow stage (nlohmann::json), shared by `analyze` and
// `compile`.
#pragma once

#include <nlohmann/json.hpp>

#include "dataflow/event_graph.h"
#include "dataflow/fifo_sizing.h"

namespace inrarch::dataflow {

// {"processes": N, "streams": N, "kernels": {kind: n}, "block", "mm_par", "elem_bits",
//  "kernel_buffer_bits", "rom_bits"}
nlohmann::json design_json(const Design& d);

// {"deadlock_free", "peak_latency_cycles", "latency_cycles" (null on deadlock), "events",
//  "fifo_ops"}; `r` is the resolve at the design's depths, peak the all-unbounded latency.
nlohmann::json analysis_json(const EventGraph& eg, const Resolution& r, int64_t peak_latency);

// {"deadlock": bool, "latency_cycles": int|null, "cycle": [{"process", "step", "op",
//  "stream", "beat", "reads_done", "depth"}], "deepen": [{"stream", "min_depth"}]}
nlohmann::json deadlock_json(const Design& d, const Resolution& r);

// {"method", "alpha", "total_depth", "total_bits", "bram18k", "kernel_buffer_bits",
//  "rom_bits", "peak_latency_cycles", "latency_cycles", "deadlock", "resolves", "seconds",
//  "depths": {stream: depth}}
nlohmann::json fifo_json(const Design& d, const SizingResult& s);

}  // namespace inrarch::dataflow
