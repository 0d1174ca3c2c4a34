// Static value bounds: on random graphs over every op, every value the interpreter computes
// for inputs inside the box lies inside the node's interval; hand-worked intervals for the
// rules that are more than the op on the ends; and the built-in INSP model's magnitudes.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <numbers>
#include <random>

#include "autodiff/models.h"
#include "passes/pipeline.h"
#include "passes/value_bounds.h"

namespace inrarch::passes {
namespace {

using ir::NodeId;
using ir::Op;

// A random graph over every op of ops.def on [r, c] values; log, sqrt and div get operands
// of their domain (exp(a) + 0.5 > 0, relu(a) >= 0), so the interpreter's values are finite.
ir::Graph random_graph(std::mt19937& rng) {
  auto pick = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
  ir::Graph g;
  const int64_t r = pick(1, 4), c = pick(1, 4);
  std::vector<NodeId> pool{g.input("x", {r, c})};
  if (pick(0, 1)) pool.push_back(g.input("z", {r, c}));
  auto any = [&] { return pool[pick(0, int(pool.size()) - 1)]; };
  auto positive = [&](NodeId a) { return g.binary(Op::Add, g.unary(Op::Exp, g.unary(Op::Tanh, a)), g.constant(0.5, {r, c})); };
  for (int i = 0, n = pick(1, 10); i < n; ++i) {
    const NodeId a = any(), b = any();
    NodeId v;
    switch (pick(0, 17)) {
      case 0: v = g.unary(Op::Sin, g.binary(Op::Mul, a, g.constant(3.0, {r, c}))); break;
      case 1: v = g.unary(Op::Cos, a); break;
      case 2: v = g.unary(Op::Neg, g.unary(Op::Relu, a)); break;
      case 3: v = g.binary(Op::Mul, g.unary(Op::Step, a), b); break;
      case 4: v = g.unary(Op::Log, positive(a)); break;
      case 5: v = g.unary(Op::Sqrt, g.unary(Op::Relu, a)); break;
      case 6: v = g.binary(Op::Div, a, positive(b)); break;
      case 7: v = g.binary(Op::Sub, a, b); break;
      case 8: v = g.binary(Op::Mul, a, b); break;
      case 9: v = g.mm(a, g.param("w" + std::to_string(i), {c, c})); break;
      case 10: v = g.mm(a, g.mm(g.transpose(a), b)); break;
      case 11: v = g.expand(g.sum(a, {1}, true), {r, c}); break;
      case 12: v = g.expand(g.unsqueeze(g.select(a, 1, pick(0, int(c) - 1)), 1), {r, c}); break;
      case 13: {
        const int64_t start = pick(0, int(c));
        v = g.slice(g.cat({a, b}, 1), 1, start, start + c);
        break;
      }
      case 14: v = g.reshape(g.permute(g.reshape(a, {r, c, 1}), {0, 1, 2}), {r, c}); break;
      case 15: v = g.squeeze(g.unsqueeze(g.transpose(g.transpose(a)), 0), 0); break;
      case 16: v = g.binary(Op::Add, a, g.constant(-1.5, {r, c})); break;
      default: v = g.unary(Op::Exp, g.unary(Op::Sin, a)); break;
    }
    pool.push_back(v);
  }
  g.add_output("y", pool.back());
  return g;
}

// Each input's box: per element a random [lo, hi] within [-3, 3], some of them points.
InputBox random_box(const ir::Graph& g, std::mt19937& rng) {
  std::uniform_real_distribution<double> u(-3, 3);
  InputBox box = uniform_box(g, 0, 0);
  for (auto& [name, iv] : box)
    for (int64_t i = 0; i < iv.lo.size(); ++i) {
      double a = u(rng), b = rng() % 4 == 0 ? a : u(rng);
      iv.lo.data[i] = std::min(a, b), iv.hi.data[i] = std::max(a, b);
    }
  return box;
}

// Inputs inside the box: its corners first (the ends of every element), then uniform points.
ir::TensorMap sample(const InputBox& box, int k, std::mt19937& rng) {
  ir::TensorMap in;
  for (const auto& [name, iv] : box) {
    Tensor t(iv.lo.shape);
    for (int64_t i = 0; i < t.size(); ++i) {
      const double w = k < 8 ? double(rng() % 2) : std::uniform_real_distribution<double>(0, 1)(rng);
      t.data[i] = std::min(iv.hi.data[i], iv.lo.data[i] + w * (iv.hi.data[i] - iv.lo.data[i]));
    }
    in[name] = t;
  }
  return in;
}

TEST(ValueBounds, EveryValueInsideTheBoxStaysInsideItsInterval) {
  int checked = 0, unbounded = 0;
  for (uint32_t seed = 0; seed < 400; ++seed) {
    std::mt19937 rng(seed);
    ir::Graph g = random_graph(rng);
    ir::TensorMap params;
    std::normal_distribution<double> normal(0, 1);
    for (NodeId id = 0; id < g.size(); ++id)
      if (g.node(id).op == Op::Param) {
        Tensor w(g.node(id).shape);
        for (double& v : w.data) v = normal(rng);
        params[g.node(id).attrs.name] = w;
      }
    const InputBox box = random_box(g, rng);
    std::vector<NodeId> all;
    for (NodeId id = 0; id < g.size(); ++id) all.push_back(id);
    const std::vector<Interval> bounds = value_bounds(g, all, box, params);
    const std::vector<double> magnitude = magnitude_bounds(g, all, box, params);
    for (int k = 0; k < 24; ++k) {
      const std::vector<Tensor> values = ir::evaluate_nodes(g, all, sample(box, k, rng), params);
      for (NodeId id = 0; id < g.size(); ++id)
        for (int64_t i = 0; i < values[id].size(); ++i) {
          const double v = values[id].data[i];
          ASSERT_FALSE(std::isnan(v)) << "seed " << seed << " node %" << id;
          ASSERT_LE(bounds[id].lo.data[i], v) << "seed " << seed << " node %" << id << " " << ir::op_name(g.node(id).op);
          ASSERT_GE(bounds[id].hi.data[i], v) << "seed " << seed << " node %" << id << " " << ir::op_name(g.node(id).op);
          ASSERT_GE(magnitude[id], std::fabs(v));
          ++checked;
        }
    }
    for (double m : magnitude) unbounded += std::isinf(m);
  }
  EXPECT_GT(checked, 100000);
  EXPECT_LT(unbounded, 40);  // the domains above keep almost every node bounded
}

// Hand-worked: y = 3 x1 - x2 over x1 in [-1, 2], x2 in [0, 1] is [-4, 6]; the midpoint-
// radius product is exact for a point matrix.
TEST(ValueBounds, AProductWithPointWeightsIsExact) {
  ir::Graph g;
  const NodeId x = g.input("x", {1, 2});
  const NodeId y = g.mm(x, g.param("w", {2, 1}));
  InputBox box{{"x", {Tensor({1, 2}, {-1, 0}), Tensor({1, 2}, {2, 1})}}};
  const Interval b = value_bounds(g, {y}, box, {{"w", Tensor({2, 1}, {3, -1})}})[0];
  EXPECT_NEAR(b.lo.data[0], -4, 1e-12);
  EXPECT_NEAR(b.hi.data[0], 6, 1e-12);
  EXPECT_LE(b.lo.data[0], -4);
  EXPECT_GE(b.hi.data[0], 6);
}

TEST(ValueBounds, SineAndCosineTakeTheirCrestsAndTroughsInside) {
  ir::Graph g;
  const NodeId x = g.input("x", {1, 1});
  const NodeId s = g.unary(Op::Sin, x), c = g.unary(Op::Cos, x);
  auto at = [&](NodeId n, double lo, double hi) {
    InputBox box{{"x", {Tensor({1, 1}, lo), Tensor({1, 1}, hi)}}};
    const Interval b = value_bounds(g, {n}, box, {})[0];
    return std::pair{b.lo.data[0], b.hi.data[0]};
  };
  constexpr double pi = std::numbers::pi;
  auto [l1, h1] = at(s, 0.1, pi - 0.1);  // crest at pi/2: [sin 0.1, 1]
  EXPECT_NEAR(l1, std::sin(0.1), 1e-15);
  EXPECT_EQ(h1, 1.0);
  auto [l2, h2] = at(s, 2.0, 4.0);  // falling through 0: [sin 4, sin 2]
  EXPECT_NEAR(l2, std::sin(4.0), 1e-15);
  EXPECT_NEAR(h2, std::sin(2.0), 1e-15);
  auto [l3, h3] = at(c, 3.0, 3.5);  // trough at pi
  EXPECT_EQ(l3, -1.0);
  EXPECT_NEAR(h3, std::max(std::cos(3.0), std::cos(3.5)), 1e-15);
  auto [l4, h4] = at(c, -7, 0.5);  // wider than a period
  EXPECT_EQ(l4, -1.0);
  EXPECT_EQ(h4, 1.0);
}

// Interval arithmetic forgets that both operands are x: x - x over [0, 1] is [-1, 1]. A
// quotient by an interval that holds 0 is unbounded, and so is everything after it.
TEST(ValueBounds, DependentOperandsAndZeroDivisorsAreBoundedLoosely) {
  ir::Graph g;
  const NodeId x = g.input("x", {1, 1});
  const NodeId d = g.binary(Op::Sub, x, x);
  const NodeId q = g.binary(Op::Div, g.constant(1.0, {1, 1}), x);
  const NodeId after = g.unary(Op::Tanh, q);
  const std::vector<double> m = magnitude_bounds(g, {d, q, after}, uniform_box(g, 0, 1), {});
  EXPECT_EQ(m[0], 1.0);
  EXPECT_TRUE(std::isinf(m[1]));
  EXPECT_EQ(m[2], 1.0);  // tanh of [-inf, inf] is [-1, 1]
}

// The built-in model at order 1 over its own input box [-1, 1]: every node bounded, at least
// the largest value a grid of inputs reaches.
TEST(ValueBounds, InspIsBoundedOverItsBox) {
  autodiff::SirenSpec spec;
  spec.dims = {2, 16, 16, 3};
  spec.batch = 1;
  ir::Bundle b = autodiff::build_insp_bundle(spec, 1, false, autodiff::DerivativeMode::Taylor);
  optimize_bundle(b);
  std::vector<NodeId> all;
  for (NodeId id = 0; id < b.graph.size(); ++id) all.push_back(id);
  const std::vector<double> m = magnitude_bounds(b.graph, all, uniform_box(b.graph, -1, 1), b.params);
  std::vector<double> seen(all.size(), 0);
  for (double u = -1; u <= 1; u += 0.25)
    for (double v = -1; v <= 1; v += 0.25) {
      ir::TensorMap in = b.inputs;
      for (auto& [name, t] : in)
        for (int64_t i = 0; i < t.size(); ++i) t.data[i] = i % 2 ? v : u;
      const std::vector<Tensor> values = ir::evaluate_nodes(b.graph, all, in, b.params);
      for (size_t n = 0; n < all.size(); ++n)
        for (double x : values[n].data) seen[n] = std::max(seen[n], std::fabs(x));
    }
  for (size_t n = 0; n < all.size(); ++n) {
    EXPECT_TRUE(std::isfinite(m[n])) << "node %" << n;
    EXPECT_GE(m[n], seen[n]) << "node %" << n;
  }
}

}  // namespace
}  // namespace inrarch::passes
