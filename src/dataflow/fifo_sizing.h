// FIFO depth optimization (docs/dataflow.md §6).
//
//   none   every FIFO at depth 2; may deadlock (reported, not an error).
//   paper  the seed's greedy: peak = latency with no WAR edges (all unbounded); for each
//          stream in design order, constrain it to depth 2 and keep the constraint if the
//          latency stays <= (1+alpha)*peak without deadlock; then resolve with the kept
//          constraints (the rest unbounded) and set every depth to max(2, observed).
//   min    ours, same bound: alternate two certificates. The latest-start (ALAP) times for
//          the bound and the earliest (ASAP) times are both feasible schedules of the
//          current depths, so the depths each of them observes are safe for all streams at
//          once; take max(2, observed) under ALAP, then under ASAP, and repeat until no
//          FIFO shrinks. Start from all unbounded and (min_greedy_start, default) from
//          paper's greedy run with the copies' consumer-side outputs tried first, in groups
//          of streams that double while they fit (on a chain fan-out this leaves each lag
//          step to one link; greedy_fifo_ops bounds it); keep the start with fewer
//          BRAM18K, then fewer bits. Then, within shrink_fifo_ops, try depth 2 for the small
//          FIFOs in groups (halving a failing group), take FIFOs just above a BRAM18K step
//          below it, and shrink the largest FIFOs greedily (depth 2, else binary search),
//          each try checked by a bounded resolve; none of this raises BRAM18K. The shrink
//          phase's budget is a count of resolved FIFO ops: the result is reproducible. Nothing
//          guarantees min <= paper; the bench and tests measure it.
// Both sized results are checked by a final resolve: deadlock-free and latency <= bound.
//
// Speed: a try whose stream the current feasible schedule already keeps within depth 2 is
// accepted without resolving (the schedule certifies it); tries are resolved with an abort
// once any time exceeds the bound.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "dataflow/event_graph.h"
#include "dataflow/memory.h"

namespace inrarch::dataflow {

enum class FifoMethod { None, Paper, Min };
const char* method_name(FifoMethod m);
FifoMethod method_from_name(const std::string& s);  // throws inrarch::Error

struct SizingOptions {
  FifoMethod method = FifoMethod::Min;
  double alpha = 0.01;
  // A line at each phase and at most once a second ("fifo min: stream 12/80, ..."); the
  // caller prefixes and prints it. Empty: silent.
  std::function<void(const std::string&)> progress;
  // min: budget of the greedy shrinking after the certificates, in FIFO ops resolved (about
  // 2 s at the event graph's ~350 M ops/s); a count, so results are reproducible.
  int64_t shrink_fifo_ops = 700'000'000;
  // min: budget of the greedy start, in FIFO ops resolved (about 50 s here; INSP order 2
  // spends a third of it, order 3 all).
  int64_t greedy_fifo_ops = 20'000'000'000;
  // Depths from an earlier sizing of a design with the same streams (e.g. the same graph
  // at other parallelism): when they keep this one deadlock-free within the bound (one
  // resolve), they are the result and no sizing runs.
  std::vector<int64_t> reuse;
  bool min_greedy_start = true;  // min: also start from the copy-outputs-first greedy (costs
                                 // about one paper run; without it: many small FIFOs, each
                                 // >= 2 BRAM18K, and chain links that buffer like a star)
};

// One phase of a sizing (SizingResult::history): the depths after it, and why they are
// safe. The report draws these so a reader can see which phase made a FIFO deep.
struct SizingStep {
  std::string phase;  // short name: "peak", "alap 1", "greedy", "largest", "final", ...
  std::string why;    // one sentence for a person
  int64_t bits = 0, bram18k = 0;  // memory() of the depths after the phase
  int64_t deep_fifos = 0;         // FIFOs deeper than the register depth (RAMs)
  // Of the graph sized (its `rows`), when a resolve of exactly these depths gave it;
  // certificates and shrinks leave depths no resolve has seen, whose latency is only bounded.
  std::optional<int64_t> latency;
  int64_t rows = 0;      // rows of the graph the latency is for (0: rows not independent)
  int64_t resolves = 0;  // event-graph resolves spent so far
  double seconds = 0;    // since the sizing began
};

struct SizingResult {
  FifoMethod method = FifoMethod::Min;
  double alpha = 0.01;
  std::vector<int64_t> depths;     // final
  bool deadlock = false;           // final design deadlocks (only `none`, or a schedule cycle)
  Resolution final;                // resolve of the final depths
  int64_t peak_latency = 0;        // all unbounded
  int64_t bound = 0;               // floor((1+alpha) * peak)
  int64_t latency = 0;             // final
  std::vector<int64_t> unbounded_observed;  // observed depths with all unbounded
  bool reused = false;             // SizingOptions::reuse was taken as it was
  int64_t resolves = 0;            // event-graph resolves spent
  int64_t certified = 0;           // decisions taken from a certificate, no resolve
  double seconds = 0;
  MemoryReport memory;             // of the final depths
  std::vector<SizingStep> history;  // one step per phase; the last one is the result
  std::vector<int16_t> set_by;      // per stream: the history step that last changed its depth
};

// Sizes the FIFOs of eg's design. For Min, builds the mirrored graph too.
SizingResult size_fifos(EventGraph& eg, const SizingOptions& opt);

}  // namespace inrarch::dataflow
