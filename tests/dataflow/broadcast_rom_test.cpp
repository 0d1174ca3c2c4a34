// Constant operands broadcast along leading dims are stored at their true size: the ROM
// holds the source of the expand (P values) and the kernel reads element f as f mod P.
// Every expected size below is worked out by hand from the shapes.
#include <gtest/gtest.h>

#include "autodiff/models.h"
#include "dataflow/lower.h"
#include "passes/pipeline.h"

namespace inrarch::dataflow {
namespace {

const Operand& constant_operand(const Process& p) {
  for (const Operand& od : p.operands)
    if (od.stream < 0) return od;
  ADD_FAILURE() << p.name << " has no constant operand";
  return p.operands.at(0);
}

// INSP order 1, batch 64, width 256 (the benchmark), optimized as `inrarch compile` does:
// `%5 = add %2, %4` with `%2 = expand %1 : [64,256]` of the bias `%1 : [1,256]`.
TEST(BroadcastRom, InspBiasHoldsOneRow) {
  ir::Bundle b = autodiff::build_insp_bundle(autodiff::SirenSpec{}, 1, false);
  passes::optimize_bundle(b);
  const ir::Graph& g = b.graph;
  Design d = lower(g);
  ProcessId add = d.find_process("add_5");
  ASSERT_GE(add, 0);
  const Process& p = d.processes[add];
  EXPECT_EQ(p.kind, Kind::Unary);
  const Operand& bias = constant_operand(p);
  EXPECT_EQ(g.node(bias.static_node).op, ir::Op::Expand);  // static_node: the operand as before
  EXPECT_EQ(bias.shape, (ir::Shape{64, 256}));
  ASSERT_NE(bias.rom_node, ir::kNoNode);
  EXPECT_EQ(g.node(bias.rom_node).op, ir::Op::Param);
  EXPECT_EQ(g.node(bias.rom_node).attrs.name, "l0.bias.f1");
  EXPECT_EQ(bias.rom_period, 256);
  EXPECT_EQ(p.rom_bits, 8192);  // 256 values x 32 bits, not 64 x 256 x 32 = 524288

  // Every other elementwise kernel with a row broadcast over the batch (the other biases,
  // l4's [1,3] among them) stores the row only.
  int rows = 0;
  for (const Process& q : d.processes) {
    if (q.kind != Kind::Unary) continue;
    for (const Operand& od : q.operands) {
      if (od.stream >= 0 || od.splat || g.node(od.static_node).op != ir::Op::Expand) continue;
      const ir::Shape& src = g.shape(g.node(od.static_node).operands[0]);
      if (src.size() != 2 || src[0] != 1) continue;
      EXPECT_EQ(od.rom_period, src[1]) << q.name;
      ++rows;
    }
  }
  EXPECT_GE(rows, 5);  // four hidden biases and the output bias
}

// y = x + c with c = expand(col [64,1] -> [64,256]): a column repeated along each row is
// not periodic in the row-major order, so the ROM stays expanded (64 x 256 values).
TEST(BroadcastRom, NonLeadingBroadcastKeepsExpandedRom) {
  ir::Graph g;
  ir::NodeId x = g.input("x", {64, 256});
  ir::NodeId c = g.expand(g.param("col", {64, 1}), {64, 256});
  g.add_output("y", g.binary(ir::Op::Add, x, c));
  Design d = lower(g);
  const Process& p = d.processes[d.find_process("add_3")];
  const Operand& od = constant_operand(p);
  EXPECT_EQ(od.static_node, c);
  EXPECT_EQ(od.rom_node, c);
  EXPECT_EQ(od.rom_period, 0);
  EXPECT_EQ(p.rom_bits, 524288);  // 64 * 256 * 32
}

// Through shape ops, a scalar param, a middle broadcast, a reshape that breaks the beat,
// an mm operand and a constant output; block 2 on every stream.
TEST(BroadcastRom, ShapeOpsScalarsAndWhereItDoesNotApply) {
  ir::Graph g;
  ir::NodeId x = g.input("x", {4, 6});
  // [12] -> [2,6] -> [1,2,6] -> expand [2,2,6] -> reshape [4,6]: period 12.
  ir::NodeId p12 = g.unsqueeze(g.reshape(g.param("p12", {12}), {2, 6}), 0);
  ir::NodeId a = g.binary(ir::Op::Add, x, g.reshape(g.expand(p12, {2, 2, 6}), {4, 6}));
  // [1,1] -> [4,6]: period 1, one value.
  ir::NodeId m = g.binary(ir::Op::Mul, a, g.expand(g.param("s", {1, 1}), {4, 6}));
  // [3] -> [1,3] -> [8,3] -> [4,6]: period 3 does not cover the last dim (6): full ROM.
  ir::NodeId p3 = g.expand(g.unsqueeze(g.param("p3", {3}), 0), {8, 3});
  ir::NodeId s = g.binary(ir::Op::Sub, m, g.reshape(p3, {4, 6}));
  // [1,3,1,2] -> [2,3,2,2]: a broadcast dim after a kept one: full ROM.
  ir::NodeId mid = g.expand(g.param("mid", {1, 3, 1, 2}), {2, 3, 2, 2});
  ir::NodeId t = g.binary(ir::Op::Add, s, g.reshape(mid, {4, 6}));
  // mm indexes its ROM as a matrix: the expanded [6,5] stays.
  g.add_output("y", g.mm(t, g.expand(g.param("w", {1, 5}), {6, 5})));
  g.add_output("k", g.expand(g.param("k", {1, 6}), {3, 6}));  // a constant output
  LowerOptions lo;
  lo.block = 2;
  Design d = lower(g, lo);
  // The n-th process of a kind and op, in design (topological) order.
  auto find = [&](Kind kind, ir::Op op, int n = 0) -> const Process& {
    for (const Process& p : d.processes)
      if (p.kind == kind && p.op == op && n-- == 0) return p;
    ADD_FAILURE() << "no " << ir::op_name(op);
    return d.processes.at(0);
  };
  const Process& add12 = find(Kind::Unary, ir::Op::Add);
  EXPECT_EQ(constant_operand(add12).rom_period, 12);
  EXPECT_EQ(g.node(constant_operand(add12).rom_node).op, ir::Op::Unsqueeze);
  EXPECT_EQ(add12.rom_bits, 12 * 32);
  const Process& mul = find(Kind::Unary, ir::Op::Mul);
  EXPECT_EQ(constant_operand(mul).rom_period, 1);
  EXPECT_EQ(mul.rom_bits, 32);
  const Process& sub = find(Kind::Unary, ir::Op::Sub);
  EXPECT_EQ(constant_operand(sub).rom_period, 0);
  EXPECT_EQ(constant_operand(sub).rom_node, constant_operand(sub).static_node);
  EXPECT_EQ(sub.rom_bits, 24 * 32);
  const Process& add_mid = find(Kind::Unary, ir::Op::Add, 1);
  EXPECT_EQ(constant_operand(add_mid).rom_period, 0);
  EXPECT_EQ(add_mid.rom_bits, 24 * 32);
  const Process& mm = find(Kind::Mm, ir::Op::Mm);
  EXPECT_EQ(constant_operand(mm).rom_period, 0);
  EXPECT_EQ(mm.rom_bits, 30 * 32);
  const Process& k = find(Kind::Source, ir::Op::Const);
  EXPECT_EQ(k.operands.at(0).rom_period, 6);
  EXPECT_EQ(k.rom_bits, 6 * 32);
}

}  // namespace
}  // namespace inrarch::dataflow
