// Lowering, kernel schedules and the memory model.
#include <gtest/gtest.h>

#include "dataflow/lower.h"
#include "dataflow/memory.h"
#include "dataflow/schedule.h"
#include "dataflow/verify.h"

namespace inrarch::dataflow {
namespace {

// y = sin(x * 30) @ W^T ; z = sin(x * 30) + 1: x*30 is read twice -> one copy; W^T is held
// in the mm as a ROM (transpose of a param folded); 30 and 1 are kernel parameters.
TEST(Lower, CopiesConstantsAndNames) {
  ir::Graph g;
  ir::NodeId x = g.input("x", {4, 3});
  ir::NodeId w = g.param("w", {5, 3});
  ir::NodeId s = g.unary(ir::Op::Sin, g.binary(ir::Op::Mul, x, g.constant(30.0, {4, 3})));
  g.add_output("y", g.mm(s, g.transpose(w)));
  g.add_output("z", g.binary(ir::Op::Add, s, g.constant(1.0, {4, 3})));
  Design d = lower(g);
  std::vector<std::string> names;
  for (const auto& p : d.processes) names.push_back(p.name);
  // live numbering: x0 w1 c2 mul3 sin4 t5 mm6 c7 add8
  EXPECT_EQ(names, (std::vector<std::string>{"in_x", "mul_3", "sin_4", "copy_sin_4", "mm_6",
                                             "add_8", "out_y", "out_z"}));
  const Process& mul = d.processes[1];
  EXPECT_EQ(mul.kind, Kind::Unary);
  ASSERT_TRUE(mul.operands[1].splat.has_value());
  EXPECT_EQ(*mul.operands[1].splat, 30.0);
  EXPECT_EQ(mul.rom_bits, 0);
  const Process& mm = d.processes[4];
  EXPECT_EQ(mm.operands[1].stream, -1);
  EXPECT_EQ(mm.rom_bits, 15 * 32);
  EXPECT_EQ(mm.buffer_bits, 2 * 3 * 32);  // two rows of A (double buffer)
  EXPECT_EQ(d.processes[3].outputs.size(), 2u);
  EXPECT_EQ(d.streams[d.processes[3].outputs[0]].name, "s_copy_sin_4__mm_6");
  EXPECT_EQ(d.streams[d.processes[3].outputs[1]].name, "s_copy_sin_4__add_8");
  for (const auto& st : d.streams) {
    EXPECT_EQ(d.processes[st.producer].outputs.size() == 1 || d.processes[st.producer].kind == Kind::Copy, true);
  }
  EXPECT_NO_THROW(schedule_all(d));
  EXPECT_NO_THROW(verify(d));
}

TEST(Lower, SameValueTwiceAndBlocks) {
  ir::Graph g;
  ir::NodeId x = g.input("x", {2, 6});
  g.add_output("y", g.binary(ir::Op::Mul, x, x));
  LowerOptions o;
  o.block = 4;  // 6 has no divisor 4 -> 3
  Design d = lower(g, o);
  ASSERT_EQ(d.streams.size(), 4u);
  EXPECT_EQ(d.streams[1].name, "s_copy_in_x__mul_1");
  EXPECT_EQ(d.streams[2].name, "s_copy_in_x__mul_1_1");
  for (const auto& s : d.streams) EXPECT_EQ(s.block, 3);
  EXPECT_EQ(d.streams[0].beats(), 4);
  EXPECT_NO_THROW(verify(d));
}

// The mm schedule's tests are in schedule_mm_test.cpp.

TEST(Schedule, ElementwiseIsThreeRunsAtAnySize) {
  ir::Graph g;
  g.add_output("y", g.unary(ir::Op::Cos, g.input("x", {64, 256})));
  Design d = lower(g);
  Program p = schedule(d, 1);
  EXPECT_EQ(p.runs.size(), 3u);
  EXPECT_EQ(p.steps(), 64 * 256 + 18);  // cos: a pipeline of 18 steps (elementwise.def)
  EXPECT_EQ(p.fifo_ops(), 2 * 64 * 256);
}

// select(x[2,3], dim 1, index 1) -> [2]: reads x0 | x1+write | x2 | x3 | x4+write | x5.
TEST(Schedule, GatherSelect) {
  ir::Graph g;
  g.add_output("y", g.select(g.input("x", {2, 3}), 1, 1));
  Design d = lower(g);
  std::vector<Step> steps = expand(schedule(d, 1));
  ASSERT_EQ(steps.size(), 6u);
  std::vector<size_t> sizes;
  for (const auto& s : steps) sizes.push_back(s.ops.size());
  EXPECT_EQ(sizes, (std::vector<size_t>{1, 2, 1, 1, 2, 1}));
}

// expand [1,3] -> [4,3] replays a row: 3 elements buffered; sum over dim 0 of [4,3] keeps
// 3 accumulators and writes only after the last row, each beat four steps after the last
// read so far at the earliest, one write a step: the columns' last reads are steps 9, 10
// and 11, so after a step of nothing (12) the columns are written in steps 13, 14 and 15.
TEST(Schedule, GatherBuffers) {
  ir::Graph g;
  ir::NodeId x = g.input("x", {1, 3});
  ir::NodeId e = g.expand(x, {4, 3});
  g.add_output("y", g.sum(e, {0}, false));
  Design d = lower(g);
  EXPECT_EQ(d.processes[d.find_process("expand_1")].buffer_bits, 3 * 32);
  ProcessId sum = d.find_process("sum_2");
  EXPECT_EQ(d.processes[sum].buffer_bits, 3 * 32);
  std::vector<Step> steps = expand(schedule(d, sum));
  std::string kinds;  // r: a read, w: a write, per step
  for (const auto& s : steps) {
    kinds += '|';
    for (const auto& op : s.ops) kinds += op.write ? 'w' : 'r';
  }
  EXPECT_EQ(kinds, "|r|r|r|r|r|r|r|r|r|r|r|r|w|w|w");
}

// Hand-worked from the tilings of docs/resources.md §2; Yosys builds a 73-bit inrarch_fifo
// from 6 RAM32M16 at depth 3, 11 RAM64M8 at 38 and 3 RAMB18E2 at 65 and 256.
TEST(Memory, Bram18kRule) {
  EXPECT_EQ(fifo_bram18k(32, 2), 0);
  EXPECT_EQ(fifo_bram18k(32, 3), 0);        // LUT RAM up to depth 64
  EXPECT_EQ(fifo_bram18k(73, 64), 0);
  EXPECT_EQ(fifo_bram18k(73, 65), 3);       // 512 x 36, three wide
  EXPECT_EQ(fifo_bram18k(73, 256), 3);
  EXPECT_EQ(fifo_bram18k(32, 1024), 2);     // 512 x 36 two deep, or 1K x 18 two wide
  EXPECT_EQ(fifo_bram18k(32, 1025), 3);     // 512 x 36, three deep
  EXPECT_EQ(fifo_bram18k(32, 16384), 32);
  EXPECT_EQ(fifo_bram18k(8, 2048), 1);      // 2K x 9
  EXPECT_EQ(fifo_bram18k(1, 16384), 1);     // 16K x 1
  EXPECT_EQ(fifo_bram18k(4, 5000), 2);      // 4K x 4, two deep
  EXPECT_EQ(fifo_lutram_luts(73, 2), 0);    // registers
  EXPECT_EQ(fifo_lutram_luts(73, 3), 6 * 8);    // RAM32M16: 14 bits of a beat a LUT
  EXPECT_EQ(fifo_lutram_luts(73, 32), 6 * 8);
  EXPECT_EQ(fifo_lutram_luts(73, 38), 11 * 8);  // RAM64M8: 7 bits a LUT
  EXPECT_EQ(fifo_lutram_luts(73, 65), 0);   // block RAM
}

// A beat never straddles a sample: a rank-1 stream [rows*f] is blocked by f's divisors.
TEST(Lower, StreamBlockKeepsSamplesWhole) {
  EXPECT_EQ(stream_block({64}, 4), 4);
  EXPECT_EQ(stream_block({64}, 4, 64), 1);
  EXPECT_EQ(stream_block({128}, 4, 64), 2);
  EXPECT_EQ(stream_block({17}, 4, 17), 1);
  EXPECT_EQ(stream_block({64, 12}, 8, 64), 6);  // rank 2: the last dim is inside a sample
}

}  // namespace
}  // namespace inrarch::dataflow
