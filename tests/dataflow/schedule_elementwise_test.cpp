// The elementwise kernels' pipeline depth (elementwise.def's depth column) and their
// schedule: step i reads beat i and writes beat i - L; the digit recurrences (div, sqrt) and
// the table lanes (sin, cos, exp, log, tanh) are the ops deeper than one step.
#include <gtest/gtest.h>

#include "dataflow/attributes.h"
#include "dataflow/elementwise.h"
#include "dataflow/lower.h"
#include "dataflow/schedule.h"
#include "dataflow/simulate.h"
#include "dataflow/verify.h"
#include "support/error.h"

namespace inrarch::dataflow {
namespace {

using ir::Op;

// Worked by hand. div: w quotient stages and 8. sqrt: a register a root bit, min(w, 32) of
// them at most (w = 32: a 53-bit radicand at F = 22, 27 bits, padded to 32), and 4: the
// operand's flags, the initial state, the result's flags, the result register.
TEST(ElementwiseDepth, TheRecurrencesTheTablesAndTheSimpleLanes) {
  EXPECT_EQ(elementwise_depth(Op::Div, 32), 40);  // 32 quotient stages and 8
  EXPECT_EQ(elementwise_depth(Op::Sqrt, 32), 36);
  EXPECT_EQ(elementwise_depth(Op::Sqrt, 48), 36);
  EXPECT_EQ(elementwise_depth(Op::Div, 16), 24);
  EXPECT_EQ(elementwise_depth(Op::Sqrt, 16), 20);
  EXPECT_EQ(elementwise_depth(Op::Div, 15), 23);
  EXPECT_EQ(elementwise_depth(Op::Sqrt, 15), 19);
  // sin and cos: 17 register stages (inrarch_lane_sin), then the result register. The other
  // table lanes (inrarch_lane_explog): the operand, its fit, nine stages to the table's
  // index (exp and tanh: the product by log2e; log: the leading one), the next index, the
  // read, entry 1024, the slope, its product, the sum's carry-save level and two halves;
  // then exp two shifts, log the floor, tanh two shifts, 1 +- e, 32 quotient bits and the
  // sign; then the output fit's flags and the result register, at every width.
  for (Op op : {Op::Sin, Op::Cos}) {
    EXPECT_EQ(elementwise_depth(op, 32), 18) << ir::op_name(op);
    EXPECT_EQ(elementwise_depth(op, 16), 18) << ir::op_name(op);
  }
  for (int64_t w : {16, 32}) {
    EXPECT_EQ(elementwise_depth(Op::Exp, w), 17 + 2 + 2);
    EXPECT_EQ(elementwise_depth(Op::Log, w), 17 + 1 + 2);
    EXPECT_EQ(elementwise_depth(Op::Tanh, w), 17 + 2 + 1 + 32 + 2 + 2);
  }
  // The simple lanes: the operands, then add and sub each half of the 65-bit sum, the others
  // the operator's result, then the fit's flags and the result register.
  for (Op op : {Op::Add, Op::Sub}) EXPECT_EQ(elementwise_depth(op, 32), 5) << ir::op_name(op);
  for (Op op : {Op::Neg, Op::Relu, Op::Step}) EXPECT_EQ(elementwise_depth(op, 32), 4) << ir::op_name(op);
  // A product: one DSP up to 18 bits; wider, the tiles' products, their middle sum and the
  // final sum's two halves.
  EXPECT_EQ(elementwise_depth(Op::Mul, 16), 4);
  EXPECT_EQ(elementwise_depth(Op::Mul, 18), 4);
  EXPECT_EQ(elementwise_depth(Op::Mul, 24), 7);
  EXPECT_EQ(elementwise_depth(Op::Mul, 32), 7);
  // In the fabric: the operands, a tree of adders a level a stage (two for a level wider than
  // a stage holds), the flags, the result register.
  EXPECT_EQ(mul_fabric_depth(32), 11);  // levels 1, 4 and 5 in two stages
  EXPECT_EQ(mul_fabric_depth(16), 7);   // four levels of at most 25 bits
  EXPECT_THROW(elementwise_depth(Op::Mm, 32), inrarch::Error);
}

Design one_op(Op op, ir::Shape shape) {
  ir::Graph g;
  ir::NodeId x = g.input("x", shape);
  g.add_output("y", op == Op::Div ? g.binary(op, x, g.input("z", shape)) : g.unary(op, x));
  return lower(g);
}

std::vector<int64_t> delays(const Program& p) {
  std::vector<int64_t> out;
  for (const Step& s : expand(p)) out.push_back(s.delay);
  return out;
}

std::vector<size_t> sizes(const Program& p) {
  std::vector<size_t> out;
  for (const Step& s : expand(p)) out.push_back(s.ops.size());
  return out;
}

// 40 beats through a 36-deep sqrt: 36 reads, 4 steps that read and write, 36 writes.
TEST(ScheduleElementwise, ADeepPipelineWritesBeatIMinusLAtStepI) {
  Design d = one_op(Op::Sqrt, {5, 8});
  ProcessId p = d.find_process("sqrt_1");
  ASSERT_GE(p, 0);
  Program prog = schedule(d, p);
  std::vector<size_t> want(36, 1);
  want.insert(want.end(), 4, 2);
  want.insert(want.end(), 36, 1);
  EXPECT_EQ(sizes(prog), want);
  EXPECT_EQ(delays(prog), std::vector<int64_t>(76, 1));
  const std::vector<Step> steps = expand(prog);
  EXPECT_FALSE(steps[35].ops[0].write);
  EXPECT_TRUE(steps[36].ops[1].write);
  EXPECT_TRUE(steps.back().ops[0].write);
  EXPECT_NO_THROW(verify(d));
}

// 3 beats through a 40-deep divider: the writes start 40 steps after the first read, the
// empty steps between folded into the first write's delay (40 - 3 + 1).
TEST(ScheduleElementwise, FewerBeatsThanStagesWaitInTheFirstWritesDelay) {
  Design d = one_op(Op::Div, {1, 3});
  ProcessId p = d.find_process("div_2");
  ASSERT_GE(p, 0);
  Program prog = schedule(d, p);
  EXPECT_EQ(sizes(prog), (std::vector<size_t>{2, 2, 2, 1, 1, 1}));
  EXPECT_EQ(delays(prog), (std::vector<int64_t>{1, 1, 1, 38, 1, 1}));
}

// The simulator sees the depth: source, op, sink of 40 beats; sqrt's last write comes 32
// cycles after neg's, as its pipeline is 32 steps deeper (36 against 4).
TEST(ScheduleElementwise, TheLatencyGrowsByTheExtraStages) {
  auto latency = [](Op op) {
    Design d = one_op(op, {8, 5});
    return simulate(d, schedule_all(d), d.depths()).latency;
  };
  EXPECT_EQ(latency(Op::Sqrt) - latency(Op::Neg), 32);
}

// A multiply in the fabric is 4 steps deeper than one on DSPs at 32 bits (11 against 7).
TEST(ScheduleElementwise, AMultiplyInTheFabricTakesItsTreeOfAdders) {
  auto latency = [](bool fabric) {
    ir::Graph g;
    ir::NodeId x = g.input("x", {8, 5});
    g.add_output("y", g.binary(Op::Mul, x, g.input("z", {8, 5})));
    LowerOptions o;
    o.fabric_elementwise_mul = fabric;
    Design d = lower(g, o);
    return simulate(d, schedule_all(d), d.depths()).latency;
  };
  EXPECT_EQ(latency(true) - latency(false), 4);
}

// neg (4 stages) over 5 beats of 2 elements, folded to 2 cycles a beat (one lane): a beat is
// read every 2 cycles, its last chunk leaves the lanes 2 - 1 + 4 = 5 cycles after the read,
// so the write comes ceil(5 / 2) = 3 steps later. Steps: read 0 (cycle 1), read 1, read 2,
// read 3 + write 0, read 4 + write 1, write 2, 3, 4, every one 2 cycles after the last.
TEST(ScheduleElementwise, AFoldedKernelStepsEveryCCyclesAndWritesCeilOfItsDepth) {
  LowerOptions o;
  o.block = 2;
  ir::Graph g;
  g.add_output("y", g.unary(Op::Neg, g.input("x", {5, 2})));
  Design d = lower(g, o);
  const ProcessId p = d.find_process("neg_1");
  ASSERT_GE(p, 0);
  set_ew_fold(d, p, 2);
  EXPECT_EQ(elementwise_steps(d, d.processes[p]), 3);
  const Program prog = schedule(d, p);
  EXPECT_EQ(sizes(prog), (std::vector<size_t>{1, 1, 1, 2, 2, 1, 1, 1}));
  EXPECT_EQ(delays(prog), (std::vector<int64_t>{1, 2, 2, 2, 2, 2, 2, 2}));
  EXPECT_NO_THROW(verify(d));
  // One beat of 8 folded 8 ways: the write 2 steps (16 cycles) after the read.
  ir::Graph g8;
  g8.add_output("y", g8.unary(Op::Neg, g8.input("x", {1, 8})));
  o.block = 8;
  Design d8 = lower(g8, o);
  const ProcessId p8 = d8.find_process("neg_1");
  set_ew_fold(d8, p8, 8);
  EXPECT_EQ(delays(schedule(d8, p8)), (std::vector<int64_t>{1, 16}));
  // Not a power of two, or not a divisor of the block: refused, naming the kernel.
  EXPECT_THROW(set_ew_fold(d8, p8, 3), inrarch::Error);
  EXPECT_THROW(set_ew_fold(d8, p8, 16), inrarch::Error);
  EXPECT_THROW(set_ew_fold(d8, d8.find_process("in_x"), 2), inrarch::Error);
  d8.processes[p8].ew_fold = 16;  // past the setter: the verifier says so
  EXPECT_THROW(verify(d8), inrarch::Error);
}

}  // namespace
}  // namespace inrarch::dataflow
