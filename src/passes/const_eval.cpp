// Splat-aware constant evaluation. Splats are folded symbolically (the value of an
// elementwise op on splats is the op on one element; data movement keeps the value);
// everything else is evaluated by the reference interpreter on a tiny graph, so the folder
// and the oracle can never disagree about an op's meaning.
#include "passes/const_eval.h"

#include <algorithm>

#include "ir/interpreter.h"
#include "passes/rewriter.h"

namespace inrarch::passes {

namespace {

bool uniform(const Tensor& t) {
  return std::all_of(t.data.begin(), t.data.end(), [&](double v) { return v == t.data[0]; });
}

// True when every slice along `dim` equals the first one.
bool uniform_along(const Tensor& t, size_t dim) {
  const auto st = strides_of(t.shape);
  const int64_t n = t.shape[dim], s = st[dim];
  for (int64_t i = 0; i < t.size(); ++i)
    if ((i / s) % n != 0 && t.data[i] != t.data[i - ((i / s) % n) * s]) return false;
  return true;
}

// Drops dimension `dim` to size 1 (keeps the first slice).
Tensor first_slice(const Tensor& t, size_t dim) {
  Shape out_shape = t.shape;
  out_shape[dim] = 1;
  Tensor out(out_shape);
  const auto st = strides_of(t.shape);
  const int64_t n = t.shape[dim], s = st[dim];
  int64_t k = 0;
  for (int64_t i = 0; i < t.size(); ++i)
    if ((i / s) % n == 0) out.data[k++] = t.data[i];
  return out;
}

// Scalar result of an op whose operands are all splats; nullopt when not symbolic.
std::optional<double> fold_splats(const ir::Node& n, const std::vector<double>& v,
                                  const std::vector<Shape>& shapes) {
  const auto cat = ir::op_info(n.op).category;
  if (cat == ir::OpCategory::Shape && n.op != Op::Cat) return v[0];
  if (n.op == Op::Cat) {
    for (double x : v)
      if (x != v[0]) return std::nullopt;
    return v[0];
  }
  if (n.op == Op::Mm) {
    Tensor a({1, shapes[0][1]}, v[0]), b({shapes[0][1], 1}, v[1]);
    return eval_node(ir::Node{Op::Mm, {}, {1, 1}, {}}, {a, b}).data[0];
  }
  if (n.op == Op::Sum) return v[0] * static_cast<double>(numel(shapes[0]) / std::max<int64_t>(numel(n.shape), 1));
  std::vector<Tensor> one;
  for (double x : v) one.emplace_back(Shape{1}, x);
  ir::Node scalar{n.op, {}, {1}, n.attrs};
  return eval_node(scalar, one).data[0];
}

}  // namespace

bool is_const_like(const ir::Graph& g, NodeId id) {
  if (g.op(id) == Op::Const) return true;
  return g.op(id) == Op::Expand && g.op(g.node(id).operands[0]) == Op::Const;
}

Tensor const_value(const ir::Graph& g, NodeId id) {
  const Node& n = g.node(id);
  if (n.is_splat()) return Tensor(n.shape, n.attrs.value);
  if (n.op == Op::Const) return g.tensor(n.attrs.dense);
  return eval_node(n, {const_value(g, n.operands[0])});
}

NodeId make_const(ir::Graph& g, const Tensor& t) {
  if (t.size() > 0 && uniform(t)) return g.constant(t.data[0], t.shape);
  if (t.size() == 0) return g.constant(0.0, t.shape);
  Tensor small = t;
  for (size_t d = 0; d < t.shape.size(); ++d)
    if (small.shape[d] > 1 && uniform_along(small, d)) small = first_slice(small, d);
  // t may live in g's tensor table (const_fold passes g.tensor(i)), which g.constant can
  // reallocate: keep its shape first.
  const Shape full = t.shape;
  NodeId c = g.constant(small);
  return small.shape == full ? c : g.expand(c, full);
}

NodeId fold_constant(ir::Graph& g, const ir::Node& n) {
  if (ir::is_leaf(n.op)) return ir::kNoNode;
  std::vector<double> splats;
  std::vector<Shape> shapes;
  for (NodeId o : n.operands) {
    if (!is_const_like(g, o)) return ir::kNoNode;
    if (g.node(o).is_splat()) splats.push_back(g.node(o).attrs.value);
    shapes.push_back(g.shape(o));
  }
  // expand of a dense const is the canonical form itself.
  if (n.op == Op::Expand && g.op(n.operands[0]) == Op::Const && !g.node(n.operands[0]).is_splat())
    return ir::kNoNode;
  if (splats.size() == n.operands.size())
    if (auto v = fold_splats(n, splats, shapes)) return g.constant(*v, n.shape);
  if (numel(n.shape) > kMaxFoldElements) return ir::kNoNode;
  std::vector<Tensor> vals;
  for (NodeId o : n.operands) vals.push_back(const_value(g, o));
  return make_const(g, eval_node(n, vals));
}

Tensor eval_node(const ir::Node& n, const std::vector<Tensor>& operands) {
  ir::Graph tiny("fold");
  ir::Node m = n;
  m.operands.resize(operands.size());
  for (size_t i = 0; i < operands.size(); ++i) m.operands[i] = tiny.constant(operands[i]);
  tiny.add_output("v", add_node(tiny, m));
  return ir::evaluate(tiny, {}, {}).at(0);
}

}  // namespace inrarch::passes
