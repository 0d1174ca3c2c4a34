// The pipelined mm schedule: which cycle writes which beat, computed by hand.
#include <gtest/gtest.h>

#include "dataflow/attributes.h"
#include "dataflow/lower.h"
#include "dataflow/schedule.h"
#include "dataflow/verify.h"
#include "support/error.h"

namespace inrarch::dataflow {
namespace {

TEST(Schedule, MmTreeRegistersWorkedByHand) {
  // G = gcd(L, K) = 1: every lane's sum after every level, ceil(log2 L) * L.
  EXPECT_EQ(mm_tree_registers(1, 37), 0);
  EXPECT_EQ(mm_tree_registers(4, 7), 8);
  EXPECT_EQ(mm_tree_registers(247, 256), 8 * 247);
  // L = K = 8: only lane 7 ends an element; it reads lane 3 at level 2, which with lane 7
  // reads 1 and 5 at level 1, which with 3 and 7 are level 0's: a reduction tree, 1 + 2 + 4.
  EXPECT_EQ(mm_tree_registers(8, 8), 7);
  // L = K = 6 (3 levels): lane 5 at level 2 reads 3; at level 1, 3 reads 1 and 5 reads none
  // (its block's lower half is itself); level 0: lanes 1, 3, 5. 1 + 2 + 3.
  EXPECT_EQ(mm_tree_registers(6, 6), 6);
  EXPECT_EQ(mm_tree_registers(216, 256), 324);
}

TEST(Schedule, MmPipelineDepthFormula) {
  // Lanes not aligned with K (K = 1009, a prime): 5 + md + ceil(log2 L) + 2 s: operand,
  // difference, low and high sums and fit registers, md product stages (1 up to 27 x 18
  // bits, 4 above), a register a level of the lanes' prefix tree, s select stages (1 up to
  // 18 lanes, 2 up to 648) twice.
  EXPECT_EQ(select_tree_stages(1), 1);
  EXPECT_EQ(select_tree_stages(18), 1);
  EXPECT_EQ(select_tree_stages(19), 2);
  EXPECT_EQ(select_tree_stages(648), 2);
  EXPECT_EQ(select_tree_stages(649), 3);
  EXPECT_FALSE(mm_lanes_aligned(2, 1009));
  EXPECT_EQ(mm_pipeline_depth(2, 1009, 32, 32), 12);
  EXPECT_EQ(mm_pipeline_depth(3, 1009, 32, 32), 13);
  EXPECT_EQ(mm_pipeline_depth(4, 1009, 32, 32), 13);
  EXPECT_EQ(mm_pipeline_depth(5, 1009, 32, 32), 14);
  EXPECT_EQ(mm_pipeline_depth(16, 1009, 32, 32), 15);
  EXPECT_EQ(mm_pipeline_depth(18, 1009, 32, 32), 16);
  EXPECT_EQ(mm_pipeline_depth(19, 1009, 32, 32), 18);
  EXPECT_EQ(mm_pipeline_depth(32, 1009, 32, 32), 18);
  EXPECT_EQ(mm_pipeline_depth(247, 256, 32, 32), 21);
  EXPECT_EQ(mm_pipeline_depth(649, 1009, 32, 32), 25);
  EXPECT_EQ(mm_pipeline_depth(32, 1009, 16, 16), 15);
  EXPECT_EQ(mm_pipeline_depth(32, 1009, 27, 18), 15);
  EXPECT_EQ(mm_pipeline_depth(3, 4, 32, 32), 13);  // 3 and 4: neither divides the other
  // Aligned (L divides K or K divides L): 4 + md + ceil(log2 min(L, K)) + s(L / min(L, K)):
  // operand, element-sum (two halves) and fit registers, the group's adder tree, the route
  // stages.
  EXPECT_TRUE(mm_lanes_aligned(1, 1009));
  EXPECT_TRUE(mm_lanes_aligned(8, 24));
  EXPECT_TRUE(mm_lanes_aligned(10, 5));
  EXPECT_FALSE(mm_lanes_aligned(6, 4));
  EXPECT_EQ(mm_pipeline_depth(1, 1009, 32, 32), 9);
  EXPECT_EQ(mm_pipeline_depth(1, 37, 18, 18), 6);
  EXPECT_EQ(mm_pipeline_depth(8, 24, 32, 32), 12);     // groups of 8: 3 levels
  EXPECT_EQ(mm_pipeline_depth(10, 5, 32, 32), 12);     // two groups of 5: 3 levels
  EXPECT_EQ(mm_pipeline_depth(38, 2, 32, 32), 11);     // 19 groups of 2: 1 level, 2 route stages
  EXPECT_EQ(mm_pipeline_depth(256, 256, 24, 18), 14);  // one DSP a product, 8 levels
  EXPECT_EQ(mm_pipeline_depth(512, 256, 24, 18), 14);  // two elements a cycle
}

// g lowered at a word a beat with `mm_par` MACs an mm.
Design lowered_mm(const ir::Graph& g, int64_t mm_par) {
  LowerOptions o;
  o.mm_par = mm_par;
  o.block = 1;
  return lower(g, o);
}

// Expects prog's steps, in order, at the cycles (the running sum of delays) and with the ops
// of `want`.
void expect_steps_at(const Program& prog, const std::vector<std::pair<int64_t, std::vector<FifoOp>>>& want) {
  const std::vector<Step> steps = expand(prog);
  ASSERT_EQ(steps.size(), want.size());
  int64_t time = 0;
  for (size_t i = 0; i < steps.size(); ++i) {
    time += steps[i].delay;
    EXPECT_EQ(time, want[i].first) << "step " << i;
    EXPECT_EQ(steps[i].ops, want[i].second) << "step " << i;
  }
}

// C[3,5] = A[3,4] B[4,5], both streamed a word a beat, L = 3 MACs, so D = 13. Cycles:
// B read at 1..20, A row 0 at 21..24. Row 0's MAC cycles are 25..31 (C = 7); they read row
// 1's 4 beats spread evenly, beat r in MAC cycle ceil(7(r+1)/4) = 2, 4, 6, 7: at 26, 28, 30,
// 31. Beat j's last product is taken ceil(4(j+1)/3) = 2, 3, 4, 6, 7 cycles in: at 26, 27,
// 28, 30, 31, its writes at 39, 40, 41, 43, 44. Row 1: MAC cycles 32..38 (reading row 2 at
// 33, 35, 37, 38), last products at 33, 34, 35, 37, 38, writes 46, 47, 48, 50, 51. Row 2:
// last products at 40, 41, 42, 44, 45, writes 53, 54, 55, 57, 58 (the drain).
TEST(Schedule, MmWritesEachBeatDepthCyclesAfterItsMacCycle) {
  ir::Graph g;
  ir::NodeId a = g.input("a", {3, 4});
  ir::NodeId b = g.input("b", {4, 5});
  g.add_output("c", g.mm(a, b));
  Design d = lowered_mm(g, 3);
  ProcessId mm = d.find_process("mm_2");
  ASSERT_GE(mm, 0);
  ASSERT_EQ(d.processes[mm].mm_depth, 13);
  EXPECT_NO_THROW(verify(d));
  const StreamId sa = d.processes[mm].operands[0].stream, sb = d.processes[mm].operands[1].stream;
  const StreamId sc = d.processes[mm].outputs[0];
  std::vector<std::pair<int64_t, std::vector<FifoOp>>> want;
  for (int64_t t = 1; t <= 20; ++t) want.push_back({t, {{sb, false}}});
  for (int64_t t = 21; t <= 24; ++t) want.push_back({t, {{sa, false}}});
  const FifoOp r{sa, false}, w{sc, true};
  for (int64_t t : {26, 28, 30, 31, 33, 35, 37, 38}) want.push_back({t, {r}});
  for (int64_t t : {39, 40, 41, 43, 44, 46, 47, 48, 50, 51, 53, 54, 55, 57, 58}) want.push_back({t, {w}});
  const Program prog = schedule(d, mm);
  expect_steps_at(prog, want);
  // Runs of equal delay and ops: B, A row 0, then 26-28-30 | 31 | 33-35-37 | 38 | 39-41 |
  // 43 | 44 | 46 | 47-48 | 50 | 51 | 53 | 54-55 | 57 | 58.
  EXPECT_EQ(prog.runs.size(), 2u + 15);
  EXPECT_EQ(d.processes[mm].buffer_bits, (20 + 2 * 4) * 32);  // B and two A rows, as at D = 0
  EXPECT_NO_THROW(schedule_all(d));
}

// C[3,1] = A[3,8] B[8,1], a word a beat, L = 4 MACs: two MAC cycles a row but eight A
// beats to read, so each of a row's MAC cycles reads a beat of row i+1 and the other six
// follow at II=1. D = 4 + 4 product stages + 2 tree levels + 1 route stage = 11. Cycles:
// B at 1..8, A row 0 at 9..16. Row 0: MAC cycles 17, 18 (reading row 1's beats 0, 1; the
// beat done at 18, written at 29), row 1's beats 2..7 at 19..24. Row 1: MAC cycles 25, 26
// (row 2's beats 0, 1; written at 37), row 2's beats 2..7 at 27..32, the write at 29 in the
// step of that read. Row 2: MAC cycles 33, 34, no reads; written at 45.
TEST(Schedule, MmReadBoundRowsReadInEveryMacCycle) {
  ir::Graph g;
  g.add_output("c", g.mm(g.input("a", {3, 8}), g.input("b", {8, 1})));
  Design d = lowered_mm(g, 4);
  ProcessId mm = d.find_process("mm_2");
  ASSERT_GE(mm, 0);
  ASSERT_EQ(d.processes[mm].mm_lanes, 4);
  ASSERT_EQ(d.processes[mm].mm_depth, 11);
  const FifoOp ra{d.processes[mm].operands[0].stream, false}, rb{d.processes[mm].operands[1].stream, false};
  const FifoOp w{d.processes[mm].outputs[0], true};
  std::vector<std::pair<int64_t, std::vector<FifoOp>>> want;
  for (int64_t t = 1; t <= 8; ++t) want.push_back({t, {rb}});
  for (int64_t t = 9; t <= 32; ++t) want.push_back({t, t == 29 ? std::vector<FifoOp>{w, ra} : std::vector<FifoOp>{ra}});
  want.push_back({37, {w}});
  want.push_back({45, {w}});
  expect_steps_at(schedule(d, mm), want);
}

TEST(Schedule, MmConstantADrainsAfterTheLastRow) {
  // C[2,3] = A[2,2] (a ROM) B[2,3] (streamed, a word a beat), L = 2 = K: the aligned engine,
  // D = 4 + 4 product stages + 1 tree level + 1 route stage = 10. B at 1..6; row 0's MAC
  // cycles 7, 8, 9 each finish a beat (2 products), row 1's 10, 11, 12; writes D later, at
  // 17..22.
  ir::Graph g;
  ir::NodeId a = g.param("a", {2, 2});
  ir::NodeId b = g.input("b", {2, 3});
  g.add_output("c", g.mm(a, b));
  LowerOptions o;
  o.mm_par = 2;
  o.block = 1;
  Design d = lower(g, o);
  ProcessId mm = -1;
  for (size_t p = 0; p < d.processes.size(); ++p)
    if (d.processes[p].kind == Kind::Mm) mm = ProcessId(p);
  ASSERT_GE(mm, 0);
  ASSERT_LT(d.processes[mm].operands[0].stream, 0);
  std::vector<Step> steps = expand(schedule(d, mm));
  ASSERT_EQ(steps.size(), 12u);
  int64_t time = 0;
  for (size_t i = 0; i < steps.size(); ++i) {
    time += steps[i].delay;
    EXPECT_EQ(time, i < 6 ? int64_t(i) + 1 : int64_t(i) + 11) << "step " << i;
    EXPECT_EQ(steps[i].ops.at(0).write, i >= 6);
  }
}

TEST(Schedule, VerifierRejectsAnMmDepthOffTheFormula) {
  ir::Graph g;
  g.add_output("c", g.mm(g.input("a", {2, 4}), g.input("b", {4, 2})));
  Design d = lower(g, LowerOptions{});
  for (auto& p : d.processes)
    if (p.kind == Kind::Mm) p.mm_depth = 0;
  EXPECT_THROW(verify(d), Error);
}

}  // namespace
}  // namespace inrarch::dataflow
