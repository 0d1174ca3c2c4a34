// Taylor mode against two independent oracles: nested reverse mode (grad(), built from the
// VJP rules, never the Taylor rules) to 1e-10, and central finite differences of the
// forward interpreter for orders 1 and 2. Every ops.def op with operands is reached by one
// of the small graphs below, each up to order 3 in two variables.
#include "autodiff/taylor.h"

#include <cmath>
#include <functional>
#include <random>

#include <fmt/format.h>
#include <gtest/gtest.h>

#include "autodiff/models.h"
#include "ir/interpreter.h"
#include "passes/rebatch.h"
#include "support/error.h"

namespace inrarch::autodiff {
namespace {

using ir::Graph;
using ir::NodeId;
using ir::Op;
using ir::TensorMap;

Tensor rand_tensor(std::mt19937_64& r, const Shape& s, double lo, double hi) {
  Tensor t(s);
  for (double& v : t.data) v = lo + (hi - lo) * static_cast<double>(r() >> 11) * 0x1.0p-53;
  return t;
}

// A small model: x [rows, 2] through a linear layer to h [rows, 4], then `body`.
struct Case {
  std::string name;
  std::function<NodeId(Graph&, NodeId h, NodeId h2)> body;
  int64_t rows = 3;
};

struct Built {
  Graph g;
  TensorMap inputs, params;
};

Built build(const Case& c, uint64_t seed) {
  Built b{Graph("t"), {}, {}};
  std::mt19937_64 r(seed);
  NodeId x = b.g.input("x", {c.rows, 2});
  auto layer = [&](const std::string& w) {
    b.params[w] = rand_tensor(r, {2, 4}, -1, 1);
    return b.g.mm(x, b.g.param(w, {2, 4}));
  };
  NodeId h = layer("w1"), h2 = layer("w2");
  b.g.add_output("y", c.body(b.g, h, h2));
  for (const ir::Node& n : b.g.nodes())  // the body's own weights
    if (n.op == Op::Param && !b.params.count(n.attrs.name)) b.params[n.attrs.name] = rand_tensor(r, n.shape, -1, 1);
  b.inputs["x"] = rand_tensor(r, {c.rows, 2}, -0.8, 0.8);
  return b;
}

double rel_error(const Tensor& got, const Tensor& want) {
  double err = 0, scale = 1e-30;
  for (size_t i = 0; i < want.data.size(); ++i) {
    err = std::max(err, std::abs(got.data[i] - want.data[i]));
    scale = std::max(scale, std::abs(want.data[i]));
  }
  return err / scale;
}

NodeId un(Graph& g, Op op, NodeId a) { return g.unary(op, a); }
NodeId bin(Graph& g, Op op, NodeId a, NodeId b) { return g.binary(op, a, b); }
NodeId positive(Graph& g, NodeId a) {  // a² + 1
  return bin(g, Op::Add, bin(g, Op::Mul, a, a), g.constant(1.0, g.shape(a)));
}

std::vector<Case> cases() {
  return {
      {"neg", [](Graph& g, NodeId h, NodeId) { return un(g, Op::Sin, un(g, Op::Neg, h)); }},
      {"sin", [](Graph& g, NodeId h, NodeId) { return un(g, Op::Sin, h); }},
      {"cos", [](Graph& g, NodeId h, NodeId) { return un(g, Op::Cos, h); }},
      {"exp", [](Graph& g, NodeId h, NodeId) { return un(g, Op::Exp, h); }},
      {"tanh", [](Graph& g, NodeId h, NodeId) { return un(g, Op::Tanh, h); }},
      {"relu", [](Graph& g, NodeId h, NodeId h2) { return bin(g, Op::Mul, un(g, Op::Relu, h), un(g, Op::Sin, h2)); }},
      {"step", [](Graph& g, NodeId h, NodeId h2) { return bin(g, Op::Mul, un(g, Op::Step, h), un(g, Op::Sin, h2)); }},
      {"log", [](Graph& g, NodeId h, NodeId) { return un(g, Op::Log, positive(g, h)); }},
      {"sqrt", [](Graph& g, NodeId h, NodeId h2) { return bin(g, Op::Mul, un(g, Op::Sqrt, positive(g, h)), un(g, Op::Sin, h2)); }},
      {"add", [](Graph& g, NodeId h, NodeId h2) { return un(g, Op::Sin, bin(g, Op::Add, h, un(g, Op::Cos, h2))); }},
      {"sub", [](Graph& g, NodeId h, NodeId h2) { return un(g, Op::Sin, bin(g, Op::Sub, h, un(g, Op::Cos, h2))); }},
      {"mul", [](Graph& g, NodeId h, NodeId h2) { return bin(g, Op::Mul, un(g, Op::Sin, h), un(g, Op::Tanh, h2)); }},
      {"div", [](Graph& g, NodeId h, NodeId h2) { return bin(g, Op::Div, un(g, Op::Sin, h), positive(g, h2)); }},
      {"mm_by_weight", [](Graph& g, NodeId h, NodeId) {
         NodeId w = g.param("w3", {4, 3});
         return un(g, Op::Sin, g.mm(un(g, Op::Sin, h), w));
       }},
      {"mm_of_two_jets", [](Graph& g, NodeId h, NodeId h2) {
         return g.mm(g.transpose(un(g, Op::Sin, h)), un(g, Op::Cos, h2));  // [4,4] of one row
       }, 1},
      {"sum", [](Graph& g, NodeId h, NodeId) { return g.sum(un(g, Op::Sin, h), {1}, true); }},
      {"shape_ops", [](Graph& g, NodeId h, NodeId h2) {
         NodeId p = g.permute(g.reshape(un(g, Op::Sin, h), {3, 2, 2}), {0, 2, 1});
         NodeId q = g.squeeze(g.unsqueeze(g.reshape(p, {3, 4}), 2), 2);
         NodeId s = g.cat({g.slice(q, 1, 0, 4, 2), g.select(g.unsqueeze(h2, 2), 2, 0)}, 1);
         return un(g, Op::Tanh, bin(g, Op::Mul, s, g.expand(g.sum(h, {1}, true), {3, 6})));
       }},
  };
}

TEST(Taylor, EveryRuleEqualsNestedReverseModeToOrderThree) {
  for (const Case& c : cases()) {
    for (uint64_t seed = 1; seed <= 3; ++seed) {
      Built b = build(c, seed);
      const TaylorSpec spec{"x", 3, {}};
      const Graph t = taylor(b.g, spec);
      ir::verify(t);
      const Graph r = nested_reverse(b.g, spec);
      ASSERT_EQ(t.outputs().size(), 10u) << c.name;  // C(3+2, 2) partials of one output
      const auto tv = ir::evaluate(t, b.inputs, b.params), rv = ir::evaluate(r, b.inputs, b.params);
      for (size_t i = 0; i < tv.size(); ++i)
        EXPECT_LE(rel_error(tv[i], rv[i]), 1e-10) << c.name << " seed " << seed << " " << t.outputs()[i].name;
    }
  }
}


// Central differences of f(x + t·E_j), E_j the column j of ones: the derivative of every
// row at once, which for independent rows is each row's own.
Tensor shifted_output(const Built& b, const Graph& g, std::vector<double> t) {
  TensorMap in = b.inputs;
  Tensor& x = in["x"];
  for (size_t i = 0; i < x.data.size(); ++i) x.data[i] += t[i % 2];
  return ir::evaluate(g, in, b.params)[0];
}

TEST(Taylor, FirstAndSecondOrderEqualFiniteDifferences) {
  const double h = 1e-4;
  for (const Case& c : cases()) {
    Built b = build(c, 7);
    const Graph t = taylor(b.g, {"x", 2, {}});
    const auto tv = ir::evaluate(t, b.inputs, b.params);
    auto at = [&](double t0, double t1) { return shifted_output(b, b.g, {t0, t1}); };
    const Tensor f0 = at(0, 0), fx = at(h, 0), fX = at(-h, 0), fy = at(0, h), fY = at(0, -h);
    const Tensor fxy = at(h, h), fxY = at(h, -h), fXy = at(-h, h), fXY = at(-h, -h);
    // outputs: y, y_d1_0, y_d0_1, y_d2_0, y_d1_1, y_d0_2
    ASSERT_EQ(t.outputs()[4].name, "y_d1_1");
    for (size_t i = 0; i < f0.data.size(); ++i) {
      const double dx = (fx.data[i] - fX.data[i]) / (2 * h), dy = (fy.data[i] - fY.data[i]) / (2 * h);
      const double dxx = (fx.data[i] - 2 * f0.data[i] + fX.data[i]) / (h * h);
      const double dxy = (fxy.data[i] - fxY.data[i] - fXy.data[i] + fXY.data[i]) / (4 * h * h);
      const double dyy = (fy.data[i] - 2 * f0.data[i] + fY.data[i]) / (h * h);
      const double want[] = {f0.data[i], dx, dy, dxx, dxy, dyy};
      for (int k = 0; k < 6; ++k)
        EXPECT_NEAR(tv[k].data[i], want[k], k < 3 ? 1e-6 : 1e-3 * (1 + std::abs(want[k])))
            << c.name << " " << t.outputs()[k].name << " element " << i;
    }
  }
}

SirenSpec small_siren(int64_t batch, int64_t width) {
  SirenSpec s;
  s.dims = {2, width, width, width, width, 3};
  s.batch = batch;
  s.seed = 3;
  return s;
}

TEST(Taylor, InspOrdersOneToThreeEqualTheReverseModeBundle) {
  for (int order = 1; order <= 3; ++order) {
    const SirenSpec spec = small_siren(4, 12);
    const ir::Bundle rev = build_insp_bundle(spec, order, true, DerivativeMode::Reverse);
    const Graph tay = build_insp_graph(spec, order, DerivativeMode::Taylor);
    ir::verify(tay);
    ASSERT_EQ(tay.outputs().size(), rev.graph.outputs().size());
    const auto tv = ir::evaluate(tay, rev.inputs, rev.params);
    for (size_t i = 0; i < tv.size(); ++i) {
      ASSERT_EQ(tay.outputs()[i].name, rev.graph.outputs()[i].name);
      EXPECT_LE(rel_error(tv[i], rev.reference.at(tay.outputs()[i].name)), 1e-9)
          << "order " << order << " " << tay.outputs()[i].name;
    }
  }
}

// INSP's li order takes ∂x∂y and ∂y∂x both; Taylor mode computes the mixed partial once.
TEST(Taylor, SymmetricMixedPartialsAreOneNode) {
  const Graph g = build_insp_graph(small_siren(4, 8), 2, DerivativeMode::Taylor);
  auto node = [&](int k) { return g.outputs()[k].node; };
  // out9, out10 = ∂x(∂x y0), ∂y(∂x y0); out11, out12 = ∂x(∂y y0), ∂y(∂y y0)
  EXPECT_EQ(node(10), node(11));
  EXPECT_NE(node(9), node(12));
  EXPECT_NE(node(9), node(10));
}

int count_op(const Graph& g, Op op) {
  int n = 0;
  for (NodeId id : ir::live_nodes(g)) n += g.op(id) == op;
  return n;
}

// A linear map of x has no second derivative: no product reaches the graph, the output is
// a zero constant.
TEST(Taylor, IdenticallyZeroCoefficientsAreNoNodes) {
  Graph g("lin");
  NodeId x = g.input("x", {4, 2});
  g.add_output("y", g.mm(x, g.param("w", {2, 3})));
  const Graph t = taylor(g, {"x", 2, {{"hess", "y", {1, 1}, std::nullopt, 1.0}}});
  EXPECT_EQ(count_op(t, Op::Mm) + count_op(t, Op::Mul), 0);
  const ir::Node& out = t.node(t.outputs()[0].node);
  EXPECT_TRUE(out.is_splat() && out.attrs.value == 0.0);
  // The seeds are the same for every row: their mm is one row each, not the batch.
  const Graph t1 = taylor(g, {"x", 1, {}});
  int one_row = 0;
  for (NodeId id : ir::live_nodes(t1))
    if (t1.op(id) == Op::Mm) one_row += t1.shape(id) == Shape{1, 3};
  EXPECT_EQ(count_op(t1, Op::Mm), 3);  // x·w, e0·w, e1·w
  EXPECT_EQ(one_row, 2);
}

// Past the first layer, a linear layer takes every non-zero coefficient in one mm.
TEST(Taylor, ALinearLayerIsOneMmOverTheStackedCoefficients) {
  Graph g("two");
  NodeId x = g.input("x", {4, 2});
  NodeId h = g.unary(Op::Sin, g.mm(x, g.param("w1", {2, 5})));
  g.add_output("y", g.mm(h, g.param("w2", {5, 3})));
  const Graph t = taylor(g, {"x", 2, {}});  // 5 non-zero coefficients of h past the value
  int stacked = 0;
  for (NodeId id : ir::live_nodes(t))
    if (t.op(id) == Op::Mm && t.shape(id) == Shape{4 * 5, 3}) ++stacked;
  EXPECT_EQ(stacked, 1);
}

TEST(Taylor, TheDerivedInspKeepsItsRowsIndependent) {
  const Graph g = build_insp_graph(small_siren(8, 8), 2, DerivativeMode::Taylor);
  std::string why;
  EXPECT_EQ(passes::graph_rows(g, &why), 8) << why;
}

}  // namespace
}  // namespace inrarch::autodiff
