// The parallelism search: per-kernel MACs (P of every mm) that minimise the design's
// latency under a device budget (docs/resources.md, "The search").
//
// The argument. Rows stream through every kernel, so a design runs at the pace of its
// slowest kernel: latency ~ max over processes of its own cycles + the pipeline fill. An
// mm's own cycles fall with P: base + (rows-1)*max(C, A's beats a row) + C, C =
// ceil(beats*bC*K/P) MAC cycles a row (its schedule, MmCadence), so for a target T each
// mm has a least P that meets T, and any more would be wasted on a kernel that waits for its neighbours. The search therefore
// walks the targets T that some mm can hit exactly, fastest first, gives every mm its
// least P for T (the balanced design for T), and takes the first whose resources fit the
// budget (resources.h). The other kernels stream one beat a cycle and an mm writes at most
// one beat a cycle, so T never goes below the slowest of those limits: past it no P buys
// anything. The event graph (the model every later stage uses) then gives the latency of
// the chosen design and of a spread of slower ones, the latency-vs-DSP front.
// Deterministic: no clock or randomness decides anything.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "dataflow/attributes.h"
#include "dataflow/design.h"
#include "dataflow/part.h"
#include "dataflow/resources.h"

namespace inrarch::dataflow {

struct DseOptions {
  Part part = parts().front();
  Budget budget;
  Arith arith;
  Usage reserve;        // resources kept out of the search's capacity (e.g. sized FIFOs)
  int front_points = 10;  // slower designs evaluated for the latency-vs-DSP front
  std::function<void(const std::string&)> progress;  // a line per phase
};

struct DsePoint {
  int64_t target_cycles = 0;  // T: every mm's own cycles are at most this
  int64_t latency = 0;        // event graph, all FIFOs unbounded (peak)
  Usage use;                  // FIFOs at depth 2
  bool fits = false;
};

struct DseResult {
  // The choice: every mm kernel's P and every folded elementwise kernel's cycles a beat
  // (fold_elementwise), by process of the design searched, and the multiplier binding
  // (prefer_fabric_mul). apply_parallelism puts it on that design,
  // carry_parallelism on another lowering of the same graph (attributes.h).
  Parallelism choice;
  DsePoint chosen;
  std::vector<DsePoint> front;   // evaluated designs, fastest target first (chosen included)
  int64_t slowest_other = 0;     // cycles of the slowest non-mm process: T's lower limit
  int64_t targets_checked = 0;   // balanced designs costed
  std::vector<ProcessId> aligned_lanes;  // the mms whose P was rounded up to lanes aligned with K
  int64_t evaluations = 0;       // event-graph resolves
  bool fits = false;             // false: even P = 1 everywhere is over the budget
  std::string over;              // then: the first resource over it
  double seconds = 0;
};

// Searches the mm parallelism of `d` (any mm_par; other kernels are left as they are). The
// result is keyed by d's processes.
DseResult search_parallelism(const Design& d, const DseOptions& opt);

// Whether the design's elementwise multipliers should be LUTs rather than DSPs: an
// elementwise kernel streams one beat a cycle, so its multiplier idles most of the time
// while DSPs bound the mm parallelism, and LUTs are plentiful. Yes when the design with
// every mm at P = 1 and fabric multipliers, plus the LUTs of as many MAC lanes as the DSP
// budget allows, stays within the LUT capacity, and there is an elementwise multiply.
bool prefer_fabric_mul(const Design& d, const DseOptions& opt);

// The cycles a process takes on its own (the sum of its steps' delays).
int64_t own_cycles(const Design& d, ProcessId p);

// Folds the elementwise kernels of d whose lanes are worth sharing (they hold a DSP, a lookup
// table or more LUTs than 8 a bit: a digit recurrence, a multiply in the fabric) to the
// most cycles a beat C (a power of two dividing the block, Process::ew_fold) at which the
// kernel's own cycles, 1 + (beats - 1 + elementwise_steps) * C, stay within `target`: a
// kernel that keeps pace with the mms needs no more lanes. Every other elementwise kernel
// gets C = 1. The search does this for every target it balances.
void fold_elementwise(Design& d, int64_t target, const Arith& a);

// d's latency with every FIFO unbounded (the search's measure of a design); -1 on deadlock.
int64_t peak_latency(const Design& d);

}  // namespace inrarch::dataflow
