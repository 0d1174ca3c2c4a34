// Every op of the interpreter against values worked out by hand on tiny tensors.
#include "ir/interpreter.h"

#include <array>
#include <cmath>

#include <gtest/gtest.h>

#include "support/error.h"

namespace inrarch::ir {
namespace {

// A = [[1,2,3],[4,5,6]]
Tensor a23() { return Tensor({2, 3}, {1, 2, 3, 4, 5, 6}); }

// Evaluates the node built by `build` on input "a" = A.
Tensor eval1(NodeId (*build)(Graph&, NodeId), const Tensor& a = a23()) {
  Graph g;
  NodeId x = g.input("a", a.shape);
  NodeId y = build(g, x);
  return evaluate_nodes(g, {y}, {{"a", a}}, {})[0];
}

void expect_tensor(const Tensor& t, const Shape& shape, const std::vector<double>& data) {
  EXPECT_EQ(t.shape, shape);
  ASSERT_EQ(t.data.size(), data.size());
  for (size_t i = 0; i < data.size(); ++i) EXPECT_NEAR(t.data[i], data[i], 1e-12) << "at " << i;
}

TEST(Interp, Leaves) {
  Graph g;
  NodeId x = g.input("x", {2});
  NodeId p = g.param("p", {2});
  NodeId c = g.constant(2.5, {2});
  NodeId d = g.constant(Tensor({2}, {7, 8}));
  auto v = evaluate_nodes(g, {x, p, c, d}, {{"x", Tensor({2}, {1, 2})}},
                          {{"p", Tensor({2}, {3, 4})}});
  expect_tensor(v[0], {2}, {1, 2});
  expect_tensor(v[1], {2}, {3, 4});
  expect_tensor(v[2], {2}, {2.5, 2.5});
  expect_tensor(v[3], {2}, {7, 8});
}

TEST(Interp, Unary) {
  Tensor t({4}, {-1.0, 0.0, 0.5, 2.0});
  auto u = [&](Op op) {
    Graph g;
    NodeId x = g.input("a", t.shape);
    return evaluate_nodes(g, {g.unary(op, x)}, {{"a", t}}, {})[0];
  };
  expect_tensor(u(Op::Neg), {4}, {1, 0, -0.5, -2});
  expect_tensor(u(Op::Sin), {4}, {std::sin(-1.0), 0, std::sin(0.5), std::sin(2.0)});
  expect_tensor(u(Op::Cos), {4}, {std::cos(-1.0), 1, std::cos(0.5), std::cos(2.0)});
  expect_tensor(u(Op::Exp), {4}, {std::exp(-1.0), 1, std::exp(0.5), std::exp(2.0)});
  expect_tensor(u(Op::Tanh), {4}, {std::tanh(-1.0), 0, std::tanh(0.5), std::tanh(2.0)});
  expect_tensor(u(Op::Relu), {4}, {0, 0, 0.5, 2});
  expect_tensor(u(Op::Step), {4}, {0, 0, 1, 1});
  Tensor pos({2}, {1.0, std::exp(2.0)});
  Graph g;
  NodeId x = g.input("a", pos.shape);
  expect_tensor(evaluate_nodes(g, {g.unary(Op::Log, x)}, {{"a", pos}}, {})[0], {2}, {0, 2});
  Tensor squares({4}, {0.0, 0.25, 4.0, 1e-300});
  NodeId s = g.input("s", squares.shape);
  expect_tensor(evaluate_nodes(g, {g.unary(Op::Sqrt, s)}, {{"s", squares}}, {})[0], {4}, {0, 0.5, 2, 1e-150});
}

TEST(Interp, Binary) {
  Graph g;
  NodeId a = g.input("a", {3});
  NodeId b = g.input("b", {3});
  TensorMap in{{"a", Tensor({3}, {1, 2, 3})}, {"b", Tensor({3}, {4, -5, 0.5})}};
  auto v = evaluate_nodes(g,
                          {g.binary(Op::Add, a, b), g.binary(Op::Sub, a, b),
                           g.binary(Op::Mul, a, b), g.binary(Op::Div, a, b)},
                          in, {});
  expect_tensor(v[0], {3}, {5, -3, 3.5});
  expect_tensor(v[1], {3}, {-3, 7, 2.5});
  expect_tensor(v[2], {3}, {4, -10, 1.5});
  expect_tensor(v[3], {3}, {0.25, -0.4, 6});
}

TEST(Interp, Mm) {
  Graph g;
  NodeId a = g.input("a", {2, 3});
  NodeId b = g.input("b", {3, 2});
  TensorMap in{{"a", a23()}, {"b", Tensor({3, 2}, {1, 0, 0, 1, 2, -1})}};
  // [1,2,3]·cols = [1+6, 2-3], [4+12, 5-6]
  expect_tensor(evaluate_nodes(g, {g.mm(a, b)}, in, {})[0], {2, 2}, {7, -1, 16, -1});
}

TEST(Interp, Sum) {
  expect_tensor(eval1([](Graph& g, NodeId x) { return g.sum(x, {0}, false); }), {3}, {5, 7, 9});
  expect_tensor(eval1([](Graph& g, NodeId x) { return g.sum(x, {1}, true); }), {2, 1}, {6, 15});
  expect_tensor(eval1([](Graph& g, NodeId x) { return g.sum(x, {}, false); }), {}, {21});
}

TEST(Interp, TransposePermute) {
  expect_tensor(eval1([](Graph& g, NodeId x) { return g.transpose(x); }), {3, 2},
                {1, 4, 2, 5, 3, 6});
  // [2,3,2] tensor 0..11 permuted (2,0,1): out[k][i][j] = in[i][j][k]
  Tensor t({2, 3, 2}, {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11});
  expect_tensor(eval1([](Graph& g, NodeId x) { return g.permute(x, {2, 0, 1}); }, t), {2, 2, 3},
                {0, 2, 4, 6, 8, 10, 1, 3, 5, 7, 9, 11});
}

TEST(Interp, ReshapeUnsqueezeSqueeze) {
  expect_tensor(eval1([](Graph& g, NodeId x) { return g.reshape(x, {3, 2}); }), {3, 2},
                {1, 2, 3, 4, 5, 6});
  expect_tensor(eval1([](Graph& g, NodeId x) { return g.unsqueeze(x, 1); }), {2, 1, 3},
                {1, 2, 3, 4, 5, 6});
  expect_tensor(eval1([](Graph& g, NodeId x) { return g.squeeze(g.unsqueeze(x, 0), 0); }),
                {2, 3}, {1, 2, 3, 4, 5, 6});
}

TEST(Interp, Expand) {
  Tensor row({1, 3}, {1, 2, 3});
  expect_tensor(eval1([](Graph& g, NodeId x) { return g.expand(x, {2, 3}); }, row), {2, 3},
                {1, 2, 3, 1, 2, 3});
  Tensor col({2, 1}, {7, 8});
  expect_tensor(eval1([](Graph& g, NodeId x) { return g.expand(x, {2, 3}); }, col), {2, 3},
                {7, 7, 7, 8, 8, 8});
}

TEST(Interp, SelectSlice) {
  expect_tensor(eval1([](Graph& g, NodeId x) { return g.select(x, 1, 2); }), {2}, {3, 6});
  expect_tensor(eval1([](Graph& g, NodeId x) { return g.select(x, 0, -1); }), {3}, {4, 5, 6});
  expect_tensor(eval1([](Graph& g, NodeId x) { return g.slice(x, 1, 1, 3); }), {2, 2},
                {2, 3, 5, 6});
  expect_tensor(eval1([](Graph& g, NodeId x) { return g.slice(x, 1, 0, 3, 2); }), {2, 2},
                {1, 3, 4, 6});
}

TEST(Interp, Cat) {
  Graph g;
  NodeId a = g.input("a", {2, 3});
  NodeId b = g.input("b", {2, 1});
  TensorMap in{{"a", a23()}, {"b", Tensor({2, 1}, {9, 10})}};
  auto v = evaluate_nodes(g, {g.cat({a, b}, 1), g.cat({a, a}, 0)}, in, {});
  expect_tensor(v[0], {2, 4}, {1, 2, 3, 9, 4, 5, 6, 10});
  expect_tensor(v[1], {4, 3}, {1, 2, 3, 4, 5, 6, 1, 2, 3, 4, 5, 6});
}

TEST(Interp, OutputsInOrderAndSharedIntermediates) {
  Graph g;
  NodeId x = g.input("x", {2});
  NodeId s = g.unary(Op::Exp, x);
  g.add_output("b", g.binary(Op::Add, s, s));
  g.add_output("a", s);
  g.add_output("c", g.binary(Op::Mul, s, x));
  auto v = evaluate(g, {{"x", Tensor({2}, {0, 1})}}, {});
  ASSERT_EQ(v.size(), 3u);
  const double e = std::exp(1.0);
  expect_tensor(v[0], {2}, {2, 2 * e});
  expect_tensor(v[1], {2}, {1, e});
  expect_tensor(v[2], {2}, {0, e});
}

TEST(Interp, MissingOrWrongShapeLeavesAreNamed) {
  Graph g;
  NodeId x = g.input("x", {2});
  NodeId w = g.param("w", {2});
  g.add_output("y", g.binary(Op::Mul, x, w));
  auto message = [&](const TensorMap& in, const TensorMap& p) {
    try {
      evaluate(g, in, p);
    } catch (const Error& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_NE(message({}, {{"w", Tensor({2})}}).find("input \"x\" is missing"), std::string::npos);
  EXPECT_NE(message({{"x", Tensor({2})}}, {}).find("param \"w\" is missing"), std::string::npos);
  EXPECT_NE(message({{"x", Tensor({3})}}, {{"w", Tensor({2})}}).find("[3]"), std::string::npos);
}

TEST(Interp, DeadNodesAreNotEvaluated) {
  Graph g;
  NodeId x = g.input("x", {2});
  g.param("unused", {2});  // never supplied: evaluating it would throw
  g.add_output("y", g.unary(Op::Neg, x));
  EXPECT_NO_THROW(evaluate(g, {{"x", Tensor({2})}}, {}));
}

// The mm evaluator works in register blocks (and threads on large products); each element
// must still be the plain k-order sum, bit for bit, including the edge rows and columns.
TEST(Interpreter, MmIsThePlainKOrderSumBitForBit) {
  for (auto [m, k, p] : {std::array<int64_t, 3>{9, 5, 70}, {4, 3, 32}, {3, 2, 31}, {1100, 64, 33}}) {
    Graph g;
    NodeId a = g.input("a", {m, k}), b = g.input("b", {k, p});
    g.add_output("c", g.mm(a, b));
    Tensor ta({m, k}), tb({k, p});
    for (size_t i = 0; i < ta.data.size(); ++i) ta.data[i] = std::sin(double(i) * 0.37) * 3.1;
    for (size_t i = 0; i < tb.data.size(); ++i) tb.data[i] = std::cos(double(i) * 0.11) / 7.0;
    std::vector<double> want(m * p, 0.0);
    for (int64_t i = 0; i < m; ++i)
      for (int64_t kk = 0; kk < k; ++kk)
        for (int64_t j = 0; j < p; ++j) {
          volatile double prod = ta.data[i * k + kk] * tb.data[kk * p + j];  // never fused
          want[i * p + j] += prod;
        }
    EXPECT_EQ(evaluate(g, {{"a", ta}, {"b", tb}}, {}).at(0).data, want) << m << "x" << k << "x" << p;
  }
}

}  // namespace
}  // namespace inrarch::ir
