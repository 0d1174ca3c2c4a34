// The mirrored event graph: all edges reversed. Resolving it gives, for every step, one plus
// the longest path from that step to the end of the original graph ("tail"), which is what
// the latest-start times ALAP(v) = bound - tail(v) of fifo_sizing's `min` need.
//
// Reversal, per process: steps s_0..s_{m-1} with delays d_0..d_{m-1} (d_i on the edge
// s_{i-1} -> s_i) become s_{m-1}..s_0 with delays 1, d_{m-1}, ..., d_1 (the edge s_i -> s_{i+1}
// reversed keeps its delay; the new first step starts at 1, so times are tail + 1). Reads
// and writes swap (write #n -> read #n reversed is the consumer "writing" first), producer
// and consumer swap, and beat n becomes beat N-1-n because both ends run backwards: RAW
// edges map to RAW edges and WAR edges (read #(n-d) -> write #n) to WAR edges of the same d.
#include "dataflow/event_graph.h"

namespace inrarch::dataflow {

namespace {

Program reverse_program(const Program& prog) {
  ProgramBuilder b;
  std::vector<FifoOp> ops;
  uint32_t next_delay = 1;  // delay of the step after the current one in the original
  for (size_t j = prog.runs.size(); j-- > 0;) {
    const Run& r = prog.runs[j];
    ops.assign(prog.ops.begin() + r.op_begin, prog.ops.begin() + r.op_begin + r.op_count);
    for (auto& op : ops) op.write = !op.write;
    b.step(next_delay, ops);
    b.steps(int64_t(r.count) - 1, r.delay, ops);
    next_delay = r.delay;
  }
  return b.take();
}

}  // namespace

EventGraph EventGraph::mirrored() const {
  Design d = design_;
  for (auto& p : d.processes) {
    std::swap(p.inputs, p.outputs);
    p.kind = Kind::Custom;  // its steps come from the reversed program, not a kernel model
  }
  for (auto& s : d.streams) std::swap(s.producer, s.consumer);
  std::vector<Program> progs;
  progs.reserve(programs_.size());
  for (const auto& p : programs_) progs.push_back(reverse_program(p));
  return EventGraph(d, std::move(progs));
}

}  // namespace inrarch::dataflow
