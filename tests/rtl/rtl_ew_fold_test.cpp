// Folded elementwise kernels (Process::ew_fold, docs/rtl.md "Folded elementwise kernels"):
// block / C lanes take a beat in C chunks, one a cycle, and write it elementwise_steps
// steps after its read, a step every C cycles. Every form of inrarch_ew1 / ew2 / ew2r at a
// block of 8, each at a chosen C:
//   y1 = sin(x1)             [4, 8], C = 4: 2 table lanes, 18 stages (3 steps of 4 cycles);
//   y2 = x2 * z2             [3, 8], C = 2: 4 lanes, both operands streamed;
//   y3 = x3 * w3             [3, 8], C = 4: a ROM of the whole operand (P = 24 > B);
//   y4 = x4 + b4 (expanded)  [5, 8], C = 8: one lane, a ROM of one row (P = 8 = B);
//   y5 = -x5                 [1, 8], C = 8: one beat, fewer than the 2 steps of its depth;
//   y6 = relu(x6 * z6)       [6, 8], C = 2 then 4: folded kernels feeding each other;
//   y7 = x7 / z7             [2, 8], C = 2: the 40-stage divider.
// Each is bit-exact with the HLS C simulation (the same kernels at II = C) under random
// stalls, lint-clean, and cycle-exact with the event graph without stalls.
#include "dataflow/attributes.h"
#include "dataflow/elementwise.h"
#include "rtl_test_util.h"

namespace inrarch::rtl {
namespace {

using ir::Op;

ir::Bundle seven_kernels() {
  ir::Bundle b{ir::Graph("ew_fold"), {}, {}, {}};
  ir::Graph& g = b.graph;
  g.add_output("y1", g.unary(Op::Sin, g.input("x1", {4, 8})));
  g.add_output("y2", g.binary(Op::Mul, g.input("x2", {3, 8}), g.input("z2", {3, 8})));
  g.add_output("y3", g.binary(Op::Mul, g.input("x3", {3, 8}), g.param("w3", {3, 8})));
  g.add_output("y4", g.binary(Op::Add, g.input("x4", {5, 8}), g.expand(g.param("b4", {1, 8}), {5, 8})));
  g.add_output("y5", g.unary(Op::Neg, g.input("x5", {1, 8})));
  g.add_output("y6", g.unary(Op::Relu, g.binary(Op::Mul, g.input("x6", {6, 8}), g.input("z6", {6, 8}))));
  g.add_output("y7", g.binary(Op::Div, g.input("x7", {2, 8}), g.input("z7", {2, 8})));
  hls::hls_test::fill_bundle(b, 7);
  for (double& v : b.inputs.at("z7").data) v = v < 0 ? v - 0.5 : v + 0.5;  // |z| >= 0.5: no saturation
  return b;
}

// The folds, by the output each kernel writes (its producer's op is unique per output here).
int64_t fold_of(const dataflow::Design& d, const dataflow::Process& p) {
  const std::string& out = d.streams[p.outputs.at(0)].name;
  auto writes = [&](const char* y) { return out.find(y) != std::string::npos; };
  if (p.op == Op::Sin) return 4;
  if (p.op == Op::Mul && p.inputs.size() == 2 && !writes("y6")) return 2;
  if (p.op == Op::Mul && p.inputs.size() == 1) return 4;
  if (p.op == Op::Add) return 8;
  if (p.op == Op::Neg) return 8;
  if (p.op == Op::Mul) return 2;   // x6 * z6
  if (p.op == Op::Relu) return 4;
  if (p.op == Op::Div) return 2;
  return 1;
}

TEST(RtlEwFold, EveryFormBitAndCycleExact) {
  INRARCH_NEED_TOOL("verilator");
  dataflow::LowerOptions lo;
  lo.block = 8;
  rtl_test::Case c{seven_kernels(), {}, hls::hls_test::out_dir("rtl_ew_fold")};
  c.design = dataflow::lower(c.bundle.graph, lo);
  int folded = 0;
  for (size_t i = 0; i < c.design.processes.size(); ++i) {
    const dataflow::Process& p = c.design.processes[i];
    if (p.kind != dataflow::Kind::Unary && p.kind != dataflow::Kind::Binary) continue;
    ASSERT_EQ(c.design.streams[p.outputs.at(0)].block, 8) << p.name;
    dataflow::set_ew_fold(c.design, dataflow::ProcessId(i), fold_of(c.design, p));
    folded += p.ew_fold > 1;
  }
  EXPECT_EQ(folded, 8);
  hls::hls_test::size_design(c.design);
  hls::emit_hls(c.design, c.bundle, {}, c.dir / "hls");
  emit_rtl(c.design, c.bundle, driver::rtl_options(c.design, c.bundle, {}), c.dir / "rtl");
  rtl_test::expect_exact(c);
}

}  // namespace
}  // namespace inrarch::rtl
