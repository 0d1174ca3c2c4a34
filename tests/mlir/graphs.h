// Small graphs and values shared by the MLIR backend tests.
#pragma once

#include <cmath>
#include <cstdint>
#include <random>
#include <set>

#include "ir/bundle.h"
#include "ir/graph.h"

namespace inrarch::backend::mlir::testing {

using ir::Graph;
using ir::NodeId;
using ir::Op;

// One SIREN layer and its input gradient flavour: transpose, mm, unsqueeze+expand bias,
// splat const, sin, cos, select, sum with keepdim.
inline Graph mlp_graph() {
  Graph g("mlp");
  NodeId x = g.input("x", {4, 2});
  NodeId w = g.param("l0.weight", {3, 2});
  NodeId b = g.param("l0.bias", {3});
  NodeId h = g.mm(x, g.transpose(w));
  h = g.binary(Op::Add, h, g.expand(g.unsqueeze(b, 0), {4, 3}));
  NodeId y = g.unary(Op::Sin, g.binary(Op::Mul, g.constant(30.0, {4, 3}), h));
  g.add_output("y0", g.select(y, 1, 0));
  g.add_output("dy", g.sum(g.unary(Op::Cos, h), {1}, true));
  return g;
}

// Data movement and the remaining elementwise ops: permute, reshape (incl. a split that
// needs collapse+expand), squeeze, slice with step, cat, relu, step, exp, log, tanh, neg,
// sub, div, sqrt, a dense constant, and a rank-0 sum broadcast back.
inline Graph shapes_graph() {
  Graph g("shapes");
  NodeId x = g.input("x", {2, 3, 4});
  NodeId p = g.permute(x, {2, 0, 1});                       // [4,2,3]
  NodeId r = g.reshape(p, {4, 6});                          // collapse only
  NodeId r2 = g.reshape(r, {3, 8});                         // collapse + expand
  NodeId s = g.slice(r2, 1, 1, 8, 3);                       // [3,3]
  NodeId c = g.cat({s, g.unary(Op::Relu, s), g.unary(Op::Step, s)}, 0);  // [9,3]
  NodeId d = g.constant(Tensor({3}, {1.5, -2.0, 1e-8}));
  NodeId e = g.binary(Op::Sub, c, g.expand(g.unsqueeze(d, 0), {9, 3}));
  NodeId t = g.unary(Op::Tanh, g.unary(Op::Neg, e));
  NodeId l = g.unary(Op::Log, g.unary(Op::Exp, t));
  NodeId q = g.binary(Op::Div, l, g.unary(Op::Sqrt, g.unary(Op::Exp, e)));
  NodeId total = g.sum(q, {}, false);                       // [] (rank 0)
  NodeId back = g.expand(g.reshape(total, {1, 1}), {2, 3});
  g.add_output("q", q);
  g.add_output("total", total);
  g.add_output("back", g.squeeze(g.unsqueeze(back, 1), 1));
  g.add_output("x", x);  // an argument returned as is
  return g;
}

// Ops of ops.def that `g` uses (to check a test graph covers the whole table).
inline std::set<Op> ops_used(const Graph& g) {
  std::set<Op> ops;
  for (NodeId id : ir::live_nodes(g)) ops.insert(g.op(id));
  return ops;
}

// Values in [-1, 1) for every input and param of g, seeded.
inline void random_values(const Graph& g, ir::TensorMap& inputs, ir::TensorMap& params,
                          uint64_t seed = 1) {
  std::mt19937_64 rng(seed);
  for (NodeId id : ir::live_nodes(g)) {
    const ir::Node& n = g.node(id);
    if (n.op != Op::Input && n.op != Op::Param) continue;
    Tensor t(n.shape);
    for (double& v : t.data) v = double(rng() >> 11) * 0x1.0p-53 * 2.0 - 1.0;
    (n.op == Op::Input ? inputs : params)[n.attrs.name] = t;
  }
}

// max |a-b| / max(|b|) over all elements (the normwise relative error of driver/compare),
// and the element-wise max |a-b| / |b| over elements with |b| > 1e-300.
struct Errors {
  double normwise = 0, elementwise = 0;
};
inline Errors rel_errors(const Tensor& a, const Tensor& b) {
  Errors e;
  double amax = 0, ref = 0;
  for (size_t i = 0; i < b.data.size(); ++i) {
    const double d = std::abs(a.data[i] - b.data[i]);
    amax = std::max(amax, d);
    ref = std::max(ref, std::abs(b.data[i]));
    if (std::abs(b.data[i]) > 1e-300) e.elementwise = std::max(e.elementwise, d / std::abs(b.data[i]));
    else if (d > 0) e.elementwise = INFINITY;
  }
  e.normwise = ref > 0 ? amax / ref : amax;
  return e;
}

}  // namespace inrarch::backend::mlir::testing
