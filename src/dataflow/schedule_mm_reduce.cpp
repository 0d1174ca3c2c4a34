// The batch-reduction matrix product's steps (schedule.h, "mm_reduce"): rows of A and B read
// together, the MACs of a row overlapping the reads of the next, C written once at the end.
#include <fmt/format.h>

#include "dataflow/schedule.h"
#include "support/error.h"

namespace inrarch::dataflow {

MmReduceCadence mm_reduce_cadence(const Design& d, const Process& p) {
  const Stream& a = d.streams.at(p.operands.at(0).stream);
  const Stream& b = d.streams.at(p.operands.at(1).stream);
  const Stream& c = d.streams.at(p.outputs.at(0));
  const int64_t R = a.shape.at(0), K = a.shape.at(1), N = b.shape.at(1);
  return {R, std::max(K / a.block, N / b.block), K * N, c.beats()};
}

Program schedule_mm_reduce(const Design& d, const Process& p) {
  const StreamId a = p.operands.at(0).stream, b = p.operands.at(1).stream, c = p.outputs.at(0);
  INRARCH_ASSERT(a >= 0 && b >= 0, "mm_reduce " + p.name + " streams both operands");
  const MmReduceCadence cad = mm_reduce_cadence(d, p);
  if (p.mm_lanes < 1 || p.mm_lanes > cad.work)
    throw Error(fmt::format("schedule: mm_reduce {} has {} lanes, outside 1 to K*N = {} (set_mm_par keeps them there)",
                            p.name, p.mm_lanes, cad.work));
  const int64_t ra = d.streams[a].beats() / cad.rows, rb = d.streams[b].beats() / cad.rows;
  const int64_t both = std::min(ra, rb), S = cad.reads, T = cad.row(p.mm_lanes), W = cad.macs(p.mm_lanes);
  const FifoOp read_both[] = {{a, false}, {b, false}};
  const FifoOp read_longer[] = {{ra > rb ? a : b, false}};
  const FifoOp write[] = {{c, true}};
  ProgramBuilder pb;
  // Row r's reads, the first `first` cycles after the previous step (both >= 1: a row has a beat).
  auto read_row = [&](int64_t first) {
    pb.step(first, read_both);
    pb.steps(both - 1, 1, read_both);
    pb.steps(S - both, 1, read_longer);
  };
  read_row(1);
  for (int64_t r = 1; r < cad.rows; ++r) read_row(r == 1 ? 1 : T - S + 1);
  pb.step(cad.rows == 1 ? W + 1 : T + W - S + 1, write);
  pb.steps(cad.writes - 1, 1, write);
  return pb.take();
}

}  // namespace inrarch::dataflow
