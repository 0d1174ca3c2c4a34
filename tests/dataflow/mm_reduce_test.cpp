// The batch-reduction matrix product (mm_reduce): lowering of mm(transpose(x), y), its
// steps by hand, the event graph against the simulator, its resources and its MACs.
#include <gtest/gtest.h>

#include "dataflow/attributes.h"
#include "dataflow/dse.h"
#include "dataflow/event_graph.h"
#include "dataflow/lower.h"
#include "dataflow/resources.h"
#include "dataflow/schedule.h"
#include "dataflow/simulate.h"
#include "dataflow/verify.h"

namespace inrarch::dataflow {
namespace {

// c = xᵀ·y with x [R,K], y [R,N]: the inner dim is the rows.
ir::Graph reduction(int64_t R, int64_t K, int64_t N) {
  ir::Graph g;
  ir::NodeId x = g.input("x", {R, K});
  ir::NodeId y = g.input("y", {R, N});
  g.add_output("c", g.mm(g.transpose(x), y));
  return g;
}

TEST(MmReduce, LoweringAbsorbsTheTranspose) {
  Design d = lower(reduction(6, 4, 2));
  std::vector<std::string> names;
  for (const auto& p : d.processes) names.push_back(p.name);
  // live numbering: x0 y1 t2 mm3; no transpose process
  EXPECT_EQ(names, (std::vector<std::string>{"in_x", "in_y", "mm_3", "out_c"}));
  const Process& mm = d.processes[2];
  EXPECT_EQ(mm.kind, Kind::MmReduce);
  EXPECT_EQ(mm.op, ir::Op::Mm);
  EXPECT_EQ(d.streams[mm.operands[0].stream].name, "s_in_x__mm_3");
  EXPECT_EQ(d.streams[mm.operands[0].stream].shape, (ir::Shape{6, 4}));
  EXPECT_EQ(mm.buffer_bits, (2 * (4 + 2) + 2 * 4 * 2) * 32);  // two rows each, 8 accumulators of 64 bits
  EXPECT_EQ(kernels_by_kind(d), (std::vector<std::pair<std::string, int>>{{"mm_reduce", 1}, {"sink", 1},
                                                                          {"source", 2}}));
  EXPECT_NO_THROW(verify(d));
}

TEST(MmReduce, ATransposeWithAnotherConsumerStays) {
  ir::Graph g;
  ir::NodeId x = g.input("x", {6, 4});
  ir::NodeId y = g.input("y", {6, 2});
  ir::NodeId t = g.transpose(x);
  g.add_output("c", g.mm(t, y));
  g.add_output("t", t);
  Design d = lower(g);
  EXPECT_GE(d.find_process("transpose_2"), 0);
  EXPECT_EQ(d.processes[d.find_process("mm_3")].kind, Kind::Mm);
}

// R=3, K=4, N=2, block 2, 3 MACs: A rows are 2 beats, B rows 1 beat, so S = 2; the 8
// products of a row pair take W = ceil(8/3) = 3 cycles, T = max(3, 2) = 3. By hand:
// row 0 read at t = 1, 2; row 0's MACs at 3..5 read row 1 at 3, 4; row 1's at 6..8 read
// row 2 at 6, 7 (delay 2 after 4); row 2's at 9..11; C's 4 beats at 12..15 (delay 5 after 7).
TEST(MmReduce, StepsByHand) {
  LowerOptions o;
  o.block = 2;
  o.mm_par = 3;
  Design d = lower(reduction(3, 4, 2), o);
  const ProcessId mm = d.find_process("mm_3");
  ASSERT_GE(mm, 0);
  const Process& p = d.processes[mm];
  EXPECT_EQ(p.mm_lanes, 3);
  const StreamId a = p.operands[0].stream, b = p.operands[1].stream, c = p.outputs[0];
  const std::vector<FifoOp> both{{a, false}, {b, false}}, only_a{{a, false}}, write{{c, true}};
  const std::vector<std::pair<int64_t, std::vector<FifoOp>>> want{
      {1, both}, {1, only_a}, {1, both}, {1, only_a}, {2, both}, {1, only_a},
      {5, write}, {1, write}, {1, write}, {1, write}};
  std::vector<Step> steps = expand(schedule(d, mm));
  ASSERT_EQ(steps.size(), want.size());
  int64_t time = 0;
  for (size_t i = 0; i < steps.size(); ++i) {
    EXPECT_EQ(steps[i].delay, want[i].first) << "step " << i;
    EXPECT_EQ(steps[i].ops, want[i].second) << "step " << i;
    time += steps[i].delay;
  }
  EXPECT_EQ(time, 15);
  EXPECT_EQ(own_cycles(d, mm), 15);
  EXPECT_EQ(mm_reduce_cadence(d, p).cycles(3), 15);
}

// MAC-bound rows (W > S) and read-bound rows (W < S): the period is T either way.
TEST(MmReduce, RowPeriodIsTheSlowerOfMacsAndReads) {
  LowerOptions o;
  o.block = 1;
  o.mm_par = 2;
  Design d = lower(reduction(5, 3, 2), o);  // S = 3 reads, W = 3 MACs
  const MmReduceCadence cad = mm_reduce_cadence(d, d.processes[d.find_process("mm_3")]);
  EXPECT_EQ(cad.reads, 3);
  EXPECT_EQ(cad.row(1), 6);  // W = 6
  EXPECT_EQ(cad.row(6), 3);  // W = 1 < S
  EXPECT_EQ(cad.cycles(6), 3 + 4 * 3 + 1 + 6);
  EXPECT_EQ(cad.cycles(1), 3 + 4 * 6 + 6 + 6);
  set_mm_par(d, d.find_process("mm_3"), 7);  // the lane rule: at most K*N = 6
  EXPECT_EQ(d.processes[d.find_process("mm_3")].mm_lanes, 6);
  EXPECT_NO_THROW(verify(d));
}

// The event graph and the cycle simulator agree on a design with a reduction behind an
// elementwise kernel (so its reads can stall), at several depths and lane counts.
TEST(MmReduce, EventGraphAgreesWithTheSimulator) {
  ir::Graph g;
  ir::NodeId x = g.input("x", {7, 4});
  ir::NodeId y = g.input("y", {7, 3});
  ir::NodeId s = g.unary(ir::Op::Sin, x);
  g.add_output("c", g.mm(g.transpose(s), y));
  g.add_output("s", s);
  for (int64_t par : {1, 2, 5, 12}) {
    for (int64_t block : {1, 2}) {
      LowerOptions o;
      o.block = block;
      o.mm_par = par;
      Design d = lower(g, o);
      ASSERT_EQ(d.processes[d.find_process("mm_4")].kind, Kind::MmReduce);
      const std::vector<Program> progs = schedule_all(d);
      for (int64_t depth : {1, 2, 3, 40}) {
        std::vector<int64_t> depths(d.streams.size(), depth);
        EventGraph eg(d);
        Resolution r = eg.resolve(depths);
        SimResult sim = simulate(d, progs, depths);
        EXPECT_EQ(r.deadlock, sim.deadlock) << "par " << par << " block " << block << " depth " << depth;
        if (!r.deadlock) {
          EXPECT_EQ(r.latency, sim.latency) << "par " << par << " block " << block << " depth " << depth;
        }
      }
    }
  }
}

// L MAC lanes and K*N accumulators of 64 bits in L banks.
TEST(MmReduce, ResourcesCountMacsAndAccumulators) {
  LowerOptions o;
  o.mm_par = 4;
  Design d = lower(reduction(64, 8, 16), o);
  const ProcessId mm = d.find_process("mm_3");
  ResourceReport r = estimate_unsized(d, Arith{}, capacity(find_part("u50"), parse_budget("")));
  bool found = false;
  for (const MemArray& m : r.arrays) {
    if (m.process != mm) continue;
    found = true;
    EXPECT_EQ(m.banks, 4);
    EXPECT_EQ(m.words, 8 * 16 / 4);
    EXPECT_EQ(m.width, 64);
  }
  EXPECT_TRUE(found);
  Design one = d;
  set_mm_par(one, mm, 1);
  ResourceReport r1 = estimate_unsized(one, Arith{}, capacity(find_part("u50"), parse_budget("")));
  EXPECT_GT(r.per_process[mm].dsp, r1.per_process[mm].dsp);
  EXPECT_EQ(count_multiplies(d), 64 * 8 * 16);
}

// The search gives the reduction the least MACs that meet the target of the slowest other
// kernel: here the source's 4,096 beats.
TEST(MmReduce, SearchChoosesTheLeastLanesForTheTarget) {
  Design d = lower(reduction(4096, 4, 4));
  DseOptions opt;
  opt.part = find_part("u50");
  opt.budget = parse_budget("");
  DseResult res = search_parallelism(d, opt);
  ASSERT_EQ(res.choice.mm_par.size(), 1u);
  const ProcessId mm = d.find_process("mm_3");
  EXPECT_EQ(res.choice.mm_par[0].first, mm);
  // 16 products a row: P lanes take ceil(16/P) cycles a row, S = 1 read step; the fastest
  // design reads a row a cycle (P = 16), and P = 16 is the least that does.
  EXPECT_EQ(res.choice.mm_par[0].second, 16);
}

}  // namespace
}  // namespace inrarch::dataflow
