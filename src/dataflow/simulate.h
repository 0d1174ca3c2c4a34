// An independent cycle-stepped simulator of a design: at every cycle each process tries to
// fire its next step against the current FIFO contents. It shares only the kernel schedules
// with the event graph, and must agree with it exactly (latency, deadlock verdict, observed
// depths, steps fired) — two implementations of one timing semantics:
//   - a step fires at the first cycle >= (previous step's cycle + its delay) at which all its
//     ops are enabled;
//   - a read is enabled when the FIFO's head beat was written at least raw cycles ago
//     (raw = 1 for depth <= 2, else 2);
//   - a write is enabled when fewer than `depth` beats are in the FIFO, counting a beat read
//     in this very cycle as still there (its slot frees at the next cycle);
//   - the latency is the cycle of the last step fired.
#pragma once

#include <cstdint>
#include <vector>

#include "dataflow/design.h"
#include "dataflow/schedule.h"

namespace inrarch::dataflow {

struct SimResult {
  bool deadlock = false;
  bool timed_out = false;          // max_cycles reached
  int64_t latency = 0;             // cycle of the last step fired
  std::vector<int64_t> observed;   // per stream: max beats in the FIFO right after a write
  std::vector<int64_t> steps_done; // per process
  int64_t busy_cycles = 0;         // cycles at which some step fired
};

// Idle stretches (no process can fire until a known cycle) are skipped, not stepped
// through one by one; everything else advances one cycle at a time.
SimResult simulate(const Design& d, const std::vector<Program>& programs,
                   const std::vector<int64_t>& depths, int64_t max_cycles = INT64_MAX);

}  // namespace inrarch::dataflow
