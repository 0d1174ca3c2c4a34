// Deadlock explanation and automatic resolution by deepening FIFOs.
//
// A reported cycle is a chain of processes, each blocked on one FIFO op that waits for the
// next process: a read waits for the producer's write (RAW edge), a write to a full FIFO for
// the consumer's read #(n-d) (WAR edge). Only WAR edges depend on depths, so the streams
// written on the cycle are the ones to deepen; depth n - reads_done + 1 lets the blocked write
// fire. The next cycle may show up a few beats later (paper Fig. 5: each extra slot lets one
// more element through), so the automatic resolution at least doubles a depth per round.
#include <algorithm>
#include <sstream>

#include "dataflow/event_graph.h"
#include "support/error.h"

namespace inrarch::dataflow {

Resolution resolve_by_deepening(EventGraph& eg, std::vector<int64_t>& depths, int max_rounds) {
  Resolution r;
  for (int round = 0; round < max_rounds; ++round) {
    r = eg.resolve(depths);
    if (!r.deadlock || r.deepen.empty()) return r;
    for (const auto& dp : r.deepen) {
      int64_t cur = depths[dp.stream];
      int64_t cap = eg.design().streams[dp.stream].beats();
      depths[dp.stream] = std::min(std::max(dp.min_depth, cur * 2), std::max<int64_t>(cap, dp.min_depth));
    }
  }
  return r;
}

std::string explain_deadlock(const Design& d, const Resolution& r) {
  if (!r.deadlock) return "no deadlock";
  std::ostringstream os;
  os << "deadlock: a cycle of " << r.cycle.size() << " processes, each waiting for the next:\n";
  for (const auto& b : r.cycle) {
    const Stream& s = d.streams[b.stream];
    const std::string& who = d.processes[b.process].name;
    if (b.write) {
      os << "  " << who << " (step " << b.step << ") writes " << s.name << " #" << b.beat
         << ": full (depth " << b.depth << ", " << b.reads_done << " read), waits for "
         << d.processes[s.consumer].name << "\n";
    } else {
      os << "  " << who << " (step " << b.step << ") reads " << s.name << " #" << b.beat
         << ": empty, waits for " << d.processes[s.producer].name << "\n";
    }
  }
  if (r.deepen.empty()) {
    os << "no FIFO on the cycle is full: no depth resolves it (a schedule-order cycle)\n";
  } else {
    os << "deepen one of:\n";
    for (const auto& dp : r.deepen)
      os << "  " << d.streams[dp.stream].name << " to >= " << dp.min_depth << "\n";
  }
  return os.str();
}

}  // namespace inrarch::dataflow
