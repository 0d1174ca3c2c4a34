// inrarch_permute (every transpose and permute: any rank, perm and blocks) and
// inrarch_rom_source (a constant output played from a ROM, whole or wrapping at a period),
// run by Verilator: bit-exact with the HLS C simulation under random stalls, following every
// schedule, and in the event graph's cycles without stalls.
#include "rtl_test_util.h"

namespace inrarch::rtl {
namespace {

using ir::Op;
using dataflow::Kind;

// The processes of kind k.
std::vector<const dataflow::Process*> of_kind(const dataflow::Design& d, Kind k) {
  std::vector<const dataflow::Process*> v;
  for (const auto& p : d.processes)
    if (p.kind == k) v.push_back(&p);
  return v;
}

// {input block, output block} of a process with one input and one output.
using Blocks = std::pair<int64_t, int64_t>;
Blocks blocks(const dataflow::Design& d, const dataflow::Process& p) {
  return {d.streams[p.inputs.at(0)].block, d.streams[p.outputs.at(0)].block};
}

const dataflow::Process& permute_of(const dataflow::Design& d, const ir::Shape& in_shape) {
  for (const auto& p : d.processes)
    if ((p.kind == Kind::Transpose || p.kind == Kind::Permute) && d.streams[p.inputs.at(0)].shape == in_shape)
      return p;
  throw std::runtime_error("no permute of that shape");
}

// Operands in (-1, 1), so nothing saturates.
ir::Bundle filled(ir::Bundle b, uint64_t seed) {
  hls::hls_test::fill_bundle(b, seed);
  return b;
}

// Icarus runs c without stalls to the same bits in the same cycles; iverilog and Yosys
// accept it.
RtlRun expect_other_tools(const rtl_test::Case& c) {
  RtlRunOptions ro;
  ro.lint = false;
  ro.other_tools = true;
  const RtlRun r = run_rtl(c.design, c.dir / "rtl", ro);
  EXPECT_EQ(r.iverilog, "accepted") << to_json(r).dump();
  EXPECT_EQ(r.yosys, "accepted") << to_json(r).dump();
  EXPECT_EQ(r.icarus->run->bit_exact, std::optional<bool>(true)) << to_json(r).dump();
  EXPECT_EQ(r.icarus->run->cycles, r.cycles()) << to_json(r).dump();
  return r;
}

TEST(RtlPermute, TransposeAndPermuteOneElementABeat) {
  INRARCH_NEED_TOOL("verilator");
  ir::Bundle b{ir::Graph("permute1"), {}, {}, {}};
  ir::Graph& g = b.graph;
  ir::NodeId x = g.input("x", {3, 5}), y = g.input("y", {2, 3, 4});
  g.add_output("t", g.transpose(g.unary(Op::Neg, x)));
  g.add_output("p", g.permute(g.binary(Op::Mul, y, y), {2, 0, 1}));
  rtl_test::Case c = rtl_test::emit_case(filled(std::move(b), 11), "permute1", 1);
  ASSERT_EQ(of_kind(c.design, Kind::Transpose).size(), 1u);
  ASSERT_EQ(of_kind(c.design, Kind::Permute).size(), 1u);
  rtl_test::expect_exact(c);
}

// Block 2: [4, 6] -> [6, 4] at 2 and 2; [6, 3] -> [3, 6] at 1 and 2.
TEST(RtlPermute, TransposeTwoElementsABeat) {
  INRARCH_NEED_TOOL("verilator");
  ir::Bundle b{ir::Graph("permute2"), {}, {}, {}};
  ir::Graph& g = b.graph;
  ir::NodeId x = g.input("x", {4, 6}), z = g.input("z", {6, 3});
  g.add_output("t", g.transpose(g.binary(Op::Mul, x, x)));
  g.add_output("u", g.binary(Op::Add, g.transpose(z), g.constant(0.25, {3, 6})));
  rtl_test::Case c = rtl_test::emit_case(filled(std::move(b), 12), "permute2", 2);
  ASSERT_EQ(of_kind(c.design, Kind::Transpose).size(), 2u);
  EXPECT_EQ(blocks(c.design, permute_of(c.design, {4, 6})), Blocks(2, 2));
  EXPECT_EQ(blocks(c.design, permute_of(c.design, {6, 3})), Blocks(1, 2));
  rtl_test::expect_exact(c);
}

// Block 4: [4, 6] -> [6, 4] at 3 and 4 (the output's beats wider); [3, 8] -> [8, 3] at 4
// and 3 (narrower, and not a divisor of the input's); [8, 4] -> [4, 8] at 4 and 4.
TEST(RtlPermute, TransposeFourElementsABeat) {
  INRARCH_NEED_TOOL("verilator");
  ir::Bundle b{ir::Graph("permute4"), {}, {}, {}};
  ir::Graph& g = b.graph;
  ir::NodeId x = g.input("x", {4, 6}), y = g.input("y", {3, 8}), z = g.input("z", {8, 4});
  g.add_output("t", g.transpose(g.unary(Op::Neg, x)));
  g.add_output("u", g.permute(y, {1, 0}));
  g.add_output("v", g.transpose(g.binary(Op::Sub, z, z)));
  rtl_test::Case c = rtl_test::emit_case(filled(std::move(b), 13), "permute4", 4);
  EXPECT_EQ(blocks(c.design, permute_of(c.design, {4, 6})), Blocks(3, 4));
  EXPECT_EQ(blocks(c.design, permute_of(c.design, {3, 8})), Blocks(4, 3));
  EXPECT_EQ(blocks(c.design, permute_of(c.design, {8, 4})), Blocks(4, 4));
  EXPECT_EQ(of_kind(c.design, Kind::Permute).size(), 1u);
  rtl_test::expect_exact(c);
  expect_other_tools(c);
}

// Rank 3 at block 2: three perms of a [2, 3, 4] product, one chained after another (the
// <0, 2, 1> output's last dim is 3, so its block is 1).
TEST(RtlPermute, ThreeDimensionalPerms) {
  INRARCH_NEED_TOOL("verilator");
  ir::Bundle b{ir::Graph("permute3d"), {}, {}, {}};
  ir::Graph& g = b.graph;
  ir::NodeId x = g.input("x", {2, 3, 4});
  ir::NodeId p = g.binary(Op::Mul, x, x);
  g.add_output("a", g.permute(p, {1, 2, 0}));
  g.add_output("b", g.permute(g.unary(Op::Neg, x), {2, 1, 0}));
  g.add_output("c", g.permute(g.permute(x, {0, 2, 1}), {2, 0, 1}));  // [2,4,3] then [3,2,4]
  rtl_test::Case c = rtl_test::emit_case(filled(std::move(b), 14), "permute3d", 2);
  ASSERT_EQ(of_kind(c.design, Kind::Permute).size(), 4u);
  EXPECT_EQ(blocks(c.design, permute_of(c.design, {2, 4, 3})), Blocks(1, 2));
  rtl_test::expect_exact(c);
}

// A saturated operand: every beat a permute writes carries the flag of all the beats it read
// (the HLS permute), so all 6 beats of the transposed output are flagged, bit-exact.
TEST(RtlPermute, FlagOfEveryBeatRead) {
  INRARCH_NEED_TOOL("verilator");
  ir::Bundle b{ir::Graph("permute_sat"), {}, {}, {}};
  ir::Graph& g = b.graph;
  ir::NodeId x = g.input("x", {4, 6});
  g.add_output("s", g.transpose(g.binary(Op::Mul, x, g.constant(1e5, {4, 6}))));
  rtl_test::Case c = rtl_test::emit_case(filled(std::move(b), 15), "permute_sat", 4);
  const auto [flagged, beats] = rtl_test::expect_exact_flagged(c);
  EXPECT_EQ(beats, 6);
  EXPECT_EQ(flagged, 6);
}

// Constant outputs: a parameter and a dense constant (each its whole ROM), a splat (one
// word) and a broadcast row (a ROM of 4 words wrapping at its period), beside a streamed
// output, at block 2.
TEST(RtlPermute, ConstantOutputs) {
  INRARCH_NEED_TOOL("verilator");
  ir::Bundle b{ir::Graph("rom_out"), {}, {}, {}};
  ir::Graph& g = b.graph;
  ir::NodeId x = g.input("x", {6, 4});
  g.add_output("y", g.unary(Op::Neg, x));
  g.add_output("w", g.param("w", {3, 4}));
  g.add_output("half", g.constant(0.5, {2, 6}));
  g.add_output("bias", g.expand(g.param("b", {1, 4}), {6, 4}));
  // Below the grid's LSB (2^-22) or near it: each word rounds to nearest, as weights.h.
  g.add_output("tiny", g.constant(Tensor({2, 2}, {1e-7, -3.1e-7, 2.6e-7, -1.1e-7})));
  rtl_test::Case c = rtl_test::emit_case(filled(std::move(b), 16), "rom_out", 2);
  int whole = 0, splat = 0, periodic = 0;
  for (const auto* p : of_kind(c.design, Kind::Source)) {
    if (p->op == Op::Input) continue;
    const auto& od = p->operands.at(0);
    whole += !od.splat && od.rom_period == 0;
    splat += od.splat.has_value();
    periodic += od.rom_period == 4;
  }
  EXPECT_EQ(whole, 2);
  EXPECT_EQ(splat, 1);
  EXPECT_EQ(periodic, 1);
  rtl_test::expect_exact(c);
}

// A design of constant outputs alone, with no input port: its cycles count from the first
// beat a ROM source writes. Icarus gives the same bits in the same cycles.
TEST(RtlPermute, OnlyConstantOutputs) {
  INRARCH_NEED_TOOL("verilator");
  ir::Bundle b{ir::Graph("rom_only"), {}, {}, {}};
  b.graph.add_output("w", b.graph.param("w", {3, 4}));
  b.graph.add_output("v", b.graph.expand(b.graph.param("v", {1, 2}), {3, 2}));
  rtl_test::Case c = rtl_test::emit_case(filled(std::move(b), 17), "rom_only", 2);
  for (const auto* p : of_kind(c.design, Kind::Source)) EXPECT_NE(p->op, Op::Input);
  rtl_test::expect_exact(c);
  const RtlRun r = expect_other_tools(c);
  EXPECT_EQ(r.verilator->first_in, 1) << to_json(r).dump();
  EXPECT_EQ(r.cycles(), 7) << to_json(r).dump();  // w: 6 beats written in cycles 1 to 6, each read a cycle later
  EXPECT_EQ(r.cycles(), r.model_cycles) << to_json(r).dump();
}

}  // namespace
}  // namespace inrarch::rtl
