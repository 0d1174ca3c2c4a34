// report.json sections of the dataflow stage (nlohmann::json), shared by `analyze` and
// `compile`.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

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

// The analysis section, typed: what the compile flow reads, and what analysis_json writes.
struct Analysis {
  bool deadlock_free = false;
  std::optional<int64_t> latency_cycles;  // none on a deadlock
  int64_t peak_latency_cycles = 0;
  int64_t events = 0, fifo_ops = 0;       // of the graph resolved
  // How the batch was analysed: written by a prefix analysis and by the compile flow.
  struct Rows {
    std::optional<int64_t> rows;  // the batch (none: rows not independent)
    bool exact = true;            // every beat resolved
    std::string why_exact;
  };
  std::optional<Rows> rows;
  // A prefix analysis (periodic.h): latency = fill + floor((rows - 1) / period_rows) x
  // period; the three are none when exact or deadlocked.
  struct Prefix {
    int64_t rows_analysed = 0;
    std::optional<int64_t> period_cycles, period_rows, fill_cycles;
  };
  std::optional<Prefix> prefix;
};

// `r` is the resolve at the design's depths, peak the all-unbounded latency.
Analysis analysis_of(const EventGraph& eg, const Resolution& r, int64_t peak_latency);
// B rows analysed on a prefix: events and fifo_ops are the prefix's.
Analysis analysis_of(const RowAnalysis& final, const RowAnalysis& peak);
// {"deadlock_free", "peak_latency_cycles", "latency_cycles" (null on deadlock), "events",
//  "fifo_ops"}, with rows: {"rows", "exact", "why_exact"}, with prefix: {"rows_analysed",
//  "period_cycles", "period_rows", "fill_cycles"} (null when none).
nlohmann::json analysis_json(const Analysis& a);
nlohmann::json analysis_json(const EventGraph& eg, const Resolution& r, int64_t peak_latency);
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
nlohmann::json resources_json(const ResourceReport& r, const Design& d, const Part& part, const Budget& budget);
nlohmann::json usage_json(const Usage& u);

// The DSP-bound floor: ceil(multiplies / multiplies_per_cycle) cycles, and `latency` over it.
struct Floor {
  int64_t multiplies = 0, dsp_per_multiply = 0, multiplies_per_cycle = 0, cycles = 0;
  int64_t dsp_work = 0;  // the multiplies times their DSPs (narrow weights take fewer): cycles' numerator
  double latency_over_floor = 0;
};
Floor floor_of(const Design& d, const Part& part, const Arith& arith, int64_t latency);
// {"multiplies", "dsp_per_multiply", "multiplies_per_cycle", "dsp_work", "cycles", "latency_over_floor"}
nlohmann::json floor_json(const Floor& f);

// Fractions of the part a total uses (report.json's resources.utilisation).
struct Utilisation {
  double dsp = 0, bram18k = 0, uram = 0, lut = 0, ff = 0;
};
Utilisation utilisation(const Usage& total, const Part& part);

// {"seconds", "targets_checked", "evaluations", "slowest_other_cycles", "target_cycles",
//  "aligned_lanes": [kernel], "fits", "over", "mm_par": {kernel: P}, "front": [{target_cycles, latency_cycles, dsp,
//  bram18k, uram, lut, ff, fits}]}; `searched` is the design r was computed on (its
//  processes name the choice).
nlohmann::json dse_json(const DseResult& r, const Design& searched);

}  // namespace inrarch::dataflow
