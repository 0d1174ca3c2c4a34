// Every op of ops.def through the back half: one graph uses each non-leaf op on streamed
// values, and it is lowered (each op's row of ops.def names its process kind), sized, emitted
// as HLS and C-simulated in all three modes against the reference interpreter. The graph
// is built by a switch over every ir::Op with no default, so adding an op to ops.def does
// not compile until this test uses it (-Werror=switch).
#include "dataflow/kernels.h"
#include "hls_test_util.h"

namespace inrarch::hls {
namespace {

using ir::NodeId;
using ir::Op;

struct Values {
  NodeId x, y;  // [4, 6] inputs
};

// A node computing `op` on streamed values (kNoNode for leaves, which are no kernels).
NodeId use(ir::Graph& g, Op op, const Values& v) {
  switch (op) {
    case Op::Input: case Op::Param: case Op::Const: return ir::kNoNode;
    case Op::Neg: case Op::Sin: case Op::Cos: case Op::Exp: case Op::Tanh: case Op::Relu:
    case Op::Step: return g.unary(op, v.x);
    case Op::Log: return g.unary(op, g.unary(Op::Exp, v.x));  // a positive argument
    case Op::Sqrt: return g.unary(op, g.unary(Op::Relu, v.x));  // zeros and positives
    case Op::Add: case Op::Sub: case Op::Mul: return g.binary(op, v.x, v.y);
    case Op::Div: return g.binary(op, v.x, g.unary(Op::Exp, v.y));
    case Op::Mm: return g.mm(v.x, g.transpose(v.y));  // both operands streamed
    case Op::Sum: return g.sum(v.x, {1}, false);
    case Op::Transpose: return g.transpose(v.x);
    case Op::Permute: return g.permute(g.reshape(v.x, {4, 3, 2}), {1, 0, 2});
    case Op::Reshape: return g.reshape(v.x, {2, 12});
    case Op::Unsqueeze: return g.unsqueeze(v.x, 1);
    case Op::Squeeze: return g.squeeze(g.unsqueeze(v.y, 0), 0);
    case Op::Expand: return g.expand(g.sum(v.x, {0}, true), {4, 6});
    case Op::Select: return g.select(v.x, 1, 2);
    case Op::Slice: return g.slice(v.x, 1, 1, 5, 2);
    case Op::Cat: return g.cat({v.x, v.y}, 0);
  }
  return ir::kNoNode;
}

TEST(EveryOp, LowersSizesAndSimulatesThroughItsKind) {
  ir::Bundle b{ir::Graph("every_op"), {}, {}, {}};
  Values v{b.graph.input("x", {4, 6}), b.graph.input("y", {4, 6})};
  // The constant-operand forms too: an mm with a ROM on either side, an elementwise op
  // with a ROM operand.
  b.graph.add_output("mm_rom_b", b.graph.mm(v.x, b.graph.param("w", {6, 5})));
  b.graph.add_output("mm_rom_a", b.graph.mm(b.graph.param("a", {3, 4}), v.y));
  b.graph.add_output("mul_rom", b.graph.binary(Op::Mul, v.x, b.graph.param("s", {4, 6})));
  int kernels = 0;
  for (int i = 0; i < ir::kNumOps; ++i) {
    const Op op = static_cast<Op>(i);
    NodeId n = use(b.graph, op, v);
    EXPECT_EQ(n == ir::kNoNode, dataflow::kernel_kind(op) == dataflow::Kind::Source)
        << ir::op_name(op);
    if (n == ir::kNoNode) continue;
    b.graph.add_output(std::string(ir::op_name(op)), n);
    ++kernels;
  }
  EXPECT_EQ(kernels, ir::kNumOps - 3);
  hls_test::fill_bundle(b, 3);
  dataflow::Design d = dataflow::lower(b.graph);
  for (const dataflow::Process& p : d.processes) {
    if (p.kind == dataflow::Kind::Source || p.kind == dataflow::Kind::Sink ||
        p.kind == dataflow::Kind::Copy)
      continue;
    dataflow::Kind expected = dataflow::kernel_kind(p.op);
    if (expected == dataflow::Kind::Binary && p.inputs.size() < 2) expected = dataflow::Kind::Unary;
    EXPECT_EQ(p.kind, expected) << p.name;
  }
  hls_test::size_design(d);
  HlsOptions opt;
  opt.type = parse_number_type("double");
  fs::path dir = hls_test::out_dir("every_op");
  emit_hls(d, b, opt, dir);
  const SimVerdicts r = run_simulations(d, dir, opt);
  EXPECT_TRUE(r.csim->pass()) << to_json(r).dump();
  EXPECT_LE(r.csim->max_rel_error.value(), 1e-6) << to_json(r).dump();
  EXPECT_TRUE(r.threaded->pass()) << to_json(r).dump();
  EXPECT_TRUE(r.trace->pass) << to_json(*r.trace).dump();
}

}  // namespace
}  // namespace inrarch::hls
