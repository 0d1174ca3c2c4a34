// The default derivative construction of a primal bundle (`derive --mode auto`,
// driver/derivative_mode.h): the mode with fewer multiplies in the lowered design. The
// counts it decides on must be those of the designs each mode gives at the bundle's own
// batch, also past 128 rows where it counts on rebatched graphs; the shape of the model
// decides: a scalar field of many inputs (a gradient: one backward pass) is cheaper in
// reverse mode (at 16 rows 4,352 multiplies against Taylor's 6,400), a three-layer SIREN of
// two inputs and three outputs to second order in Taylor mode (63,840 against 117,504).
#include <gtest/gtest.h>

#include "../hls_emit/hls_test_util.h"
#include "dataflow/lower.h"
#include "dataflow/resources.h"
#include "driver/derivative_mode.h"
#include "ir/interpreter.h"
#include "passes/pipeline.h"
#include "support/error.h"

namespace inrarch::driver {
namespace {

using autodiff::DerivativeMode;

// x [rows, in] -> `layers` of sin(h W) -> h W_out -> y [rows, outs], weights and inputs drawn.
ir::Bundle field(int64_t rows, int64_t in, int64_t hidden, int layers = 1, int64_t outs = 1) {
  ir::Bundle b{ir::Graph("field"), {}, {}, {}};
  ir::Graph& g = b.graph;
  ir::NodeId h = g.input("x", {rows, in});
  for (int l = 0; l < layers; ++l)
    h = g.unary(ir::Op::Sin, g.mm(h, g.param("w" + std::to_string(l), {l == 0 ? in : hidden, hidden})));
  g.add_output("y", g.mm(h, g.param("w_out", {hidden, outs})));
  hls::hls_test::fill_bundle(b, 3);
  return b;
}

int64_t design_multiplies(ir::Bundle b) {
  passes::optimize_bundle(b);
  return dataflow::count_multiplies(dataflow::lower(b.graph));
}

void expect_counts_of_the_designs(const ir::Bundle& primal, const autodiff::TaylorSpec& spec, DerivativeMode expected) {
  const ModeChoice c = choose_bundle_mode("auto", primal, spec);
  EXPECT_TRUE(c.chosen);
  EXPECT_EQ(c.mode, expected);
  EXPECT_EQ(c.reverse_multiplies, design_multiplies(derive_in_mode(primal, spec, DerivativeMode::Reverse, false)));
  EXPECT_EQ(c.taylor_multiplies, design_multiplies(derive_in_mode(primal, spec, DerivativeMode::Taylor, false)));
}

TEST(BundleMode, AGradientOfManyInputsIsReverseMode) {
  for (int64_t rows : {16, 300}) {  // 300: counted at 64 and 128 rows
    SCOPED_TRACE(rows);
    expect_counts_of_the_designs(field(rows, 8, 16), {"x", 1, {}}, DerivativeMode::Reverse);
  }
}

TEST(BundleMode, SecondOrderOfTwoInputsIsTaylorMode) {
  for (int64_t rows : {16, 300}) {
    SCOPED_TRACE(rows);
    expect_counts_of_the_designs(field(rows, 2, 16, 3, 3), {"x", 2, {}}, DerivativeMode::Taylor);
  }
}

TEST(BundleMode, ANamedModeIsTakenWithoutCounting) {
  const ir::Bundle primal = field(16, 8, 16);
  const ModeChoice c = choose_bundle_mode("taylor", primal, {"x", 1, {}});
  EXPECT_FALSE(c.chosen);
  EXPECT_EQ(c.mode, DerivativeMode::Taylor);
  EXPECT_EQ(c.reverse_multiplies, 0);
  EXPECT_THROW(choose_bundle_mode("forward", primal, {"x", 1, {}}), Error);
}

// Each mode's bundle carries the other construction's values as its reference: they agree
// with the bundle's own graph.
TEST(BundleMode, EachModesReferenceIsTheOtherConstructionsValues) {
  const ir::Bundle primal = field(6, 3, 8);
  for (DerivativeMode mode : {DerivativeMode::Reverse, DerivativeMode::Taylor}) {
    SCOPED_TRACE(autodiff::mode_name(mode));
    const ir::Bundle b = derive_in_mode(primal, {"x", 2, {}}, mode, true);
    const std::vector<ir::Tensor> own = ir::evaluate(b.graph, b.inputs, b.params);
    ASSERT_EQ(own.size(), b.graph.outputs().size());
    ASSERT_EQ(b.reference.size(), own.size());
    for (size_t i = 0; i < own.size(); ++i) {
      const ir::Tensor& ref = b.reference.at(b.graph.outputs()[i].name);
      ASSERT_EQ(ref.data.size(), own[i].data.size());
      for (size_t k = 0; k < ref.data.size(); ++k) EXPECT_NEAR(ref.data[k], own[i].data[k], 1e-9);
    }
  }
}

}  // namespace
}  // namespace inrarch::driver
