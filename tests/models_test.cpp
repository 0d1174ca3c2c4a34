// The built-in SIREN and INSP derivative set: structure (outputs, params), initialisation,
// reproducibility, and values against a SIREN forward written out by hand here (plus finite
// differences of it for the first derivatives).
#include "autodiff/models.h"

#include <cmath>

#include <fmt/format.h>
#include <gtest/gtest.h>

#include "support/error.h"
#include "ir/interpreter.h"

namespace inrarch::autodiff {
namespace {

using ir::Graph;
using ir::Op;
using ir::TensorMap;

TEST(Models, InspOutputCounts) {
  EXPECT_EQ(insp_output_count(0), 3);
  EXPECT_EQ(insp_output_count(1), 9);
  EXPECT_EQ(insp_output_count(2), 21);
  EXPECT_EQ(insp_output_count(3), 45);
  SirenSpec spec;  // the paper's 2-256-256-256-256-3 at batch 64
  for (int k = 1; k <= 3; ++k) {
    SCOPED_TRACE(k);
    const Graph g = build_insp_graph(spec, k);
    ASSERT_EQ(static_cast<int64_t>(g.outputs().size()), insp_output_count(k));
    for (size_t i = 0; i < g.outputs().size(); ++i) {
      EXPECT_EQ(g.outputs()[i].name, fmt::format("out{}", i));
      EXPECT_EQ(g.shape(g.outputs()[i].node), (Shape{64}));
    }
    EXPECT_NO_THROW(ir::verify(g));
  }
}

TEST(Models, ParamNamesAndShapes) {
  SirenSpec spec;
  const Graph g = build_insp_graph(spec, 1);
  const TensorMap params = siren_params(spec);
  ASSERT_EQ(params.size(), 10u);
  for (size_t l = 0; l < 5; ++l) {
    const int64_t in = spec.dims[l], out = spec.dims[l + 1];
    const auto w = fmt::format("l{}.weight", l), b = fmt::format("l{}.bias", l);
    ASSERT_TRUE(params.count(w) && params.count(b)) << l;
    EXPECT_EQ(params.at(w).shape, (Shape{out, in}));
    EXPECT_EQ(params.at(b).shape, (Shape{out}));
    ASSERT_NE(g.find_param(w), ir::kNoNode);
    EXPECT_EQ(g.shape(g.find_param(w)), (Shape{out, in}));
    EXPECT_EQ(g.shape(g.find_param(b)), (Shape{out}));
  }
  ASSERT_NE(g.find_input("x"), ir::kNoNode);
  EXPECT_EQ(g.shape(g.find_input("x")), (Shape{64, 2}));
}

void expect_uniform_in(const Tensor& t, double bound, const std::string& what) {
  double lo = 0, hi = 0;
  for (double v : t.data) lo = std::min(lo, v), hi = std::max(hi, v);
  EXPECT_GE(lo, -bound) << what;
  EXPECT_LT(hi, bound) << what;
  if (t.size() < 64) return;  // too few draws to expect the extremes
  EXPECT_LT(lo, -0.8 * bound) << what << " does not fill its range";
  EXPECT_GT(hi, 0.8 * bound) << what << " does not fill its range";
}

TEST(Models, SirenInitBounds) {
  SirenSpec spec;
  const TensorMap params = siren_params(spec);
  for (size_t l = 0; l < 5; ++l) {
    const double in = static_cast<double>(spec.dims[l]);
    const double wb = l == 0 ? 1.0 / in : std::sqrt(6.0 / in) / 30.0;
    expect_uniform_in(params.at(fmt::format("l{}.weight", l)), wb, fmt::format("l{}.weight", l));
    expect_uniform_in(params.at(fmt::format("l{}.bias", l)), 1.0 / std::sqrt(in),
                      fmt::format("l{}.bias", l));
  }
  expect_uniform_in(siren_input(spec), 1.0, "x");
}

TEST(Models, SeedReproducibility) {
  SirenSpec a, b;
  b.seed = 1;
  EXPECT_EQ(siren_params(a), siren_params(a));
  EXPECT_EQ(siren_input(a), siren_input(a));
  EXPECT_NE(siren_params(a).at("l1.weight"), siren_params(b).at("l1.weight"));
  EXPECT_NE(siren_input(a), siren_input(b));
  SirenSpec wide = a;
  wide.batch = 128;  // the weights do not depend on the batch
  EXPECT_EQ(siren_params(a), siren_params(wide));
  // Two builds of the same graph are node-for-node identical.
  EXPECT_EQ(build_insp_graph(a, 2).nodes(), build_insp_graph(a, 2).nodes());
}

// SIREN forward for one sample, written out independently of the IR.
std::vector<double> siren_by_hand(const SirenSpec& s, const TensorMap& p, std::vector<double> h) {
  for (size_t l = 0; l + 1 < s.dims.size(); ++l) {
    const Tensor& w = p.at(fmt::format("l{}.weight", l));
    const Tensor& b = p.at(fmt::format("l{}.bias", l));
    std::vector<double> next(s.dims[l + 1]);
    for (int64_t o = 0; o < s.dims[l + 1]; ++o) {
      double acc = b.data[o];
      for (int64_t i = 0; i < s.dims[l]; ++i) acc += w.data[o * s.dims[l] + i] * h[i];
      next[o] = l + 2 < s.dims.size() ? std::sin(s.w0 * acc) : acc;
    }
    h = std::move(next);
  }
  return h;
}

TEST(Models, InspBundleValuesMatchHandWrittenSiren) {
  SirenSpec spec;
  spec.dims = {2, 16, 16, 3};
  spec.batch = 5;
  spec.seed = 3;
  const ir::Bundle b = build_insp_bundle(spec, 1);
  ASSERT_EQ(b.reference.size(), 9u);
  ASSERT_EQ(b.inputs.size(), 1u);
  EXPECT_NO_THROW(ir::verify(b.graph));
  const Tensor& x = b.inputs.at("x");
  for (int64_t n = 0; n < spec.batch; ++n) {
    std::vector<double> xn = {x.data[2 * n], x.data[2 * n + 1]};
    const auto y = siren_by_hand(spec, b.params, xn);
    for (int c = 0; c < 3; ++c) {
      EXPECT_NEAR(b.reference.at(fmt::format("out{}", c)).data[n], y[c], 1e-12);
      // out{3+2c+i} = d(y_c / 189) / dx_i, by central differences.
      for (int i = 0; i < 2; ++i) {
        const double h = 1e-6;
        auto xp = xn, xm = xn;
        xp[i] += h;
        xm[i] -= h;
        const double fd =
            (siren_by_hand(spec, b.params, xp)[c] - siren_by_hand(spec, b.params, xm)[c]) /
            (2 * h * 189.0);
        EXPECT_NEAR(b.reference.at(fmt::format("out{}", 3 + 2 * c + i)).data[n], fd, 1e-7)
            << "sample " << n << " channel " << c << " dx" << i;
      }
    }
  }
}

TEST(Models, BadSpecsAreErrors) {
  SirenSpec spec;
  EXPECT_THROW(insp_output_count(-1), Error);
  EXPECT_THROW(build_insp_graph(spec, -1), Error);
  spec.dims = {2, 8, 2};  // INSP needs 3 output channels
  EXPECT_THROW(build_insp_graph(spec, 1), Error);
  spec.dims = {2};
  EXPECT_THROW(siren_params(spec), Error);
  spec.dims = {2, 8, 3};
  spec.batch = 0;
  EXPECT_THROW(siren_input(spec), Error);
}

}  // namespace
}  // namespace inrarch::autodiff
