// A 0-d output (a loss: the sum of every element) through the bundle's save and load, the
// lowering, and the HLS project's C simulations: one element on its stream, compared with
// the reference interpreter (docs/formats.md, docs/hls.md).
#include "hls_test_util.h"
#include "ir/bundle.h"
#include "ir/interpreter.h"

namespace inrarch::hls {
namespace {

using ir::NodeId;
using ir::Op;

// u = tanh(x W) [8, 4], loss = Σ u² (0-d), and a 0-d value used again: 0.5 · loss.
ir::Bundle loss_bundle() {
  ir::Bundle b{ir::Graph("loss"), {}, {}, {}};
  ir::Graph& g = b.graph;
  const NodeId u = g.unary(Op::Tanh, g.mm(g.input("x", {8, 2}), g.param("w", {2, 4})));
  const NodeId loss = g.sum(g.binary(Op::Mul, u, u), {0, 1}, false);
  g.add_output("u", u);
  g.add_output("loss", loss);
  g.add_output("half_loss", g.binary(Op::Mul, g.constant(0.5, {}), loss));
  hls_test::fill_bundle(b, 7);
  return b;
}

TEST(ScalarOutput, BundleKeepsAZeroDimensionalReference) {
  ir::Bundle b = loss_bundle();
  std::vector<Tensor> values = ir::evaluate(b.graph, b.inputs, b.params);
  for (size_t i = 0; i < values.size(); ++i) b.reference[b.graph.outputs()[i].name] = values[i];
  const fs::path dir = hls_test::out_dir("scalar_bundle") / "b";
  ir::save_bundle(b, dir);
  const ir::Bundle back = ir::load_bundle(dir);
  EXPECT_EQ(back.graph.shape(back.graph.outputs()[1].node), ir::Shape{});
  ASSERT_EQ(back.reference.at("loss").shape, ir::Shape{});
  double sum = 0;   // Σ u², by hand from u's reference
  for (double v : back.reference.at("u").data) sum += v * v;
  EXPECT_NEAR(back.reference.at("loss").data.at(0), sum, 1e-12 * sum);
  EXPECT_GT(sum, 0.1);
}

TEST(ScalarOutput, LowersAndSimulatesOneElementStreams) {
  ir::Bundle b = loss_bundle();
  dataflow::Design d = dataflow::lower(b.graph);
  hls_test::size_design(d);
  HlsOptions opt;
  opt.type = parse_number_type("fixed<32,10>");
  fs::path dir = hls_test::out_dir("scalar_output");
  emit_hls(d, b, opt, dir);
  const SimVerdicts r = run_simulations(d, dir, opt);
  EXPECT_TRUE(r.csim->pass()) << to_json(r).dump();
  EXPECT_LE(r.csim->max_abs_error.value(), 1e-4) << to_json(r).dump();
  EXPECT_TRUE(r.threaded->pass()) << to_json(r).dump();
  EXPECT_TRUE(r.trace->pass) << to_json(*r.trace).dump();
  // The 0-d outputs' golden files hold one double each.
  EXPECT_EQ(fs::file_size(dir / "data" / "out_loss.golden.bin"), sizeof(double));
}

}  // namespace
}  // namespace inrarch::hls
