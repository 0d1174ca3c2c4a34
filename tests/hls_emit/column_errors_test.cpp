// Verification per output column: a stacked output whose columns differ in scale by orders
// of magnitude must not hide the small column's error behind the large column's values.
// The figures of the testbench helper by hand, then end to end through the C simulation.
#include <gtest/gtest.h>

#include "backend/hls/include/inrarch/tb_util.h"
#include "hls_test_util.h"

namespace inrarch::hls {
namespace {

// The sequential C simulation of b lowered as it is, at `type`, emitted into out_dir(name).
SimVerdicts csim_of(const ir::Bundle& b, const std::string& type, const std::string& name, bool pow2_scaling = true) {
  dataflow::Design d = dataflow::lower(b.graph);
  hls_test::size_design(d);
  HlsOptions opt;
  opt.type = parse_number_type(type);
  opt.pow2_scaling = pow2_scaling;
  fs::path dir = hls_test::out_dir(name);
  emit_hls(d, b, opt, dir);
  SimOptions sim;
  sim.threaded = sim.trace = false;
  return run_simulations(d, dir, opt, sim);
}

TEST(ColumnErrors, FiguresByHand) {
  // Two rows of [big, small]: errors 1 and 2 in the big column (max |want| 100), 0.01 and
  // 0.005 in the small one (max |want| 0.1).
  std::vector<double> want = {100, 0.1, -50, 0.05};
  std::vector<double> got = {101, 0.11, -52, 0.045};
  inrarch_hls::tb::errors e;
  e.add("y", got, want, 2);
  EXPECT_DOUBLE_EQ(e.max_abs, 2.0);
  EXPECT_DOUBLE_EQ(e.max_rel, 2.0 / 100);  // the tensor's: the small column is invisible
  EXPECT_NEAR(e.max_column_rel, 0.01 / 0.1, 1e-12);
  ASSERT_EQ(e.worst.size(), 2u);
  EXPECT_EQ(e.worst[0].output, "y");
  EXPECT_EQ(e.worst[0].column, 1);
  EXPECT_NEAR(e.worst[0].rel, 0.1, 1e-12);
  EXPECT_EQ(e.worst[1].column, 0);
  EXPECT_NEAR(e.worst[1].rel, 0.02, 1e-12);
  // A NaN is the worst of all and never passes.
  inrarch_hls::tb::errors n;
  n.add("z", {0.0, std::nan("")}, {0.0, 1.0}, 2);
  EXPECT_TRUE(std::isnan(n.max_column_rel));
  EXPECT_EQ(n.worst.front().column, 1);
  EXPECT_FALSE(n.pass(true, 1e-3, 1e-4));
}

// The fixed-point criterion: per output max|got - want| / max(1, max|want|), the absolute
// error within ±1 and the relative one above.
TEST(ColumnErrors, ScaledErrorIsAbsoluteWithinOneAndRelativeAbove) {
  inrarch_hls::tb::errors small;
  small.add("u", {0.5015, -0.8}, {0.5, -0.8}, 1);
  EXPECT_NEAR(small.max_scaled, 1.5e-3, 1e-12);  // = its abs error: |want| <= 1
  EXPECT_FALSE(small.pass(true, 1e-3, 1e-4));
  inrarch_hls::tb::errors large;
  large.add("lap", {2000.9, -1500}, {2000, -1500}, 1);
  EXPECT_NEAR(large.max_abs, 0.9, 1e-9);
  EXPECT_NEAR(large.max_scaled, 0.9 / 2000, 1e-12);
  EXPECT_TRUE(large.pass(true, 1e-3, 1e-4));
  large.add("u", {0.5015, -0.8}, {0.5, -0.8}, 1);  // each output on its own scale
  EXPECT_NEAR(large.max_scaled, 1.5e-3, 1e-12);
  EXPECT_FALSE(large.pass(true, 1e-3, 1e-4));
}

// y = [10000, -7000] x, x in [-1, 1), in fixed<32,15> (an output is written at its true
// value, so it needs the integer bits): the rounding of 17 fraction bits times 10^4 is an
// absolute error far above 1e-3, a relative one near 1e-5. The C simulation passes it.
TEST(ColumnErrors, ALargeOutputIsJudgedByItsOwnScale) {
  ir::Bundle b;
  ir::Graph& g = b.graph;
  ir::NodeId x = g.input("x", {16, 2});
  g.add_output("y", g.binary(ir::Op::Mul, x, g.expand(g.param("w", {1, 2}), {16, 2})));
  hls_test::fill_bundle(b);
  b.params.at("w").data = {10000.0, -7000.0};
  const SimVerdicts all = csim_of(b, "fixed<32,15>", "large_output");
  const SimRun& v = all.csim.value();
  EXPECT_TRUE(v.pass()) << to_json(all).dump();
  EXPECT_GT(v.max_abs_error.value(), 1e-3) << to_json(all).dump();
  EXPECT_LT(v.max_scaled_error.value(), 1e-4) << to_json(all).dump();
}

// y = x * [64, 2^-10] in fixed point without per-stream scaling: the small column keeps a
// few significant bits, so its own relative error is far above the tensor's.
TEST(ColumnErrors, ReportedByTheSimulation) {
  ir::Bundle b;
  ir::Graph& g = b.graph;
  ir::NodeId x = g.input("x", {16, 2});
  ir::NodeId w = g.param("w", {1, 2});
  g.add_output("y", g.binary(ir::Op::Mul, x, g.expand(w, {16, 2})));
  hls_test::fill_bundle(b);
  b.params.at("w").data = {64.0, 1.0 / 1024};
  const SimVerdicts all = csim_of(b, "fixed<32,10>", "column_errors", false);
  const SimRun& v = all.csim.value();
  ASSERT_TRUE(v.pass()) << to_json(all).dump();
  const double tensor = v.max_rel_error.value(), column = v.max_column_rel_error.value();
  EXPECT_GT(column, 100 * tensor) << to_json(all).dump();
  ASSERT_GE(v.worst_columns.size(), 2u);
  EXPECT_EQ(v.worst_columns[0].output, "y");
  EXPECT_EQ(v.worst_columns[0].column, 1);
  EXPECT_DOUBLE_EQ(v.worst_columns[0].rel_error, column);
}

// Each output's own errors: y = 10^4 x (judged relative to its scale) beside u = x / 4
// (judged absolute), in fixed<32,15>. y's absolute error is the run's, far above u's; u
// sets the run's scaled error; the outputs come in the design's order.
TEST(ColumnErrors, EachOutputReportsItsOwnErrors) {
  ir::Bundle b;
  ir::Graph& g = b.graph;
  ir::NodeId x = g.input("x", {16, 2});
  g.add_output("y", g.binary(ir::Op::Mul, x, g.expand(g.param("w", {1, 2}), {16, 2})));
  g.add_output("u", g.binary(ir::Op::Mul, x, g.expand(g.param("q", {1, 2}), {16, 2})));
  hls_test::fill_bundle(b);
  b.params.at("w").data = {10000.0, -10000.0};
  b.params.at("q").data = {0.25, 0.25};
  const SimVerdicts all = csim_of(b, "fixed<32,15>", "output_errors");
  const SimRun& v = all.csim.value();
  SCOPED_TRACE(to_json(all).dump());
  ASSERT_EQ(v.outputs.size(), 2u);
  const OutputError &y = v.outputs[0], &u = v.outputs[1];
  EXPECT_EQ(y.output, "y");
  EXPECT_EQ(u.output, "u");
  EXPECT_DOUBLE_EQ(y.max_abs_error, v.max_abs_error.value());
  EXPECT_GT(y.max_abs_error, 1e-3);                      // 17 fraction bits times 10^4
  EXPECT_LT(y.max_scaled_error, 1e-4);                   // over max |y|, near 10^4
  EXPECT_NEAR(y.max_rel_error, y.max_scaled_error, 1e-12);
  EXPECT_LT(u.max_abs_error, 1e-4);
  EXPECT_DOUBLE_EQ(u.max_scaled_error, u.max_abs_error);  // |u| <= 1/4: absolute
  EXPECT_DOUBLE_EQ(std::max(y.max_scaled_error, u.max_scaled_error), v.max_scaled_error.value());
  EXPECT_EQ(to_json(all)["csim"]["outputs"][1]["output"], "u");
}

}  // namespace
}  // namespace inrarch::hls
