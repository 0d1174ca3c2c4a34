// Chain fan-out ordered by consumer lag, and what it buys FIFO sizing.
//
// x is an [m, m] input (n = m*m beats, one per cycle, row by row). It is read by four
// consumers, created in this order:
//   s = sum(x, rows)                     lag 0
//   a = x * expand(s)                    lag ~m (row r's sum exists once row r is read)
//   b = x * expand(sum(a, rows))         lag ~2m
//   e = sin(x), then two transposes      lag 0; the transposes (full buffers, ~n cycles
//                                        each) make e the critical path: it must not wait.
// Star (one copy): s and e read at once, so the copy's FIFOs to a and b hold ~m and ~2m
// beats: ~3m. In creation order a chain would end with e, so every copy would have to
// fire at lag 0: ~m + ~2m again. In lag order ({s, e} in lock step share the first copy;
// then a, b) the link between the two copies holds ~m and the second copy's FIFO to b the
// remaining ~m: ~2m beats. Every other stream can stay at depth 2.
#include <gtest/gtest.h>

#include "dataflow/elementwise.h"
#include "dataflow/event_graph.h"
#include "dataflow/fifo_sizing.h"
#include "dataflow/lower.h"
#include "dataflow/schedule.h"
#include "dataflow/verify.h"

namespace inrarch::dataflow {
namespace {

constexpr int64_t kM = 16;

ir::Graph lagged_fanout() {
  ir::Graph g;
  ir::NodeId x = g.input("x", {kM, kM});
  auto row_sums = [&](ir::NodeId v) { return g.expand(g.sum(v, {1}, true), {kM, kM}); };
  ir::NodeId a = g.binary(ir::Op::Mul, x, row_sums(x));
  g.add_output("b", g.binary(ir::Op::Mul, x, row_sums(a)));
  g.add_output("e", g.transpose(g.transpose(g.unary(ir::Op::Sin, x))));
  return g;
}

SizingResult sized(const Design& d, FifoMethod m) {
  verify(d, "lower");
  EventGraph eg(d);
  SizingOptions o;
  o.method = m;
  SizingResult r = size_fifos(eg, o);
  Design at = d;
  at.set_depths(r.depths);
  verify(at, "FIFO sizing");
  return r;
}

// The consumers a copy process feeds (not counting the next copy of a chain).
std::vector<std::string> fed_by(const Design& d, const std::string& copy) {
  ProcessId c = d.find_process(copy);
  std::vector<std::string> out;
  if (c < 0) return out;
  for (StreamId s : d.processes[c].outputs)
    if (d.processes[d.streams[s].consumer].kind != Kind::Copy)
      out.push_back(d.processes[d.streams[s].consumer].name);
  return out;
}

TEST(Fanout, ChainFollowsConsumerLag) {
  Design d = lower(lagged_fanout());  // default: chain
  using V = std::vector<std::string>;
  EXPECT_EQ(fed_by(d, "copy_in_x"), (V{"sum_1", "sin_7"}));   // lag 0, in lock step
  EXPECT_EQ(fed_by(d, "copy_in_x_1"), (V{"mul_3", "mul_6"}));  // lags ~m, ~2m
  EXPECT_EQ(d.find_process("copy_in_x_2"), -1);
}

TEST(Fanout, MinBeatsPaperWhenChainOrderMatters) {
  LowerOptions star;
  star.fanout = Fanout::Star;
  SizingResult paper = sized(lower(lagged_fanout(), star), FifoMethod::Paper);
  Design chain = lower(lagged_fanout());
  SizingResult min = sized(chain, FifoMethod::Min);
  ASSERT_FALSE(min.deadlock);
  // Hand-derived: star needs about m + 2m beats on x's copy, the lag-ordered chain 2m (plus
  // the pipelines on the lag path: the two multiplies' steps and the two row sums' write
  // lags); every other stream 2.
  auto others = [](const Design& d) { return 2 * (int64_t(d.streams.size()) - 2); };
  EXPECT_GE(paper.memory.total_depth, 3 * kM + others(lower(lagged_fanout(), star)));
  EXPECT_LE(min.memory.total_depth, 2 * kM + 2 * elementwise_depth(ir::Op::Mul, 32) + 2 * kSumWriteLag + others(chain));
  EXPECT_LT(min.memory.fifo_bits, paper.memory.fifo_bits);
  // The same chain's paper run buffers like the star (it pins the links first).
  EXPECT_GE(sized(chain, FifoMethod::Paper).memory.total_depth, 3 * kM + others(chain));
}

}  // namespace
}  // namespace inrarch::dataflow
