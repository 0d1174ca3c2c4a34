// FIFO sizing: sized designs are deadlock-free and within (1+alpha) of peak; `min` beats
// `paper`; event graph and simulator agree on INSP designs too.
#include <gtest/gtest.h>

#include <random>

#include "autodiff/models.h"
#include "dataflow/event_graph.h"
#include "dataflow/fifo_sizing.h"
#include "dataflow/lower.h"
#include "dataflow/verify.h"
#include "dataflow/simulate.h"

namespace inrarch::dataflow {
namespace {

ir::Graph small_insp(int order, int64_t batch, int64_t width) {
  autodiff::SirenSpec spec;
  spec.dims = {2, width, width, 3};
  spec.batch = batch;
  return autodiff::build_insp_graph(spec, order);
}

void expect_sized(EventGraph& eg, FifoMethod m, double alpha, const std::string& what,
                  bool greedy_start = true) {
  SizingOptions o;
  o.method = m;
  o.alpha = alpha;
  o.min_greedy_start = greedy_start;
  SizingResult r = size_fifos(eg, o);
  ASSERT_FALSE(r.deadlock) << what;
  EXPECT_LE(double(r.latency), (1 + alpha) * double(r.peak_latency)) << what;
  // Independent check of the final depths by the simulator.
  SimResult s = simulate(eg.design(), eg.programs(), r.depths);
  EXPECT_FALSE(s.deadlock) << what;
  EXPECT_EQ(s.latency, r.latency) << what;
  for (int64_t d : r.depths) EXPECT_GE(d, 2) << what;
  // The sized design passes the design verifier.
  Design sized = eg.design();
  sized.set_depths(r.depths);
  EXPECT_NO_THROW(verify(sized, "FIFO sizing")) << what;
}

TEST(Sizing, InspSmallPaperAndMin) {
  for (Fanout f : {Fanout::Star, Fanout::Chain}) {
    LowerOptions lo;
    lo.fanout = f;
    Design d = lower(small_insp(1, 4, 8), lo);
    EventGraph eg(d);
    EXPECT_TRUE(eg.resolve(std::vector<int64_t>(d.streams.size(), 2)).deadlock);
    expect_sized(eg, FifoMethod::Paper, 0.01, "paper");
    expect_sized(eg, FifoMethod::Min, 0.01, "min");
    expect_sized(eg, FifoMethod::Min, 0.0, "min alpha 0");
    SizingOptions o;
    o.method = FifoMethod::Paper;
    int64_t paper_bits = size_fifos(eg, o).memory.fifo_bits;
    o.method = FifoMethod::Min;
    EXPECT_LE(size_fifos(eg, o).memory.fifo_bits, paper_bits);
    expect_sized(eg, FifoMethod::Min, 0.01, "min from unbounded only", false);
    o.method = FifoMethod::None;
    EXPECT_TRUE(size_fifos(eg, o).deadlock);
  }
}

// Depths sized for one parallelism, offered to the same graph at another: taken when a
// resolve shows them safe within the bound, else sized afresh; all-2 depths (which
// deadlock here) are never taken.
TEST(Sizing, ReuseOnlyWhatStillHolds) {
  Design fast = lower(small_insp(1, 4, 8));
  EventGraph eg(fast);
  SizingOptions o;
  SizingResult first = size_fifos(eg, o);
  o.reuse = first.depths;
  SizingResult again = size_fifos(eg, o);
  EXPECT_TRUE(again.reused);
  EXPECT_EQ(again.depths, first.depths);
  EXPECT_EQ(again.resolves, 3);  // peak, the check, the final resolve
  o.reuse.assign(fast.streams.size(), 2);
  SizingResult fresh = size_fifos(eg, o);
  EXPECT_FALSE(fresh.reused);
  EXPECT_FALSE(fresh.deadlock);
  EXPECT_NE(fresh.depths, o.reuse);
}

TEST(Sizing, RandomGraphsStayWithinBound) {
  std::mt19937 rng(99);
  for (int i = 0; i < 40; ++i) {
    ir::Graph g;
    int64_t n = std::uniform_int_distribution<int>(2, 6)(rng);
    ir::NodeId x = g.input("x", {n, n});
    ir::NodeId a = g.unary(ir::Op::Cos, x);
    ir::NodeId b = g.mm(x, g.param("w", {n, n}));
    ir::NodeId c = g.mm(g.transpose(a), b);
    g.add_output("y", g.binary(ir::Op::Mul, c, i % 2 ? a : g.unary(ir::Op::Sin, x)));
    g.add_output("z", b);
    Design d = lower(g);
    EventGraph eg(d);
    expect_sized(eg, FifoMethod::Paper, 0.05, "paper " + std::to_string(i));
    expect_sized(eg, FifoMethod::Min, 0.05, "min " + std::to_string(i));
  }
}

// The event graph and the simulator on INSP designs (chain and star fan-out), at several depth
// vectors: all 2 (deadlocks), unbounded, paper's, and random.
class InspAgreement : public ::testing::TestWithParam<std::tuple<int, int64_t, int64_t>> {};

void expect_insp_agreement(const Design& d) {
  EventGraph eg(d);
  std::mt19937 rng(5);
  std::vector<std::vector<int64_t>> cases{std::vector<int64_t>(d.streams.size(), 2),
                                          std::vector<int64_t>(d.streams.size(), kUnbounded)};
  SizingOptions o;
  o.method = FifoMethod::Paper;
  cases.push_back(size_fifos(eg, o).depths);
  for (int k = 0; k < 5; ++k) {
    std::vector<int64_t> v;
    for (size_t s = 0; s < d.streams.size(); ++s)
      v.push_back(std::uniform_int_distribution<int>(1, 40)(rng));
    cases.push_back(v);
  }
  int deadlocks = 0;
  for (size_t i = 0; i < cases.size(); ++i) {
    Resolution r = eg.resolve(cases[i]);
    SimResult s = simulate(d, eg.programs(), cases[i]);
    EXPECT_EQ(r.deadlock, s.deadlock) << i;
    EXPECT_EQ(r.latency, s.latency) << i;
    EXPECT_EQ(eg.observed_depths(), s.observed) << i;
    EXPECT_EQ(eg.steps_done(), s.steps_done) << i;
    deadlocks += r.deadlock;
  }
  EXPECT_GE(deadlocks, 1);
}

TEST_P(InspAgreement, EventGraphEqualsSimulator) {
  auto [order, batch, width] = GetParam();
  for (Fanout f : {Fanout::Chain, Fanout::Star}) {
    LowerOptions lo;
    lo.fanout = f;
    SCOPED_TRACE(f == Fanout::Chain ? "chain" : "star");
    expect_insp_agreement(lower(small_insp(order, batch, width), lo));
  }
}

INSTANTIATE_TEST_SUITE_P(Insp, InspAgreement,
                         ::testing::Values(std::make_tuple(1, 8, 4), std::make_tuple(2, 2, 4),
                                           std::make_tuple(1, 4, 16), std::make_tuple(2, 3, 8)));

// The mirrored graph's times are tail + 1: its latency equals the original's.
TEST(EventGraph, MirrorHasSameLatency) {
  Design d = lower(small_insp(1, 2, 4));
  EventGraph eg(d);
  EventGraph m = eg.mirrored();
  std::vector<int64_t> unb(d.streams.size(), kUnbounded);
  EXPECT_EQ(eg.resolve(unb).latency, m.resolve(unb).latency);
  SizingOptions o;
  o.method = FifoMethod::Paper;
  std::vector<int64_t> p = size_fifos(eg, o).depths;
  EXPECT_EQ(eg.resolve(p).latency, m.resolve(p).latency);
}

}  // namespace
}  // namespace inrarch::dataflow
