// report.json sections of the dataflow stage (nlohmann::json), shared by `analyze` and
// `compile`.
#pragma once

#include <nlohmann/json.hpp>

#include "dataflow/dse.h"
#include "dataflow/event_graph.h"
#include "dataflow/fifo_sizing.h"
#include "dataflow/periodic.h"
#include "dataflow/resources.h"

namespace inrarch::dataflow {

// {"processes": N, "streams": N, "kernels": {kind: n}, "block", "mm_par", "elem_bits",
//  "kernel_buffer_bits", "rom_bits", "mm_par_by_kernel": {kernel: P asked},
//  "mm_lanes_by_kernel": {kernel: MACs that work, min(P, bC*K)}}
nlohmann::json design_json(const Design& d);

// {"deadlock_free", "peak_latency_cycles", "latency_cycles" (null on deadlock), "events",
//  "fifo_ops"}; `r` is the resolve at the design's depths, peak the all-unbounded latency.
nlohmann::json analysis_json(const EventGraph& eg, const Resolution& r, int64_t peak_latency);

// The same section for B rows analysed on a prefix (periodic.h), plus {"rows",
// "rows_analysed", "exact", "period_cycles", "period_rows", "fill_cycles", "why_exact"}:
// latency_cycles is fill + floor((rows - 1) / period_rows) * period; events and fifo_ops
// are the prefix's.
nlohmann::json rows_analysis_json(const RowAnalysis& final, const RowAnalysis& peak);

// {"deadlock": bool, "latency_cycles": int|null, "cycle": [{"process", "step", "op",
//  "stream", "beat", "reads_done", "depth"}], "deepen": [{"stream", "min_depth"}]}
nlohmann::json deadlock_json(const Design& d, const Resolution& r);

// {"method", "alpha", "total_depth", "total_bits", "bram18k", "kernel_buffer_bits",
//  "rom_bits", "peak_latency_cycles", "latency_cycles", "deadlock", "resolves", "seconds",
//  "depths": {stream: depth}, "history": [{"phase", "why", "bits", "bram18k", "deep_fifos",
//  "latency_cycles" (null: not resolved), "rows", "resolves", "seconds"}], "set_by":
//  {stream: phase}}
nlohmann::json fifo_json(const Design& d, const SizingResult& s);

// {"part": {name, device, dsp, bram18k, uram, lut, ff, clock_mhz}, "budget": {dsp, bram,
//  uram, lut, ff}, "total": {dsp, bram18k, uram, lut, ff}, "utilisation": {...: fraction
//  of the part}, "by_kind": {kind: {...}}, "fits", "over", "on_chip_bits": {rom, buffers,
//  fifo, total}, "arrays_in_uram"}
nlohmann::json resources_json(const ResourceReport& r, const Part& part, const Budget& budget);
nlohmann::json usage_json(const Usage& u);

// {"multiplies", "dsp_per_multiply", "multiplies_per_cycle", "cycles", "latency_over_floor"}
nlohmann::json floor_json(const Design& d, const Part& part, const Arith& arith, int64_t latency);

// {"seconds", "targets_checked", "evaluations", "slowest_other_cycles", "target_cycles",
//  "fits", "over", "mm_par": {kernel: P}, "front": [{target_cycles, latency_cycles, dsp,
//  bram18k, uram, lut, ff, fits}]}; `searched` is the design r was computed on (its
//  processes name the choice).
nlohmann::json dse_json(const DseResult& r, const Design& searched);

}  // namespace inrarch::dataflow
