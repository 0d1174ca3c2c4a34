// Every VJP rule against central finite differences of f(p) = sum(seed * y(p)) on random
// shapes, attributes and values (seeded), and orders 1-3 of a small SIREN against finite
// differences of the order below. Finite differences are the independent oracle: they only
// use the forward interpreter, never the rules.
#include "autodiff/grad.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <random>

#include <fmt/format.h>
#include <gtest/gtest.h>

#include "autodiff/models.h"
#include "support/error.h"
#include "ir/interpreter.h"

namespace inrarch::autodiff {
namespace {

using ir::Op;
using ir::TensorMap;
using Rng = std::mt19937_64;

int64_t rand_int(Rng& r, int64_t lo, int64_t hi) {  // inclusive
  return lo + static_cast<int64_t>(r() % static_cast<uint64_t>(hi - lo + 1));
}
double rand_real(Rng& r, double lo, double hi) {
  return lo + (hi - lo) * static_cast<double>(r() >> 11) * 0x1.0p-53;
}
Shape rand_shape(Rng& r, int64_t rank) {
  Shape s;
  for (int64_t i = 0; i < rank; ++i) s.push_back(rand_int(r, 1, 4));
  return s;
}

enum class Domain { Any, Positive, AwayFromZero };

Tensor rand_tensor(Rng& r, const Shape& s, Domain d) {
  Tensor t(s);
  for (double& v : t.data) {
    if (d == Domain::Positive) v = rand_real(r, 0.5, 2.0);
    else if (d == Domain::AwayFromZero) v = rand_real(r, 0.2, 1.0) * (r() % 2 ? 1 : -1);
    else v = rand_real(r, -1.0, 1.0);
  }
  return t;
}

// A test case builds y from params it creates ("p0", "p1", ...) with random shapes and
// attributes, and returns y.
using Build = std::function<NodeId(Graph&, Rng&)>;

double dot(const Tensor& a, const Tensor& b) {
  double s = 0;
  for (size_t i = 0; i < a.data.size(); ++i) s += a.data[i] * b.data[i];
  return s;
}

// Checks grad(y, p_i, seed) for every param p_i against central differences.
void check_vjp(const std::string& name, const Build& build, Domain domain, int trials = 4) {
  for (int trial = 0; trial < trials; ++trial) {
    SCOPED_TRACE(fmt::format("{} trial {}", name, trial));
    Rng rng(1000 + trial);
    Graph g;
    const NodeId y = build(g, rng);
    const NodeId seed = g.input("seed", g.shape(y));
    TensorMap inputs{{"seed", rand_tensor(rng, g.shape(y), Domain::Any)}}, params;
    std::vector<NodeId> leaves, grads;
    for (NodeId id = 0; id < g.size(); ++id)
      if (g.op(id) == Op::Param) leaves.push_back(id);
    for (NodeId p : leaves) params[g.node(p).attrs.name] = rand_tensor(rng, g.shape(p), domain);
    for (NodeId p : leaves) grads.push_back(grad(g, y, p, seed));
    ASSERT_NO_THROW(ir::verify(g));
    const auto analytic = ir::evaluate_nodes(g, grads, inputs, params);
    const Tensor& s = inputs["seed"];
    for (size_t k = 0; k < leaves.size(); ++k) {
      const std::string pname = g.node(leaves[k]).attrs.name;
      ASSERT_EQ(analytic[k].shape, g.shape(leaves[k]));
      for (size_t j = 0; j < analytic[k].data.size(); ++j) {
        const double h = 1e-6, v0 = params[pname].data[j];
        params[pname].data[j] = v0 + h;
        const double fp = dot(s, ir::evaluate_nodes(g, {y}, inputs, params)[0]);
        params[pname].data[j] = v0 - h;
        const double fm = dot(s, ir::evaluate_nodes(g, {y}, inputs, params)[0]);
        params[pname].data[j] = v0;
        const double fd = (fp - fm) / (2 * h);
        EXPECT_NEAR(analytic[k].data[j], fd, 1e-6 * std::max(1.0, std::abs(fd)))
            << pname << "[" << j << "]";
      }
    }
  }
}

NodeId p(Graph& g, int i, const Shape& s) { return g.param(fmt::format("p{}", i), s); }

void check_unary(Op op, Domain d) {
  check_vjp(std::string(ir::op_name(op)), [op](Graph& g, Rng& r) {
    return g.unary(op, p(g, 0, rand_shape(r, rand_int(r, 1, 3))));
  }, d);
}

void check_binary(Op op, Domain d) {
  check_vjp(std::string(ir::op_name(op)), [op](Graph& g, Rng& r) {
    Shape s = rand_shape(r, rand_int(r, 1, 3));
    return g.binary(op, p(g, 0, s), p(g, 1, s));
  }, d);
}

TEST(Autodiff, Neg) { check_unary(Op::Neg, Domain::Any); }
TEST(Autodiff, Sin) { check_unary(Op::Sin, Domain::Any); }
TEST(Autodiff, Cos) { check_unary(Op::Cos, Domain::Any); }
TEST(Autodiff, Exp) { check_unary(Op::Exp, Domain::Any); }
TEST(Autodiff, Tanh) { check_unary(Op::Tanh, Domain::Any); }
TEST(Autodiff, Relu) { check_unary(Op::Relu, Domain::AwayFromZero); }
TEST(Autodiff, Step) { check_unary(Op::Step, Domain::AwayFromZero); }
TEST(Autodiff, Log) { check_unary(Op::Log, Domain::Positive); }
TEST(Autodiff, Sqrt) { check_unary(Op::Sqrt, Domain::Positive); }
TEST(Autodiff, Add) { check_binary(Op::Add, Domain::Any); }
TEST(Autodiff, Sub) { check_binary(Op::Sub, Domain::Any); }
TEST(Autodiff, Mul) { check_binary(Op::Mul, Domain::Any); }
TEST(Autodiff, Div) { check_binary(Op::Div, Domain::Positive); }

TEST(Autodiff, Mm) {
  check_vjp("mm", [](Graph& g, Rng& r) {
    const int64_t m = rand_int(r, 1, 4), k = rand_int(r, 1, 4), n = rand_int(r, 1, 4);
    return g.mm(p(g, 0, {m, k}), p(g, 1, {k, n}));
  }, Domain::Any);
}

TEST(Autodiff, Sum) {
  check_vjp("sum", [](Graph& g, Rng& r) {
    const Shape s = rand_shape(r, 3);
    std::vector<int64_t> dims;
    for (int64_t d = 0; d < 3; ++d)
      if (r() % 2) dims.push_back(d);
    if (dims.empty()) dims.push_back(rand_int(r, 0, 2));
    return g.sum(p(g, 0, s), dims, r() % 2 == 0);
  }, Domain::Any, 6);
}

TEST(Autodiff, Transpose) {
  check_vjp("transpose", [](Graph& g, Rng& r) { return g.transpose(p(g, 0, rand_shape(r, 2))); },
            Domain::Any);
}

TEST(Autodiff, Permute) {
  check_vjp("permute", [](Graph& g, Rng& r) {
    std::vector<int64_t> perm = {0, 1, 2};
    std::shuffle(perm.begin(), perm.end(), r);
    return g.permute(p(g, 0, rand_shape(r, 3)), perm);
  }, Domain::Any);
}

TEST(Autodiff, Reshape) {
  check_vjp("reshape", [](Graph& g, Rng& r) {
    const Shape s = rand_shape(r, 3);
    return g.reshape(p(g, 0, s), {s[2], s[0] * s[1]});
  }, Domain::Any);
}

TEST(Autodiff, UnsqueezeSqueeze) {
  check_vjp("unsqueeze", [](Graph& g, Rng& r) {
    return g.unsqueeze(p(g, 0, rand_shape(r, 2)), rand_int(r, -3, 2));
  }, Domain::Any);
  check_vjp("squeeze", [](Graph& g, Rng& r) {
    Shape s = rand_shape(r, 3);
    const int64_t d = rand_int(r, 0, 2);
    s[d] = 1;
    return g.squeeze(p(g, 0, s), d);
  }, Domain::Any);
}

TEST(Autodiff, Expand) {
  check_vjp("expand", [](Graph& g, Rng& r) {
    Shape out = rand_shape(r, 3);
    for (auto& d : out) d += 1;  // >= 2, so every size-1 dim really broadcasts
    Shape in = out;
    for (auto& d : in)
      if (r() % 2) d = 1;
    return g.expand(p(g, 0, in), out);
  }, Domain::Any, 6);
}

TEST(Autodiff, Select) {
  check_vjp("select", [](Graph& g, Rng& r) {
    const Shape s = rand_shape(r, 3);
    const int64_t d = rand_int(r, 0, 2);
    return g.select(p(g, 0, s), d, rand_int(r, 0, s[d] - 1));
  }, Domain::Any, 6);
}

TEST(Autodiff, Slice) {
  check_vjp("slice", [](Graph& g, Rng& r) {
    Shape s = rand_shape(r, 2);
    const int64_t d = rand_int(r, 0, 1);
    s[d] = rand_int(r, 3, 8);
    const int64_t start = rand_int(r, 0, s[d] - 1), end = rand_int(r, start + 1, s[d]);
    return g.slice(p(g, 0, s), d, start, end, rand_int(r, 1, 3));
  }, Domain::Any, 10);
}

TEST(Autodiff, Cat) {
  check_vjp("cat", [](Graph& g, Rng& r) {
    const Shape s = rand_shape(r, 2);
    const int64_t d = rand_int(r, 0, 1);
    std::vector<NodeId> parts;
    const int64_t n = rand_int(r, 2, 3);
    for (int i = 0; i < n; ++i) {
      Shape si = s;
      si[d] = rand_int(r, 1, 3);
      parts.push_back(p(g, i, si));
    }
    parts.push_back(parts[0]);  // the same operand twice: adjoints must accumulate
    return g.cat(parts, d);
  }, Domain::Any);
}

TEST(Autodiff, RepeatedOperandAndSharedPaths) {
  // y = sin(a*a) * exp(a) + a: a reaches y along four paths.
  check_vjp("composite", [](Graph& g, Rng& r) {
    const NodeId a = p(g, 0, rand_shape(r, 2));
    const NodeId s = g.unary(Op::Sin, g.binary(Op::Mul, a, a));
    return g.binary(Op::Add, g.binary(Op::Mul, s, g.unary(Op::Exp, a)), a);
  }, Domain::Any);
}

TEST(Autodiff, IndependentOutputGivesZero) {
  Graph g;
  const NodeId a = g.param("a", {2, 3}), b = g.param("b", {2, 3});
  const NodeId y = g.unary(Op::Sin, b);
  const NodeId ga = grad(g, y, a, g.constant(1.0, {2, 3}));
  EXPECT_EQ(g.op(ga), Op::Const);
  EXPECT_EQ(g.node(ga).attrs.value, 0.0);
  EXPECT_EQ(g.shape(ga), (Shape{2, 3}));
  // wrt created after y: also independent.
  const NodeId late = g.param("late", {4});
  EXPECT_EQ(g.op(grad(g, y, late, g.constant(1.0, {2, 3}))), Op::Const);
}

TEST(Autodiff, RebuildingSharesEveryNode) {
  Graph g;
  const NodeId a = g.param("a", {3});
  const NodeId y = g.unary(Op::Tanh, g.unary(Op::Sin, a));
  const NodeId one = g.constant(1.0, {3});
  const NodeId g1 = grad(g, y, a, one);
  const size_t size = g.size();
  EXPECT_EQ(grad(g, y, a, one), g1);
  EXPECT_EQ(g.size(), size);
}

TEST(Autodiff, SeedShapeMismatchIsAnError) {
  Graph g;
  const NodeId a = g.param("a", {3});
  EXPECT_THROW(grad(g, g.unary(Op::Sin, a), a, g.constant(1.0, {2})), Error);
}

// Orders 1-3 of a small SIREN: g_k = grad(g_{k-1}, x, s_k) against central differences of
// x -> sum(s_k * g_{k-1}(x)), each lower order evaluated by the interpreter.
TEST(Autodiff, SirenOrdersOneToThree) {
  SirenSpec spec;
  spec.dims = {2, 8, 8, 3};
  spec.batch = 4;
  spec.seed = 7;
  Graph g;
  std::vector<NodeId> gk = {build_siren(g, spec)};
  const NodeId x = g.find_input("x");
  Rng rng(99);
  TensorMap inputs{{"x", siren_input(spec)}};
  const TensorMap params = siren_params(spec);
  for (int k = 1; k <= 3; ++k) {
    const std::string sname = fmt::format("s{}", k);
    inputs[sname] = rand_tensor(rng, g.shape(gk.back()), Domain::Any);
    gk.push_back(grad(g, gk.back(), x, g.input(sname, g.shape(gk.back()))));
  }
  ASSERT_NO_THROW(ir::verify(g));
  for (int k = 1; k <= 3; ++k) {
    SCOPED_TRACE(fmt::format("order {}", k));
    const Tensor analytic = ir::evaluate_nodes(g, {gk[k]}, inputs, params)[0];
    double scale = 0;
    for (double v : analytic.data) scale = std::max(scale, std::abs(v));
    const Tensor s = inputs[fmt::format("s{}", k)];
    Tensor& xv = inputs["x"];
    for (size_t j = 0; j < xv.data.size(); ++j) {
      const double h = 1e-5, v0 = xv.data[j];
      xv.data[j] = v0 + h;
      const double fp = dot(s, ir::evaluate_nodes(g, {gk[k - 1]}, inputs, params)[0]);
      xv.data[j] = v0 - h;
      const double fm = dot(s, ir::evaluate_nodes(g, {gk[k - 1]}, inputs, params)[0]);
      xv.data[j] = v0;
      EXPECT_NEAR(analytic.data[j], (fp - fm) / (2 * h), 1e-6 * scale) << "x[" << j << "]";
    }
  }
}

}  // namespace
}  // namespace inrarch::autodiff
