// What every process and FIFO does over one resolve of the event graph, in a bounded form
// for reports (the HTML report's Gantt chart and occupancy plots).
//
// The gap before each step of a process is `delay` cycles of work plus, when the step
// fired later than that, a stall on the op that held it: a read whose beat was written too
// recently (or not yet: the FIFO was empty) or a write whose FIFO was full (the read that
// frees the slot came later). The stall comes first and the work last, so a step's work ends
// when it fires. After its last step a process is done; on a deadlock, a process that did
// not finish is stalled from its last step to the end on the op it is blocked on.
//
// Sizes are bounded by the caller: the run is cut into at most `bins` bins, and occupancy
// is kept for the streams asked for only.
#pragma once

#include <cstdint>
#include <vector>

#include "dataflow/event_graph.h"

namespace inrarch::dataflow {

struct ProcessActivity {
  int64_t busy = 0, stall_read = 0, stall_write = 0;  // cycles over the run
  // Cycles of each bin spent busy / stalled on a read / stalled on a write.
  std::vector<uint32_t> busy_bins, read_bins, write_bins;
};

struct Activity {
  int64_t end = 0;         // cycles shown: [0, end); the latency + 1 (a step fires at its time)
  int64_t bin_cycles = 1;  // every bin but the last is this long
  int64_t bins = 0;
  std::vector<ProcessActivity> processes;  // by ProcessId
  int64_t bin_length(int64_t b) const;     // cycles in bin b
};

// From eg's last resolve, which ran at `depths` (one per stream). `bins` >= 1.
Activity process_activity(const EventGraph& eg, const std::vector<int64_t>& depths, int64_t bins);

// The largest number of beats in stream s's FIFO during each bin of `a`, from eg's last
// resolve (a beat read in the cycle of a write still counts, as for observed depths).
std::vector<int64_t> occupancy_bins(const EventGraph& eg, StreamId s, const Activity& a);

}  // namespace inrarch::dataflow
