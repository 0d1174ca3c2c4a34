// The seed paper's two deadlock examples (Fig. 5 and Fig. 6) and a hand-timed chain, with
// expectations derived by hand from the kernel models in schedule.h.
#include <gtest/gtest.h>

#include "dataflow/event_graph.h"
#include "dataflow/lower.h"
#include "dataflow/simulate.h"

namespace inrarch::dataflow {
namespace {

// Fig. 6: producer writes A0 A1 A2 then B0; consumer reads B0 then A0 A1 A2.
Design fig6() {
  Design d;
  Process prod, cons;
  prod.name = "producer";
  cons.name = "consumer";
  d.add_process(prod);
  d.add_process(cons);
  StreamId a = d.add_stream(Stream{"A", 0, 1, 0, {3}, 1, 2, 32});
  StreamId b = d.add_stream(Stream{"B", 0, 1, 0, {1}, 1, 2, 32});
  for (int i = 0; i < 3; ++i) d.processes[0].custom_steps.push_back({1, {{a, true}}});
  d.processes[0].custom_steps.push_back({1, {{b, true}}});
  d.processes[1].custom_steps.push_back({1, {{b, false}}});
  for (int i = 0; i < 3; ++i) d.processes[1].custom_steps.push_back({1, {{a, false}}});
  return d;
}

TEST(PaperFig6, DeadlocksAtDepthTwoAndNeedsThree) {
  Design d = fig6();
  EventGraph eg(d);
  Resolution r = eg.resolve({2, 2});
  ASSERT_TRUE(r.deadlock);
  // The cycle: producer blocked writing A #2 (0 of A read), consumer blocked reading B #0.
  ASSERT_EQ(r.cycle.size(), 2u);
  ASSERT_EQ(r.deepen.size(), 1u);
  EXPECT_EQ(r.deepen[0].stream, 0);
  EXPECT_EQ(r.deepen[0].min_depth, 3);
  for (const auto& b : r.cycle) {
    if (b.process == 0) {
      EXPECT_TRUE(b.write);
      EXPECT_EQ(b.beat, 2);
      EXPECT_EQ(b.step, 2);
    } else {
      EXPECT_FALSE(b.write);
      EXPECT_EQ(b.stream, 1);
      EXPECT_EQ(b.beat, 0);
    }
  }
  EXPECT_NE(explain_deadlock(d, r).find("A to >= 3"), std::string::npos);
  // Depth 3: producer writes at 1,2,3 (A) and 4 (B); consumer reads B at 4+1 and A0 at
  // max(6, 1+2) = 6 (raw 2 at depth 3), A1 7, A2 8.
  Resolution ok = eg.resolve({3, 2});
  EXPECT_FALSE(ok.deadlock);
  EXPECT_EQ(ok.latency, 8);
  EXPECT_EQ(eg.observed_depth(0), 3);
  std::vector<int64_t> depths{2, 2};
  Resolution auto_fix = resolve_by_deepening(eg, depths);
  EXPECT_FALSE(auto_fix.deadlock);
  EXPECT_EQ(depths[0], 3);  // doubled to 4, capped at the 3 beats of A
  EXPECT_TRUE(simulate(d, schedule_all(d), {2, 2}).deadlock);
  EXPECT_EQ(simulate(d, schedule_all(d), {3, 2}).latency, 8);
}

// Fig. 5: x feeds mm (B operand: buffered whole) and cos; mul joins them.
Design fig5(int64_t n) {
  ir::Graph g;
  ir::NodeId x = g.input("x", {n, 1});
  ir::NodeId w = g.param("w", {n, n});
  ir::NodeId m = g.mm(w, x);
  ir::NodeId c = g.unary(ir::Op::Cos, x);
  g.add_output("y", g.binary(ir::Op::Mul, m, c));
  return lower(g);
}

// With every FIFO at depth 2: cos (a pipeline of L = 18 steps, elementwise.def) writes its
// output #0 and #1, then blocks at step 20 writing #2 (mul waits for mm); it has read its
// input #0..#19; copy can then write x #0..#21 to both branches and blocks on cos's input
// #22. mm gets 22 elements: more than 22 deadlock (L + 4; with a one-step cos, as in the
// paper, 5).
TEST(PaperFig5, DeadlocksAtDepthTwoForMoreThanTwentyTwoElements) {
  for (int64_t n = 2; n <= 26; ++n) {
    Design d = fig5(n);
    EventGraph eg(d);
    Resolution r = eg.resolve(d.depths());
    EXPECT_EQ(r.deadlock, n > 22) << "n = " << n;
    EXPECT_EQ(simulate(d, schedule_all(d), d.depths()).deadlock, n > 22);
  }
}

TEST(PaperFig5, CycleAndCosBranchDeepening) {
  const int64_t n = 25;
  Design d = fig5(n);
  ASSERT_EQ(d.processes.size(), 6u);
  StreamId cos_in = d.find_stream("s_copy_in_x__cos_3");
  StreamId cos_out = d.find_stream("s_cos_3__mul_4");
  ASSERT_GE(cos_in, 0);
  ASSERT_GE(cos_out, 0);
  EventGraph eg(d);
  Resolution r = eg.resolve(d.depths());
  ASSERT_TRUE(r.deadlock);
  EXPECT_EQ(r.cycle.size(), 4u);  // copy -> cos -> mul -> mm -> copy
  ASSERT_EQ(r.deepen.size(), 2u);
  for (const auto& dp : r.deepen) {
    EXPECT_TRUE(dp.stream == cos_in || dp.stream == cos_out);
    EXPECT_EQ(dp.min_depth, 3);  // copy: write #22, 20 read; cos: write #2, 0 read
  }
  // Either cos FIFO alone fixes it at n - 20 (the cos branch then holds n - 20 + 2 + 18 = n).
  for (StreamId s : {cos_in, cos_out}) {
    std::vector<int64_t> depths = d.depths();
    depths[s] = n - 20;
    EXPECT_FALSE(eg.resolve(depths).deadlock);
    depths[s] = n - 21;
    EXPECT_TRUE(eg.resolve(depths).deadlock);
  }
  std::vector<int64_t> depths = d.depths();
  EXPECT_FALSE(resolve_by_deepening(eg, depths).deadlock);
}

// source(4) -> neg -> sink, all depth 2 (RAW delay 1):
//   source writes at 1 2 3 4; neg (L=4: step i reads beat i, writes beat i-4) fires at
//   2 {r0} 3 {r1} 4 {r2} 5 {r3} 6 {w0} 7 8 9 {w3}; sink reads w0..w3 (6 7 8 9) + 1 ->
//   7 8 9 10.  Unbounded (RAW 2): neg reads at 3 4 5 6, writes at 7 8 9 10,
//   sink max(prev + 1, write + 2) = 9 10 11 12.
TEST(Latency, HandTimedChain) {
  ir::Graph g;
  g.add_output("y", g.unary(ir::Op::Neg, g.input("x", {4})));
  Design d = lower(g);
  ASSERT_EQ(d.processes.size(), 3u);
  EventGraph eg(d);
  EXPECT_EQ(eg.resolve({2, 2}).latency, 10);
  EXPECT_EQ(eg.observed_depth(0), 2);  // neg reads at 2 3 4 5: write #n meets n-1 reads done
  EXPECT_EQ(eg.resolve({kUnbounded, kUnbounded}).latency, 12);
  EXPECT_EQ(eg.observed_depth(0), 3);  // write #2 at 3; read #0 only at 3 (RAW 2)
  EXPECT_EQ(simulate(d, schedule_all(d), {2, 2}).latency, 10);
  EXPECT_EQ(simulate(d, schedule_all(d), {kUnbounded, kUnbounded}).latency, 12);
}

}  // namespace
}  // namespace inrarch::dataflow
