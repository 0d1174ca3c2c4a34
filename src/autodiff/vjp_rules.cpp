// VJP rules: one entry per ops.def row (vjp_<Enum>), gathered by the X-macro so a new op
// without a rule does not compile. A rule gets a copy of the node (the arena may grow while
// the rule builds), the node's id, the operand index and the adjoint `g` of the node, and
// returns that operand's share of the adjoint, built only from Graph builders so hash-consing
// shares structure (sin's rule reuses an existing cos(x), exp's reuses the node itself).
//
// Rules emit plain IR and leave simplification (x*1, transpose(transpose(w)), cat of zeros)
// to the optimizer. Scatter-like adjoints (select, slice) are zero padding by `cat` with
// splat-zero constants: the optimizer can see through a splat and fold mm/add/select of a
// zero block, which a dense one-hot mask would hide.
#include "autodiff/vjp_rules.h"

#include <fmt/format.h>

#include "support/error.h"

namespace inrarch::autodiff {

namespace {

using ir::Node;
using ir::Op;

using Rule = NodeId (*)(Graph& g, const Node& n, NodeId self, size_t i, NodeId adj);

NodeId zeros(Graph& g, const Shape& s) { return g.constant(0.0, s); }
NodeId mul(Graph& g, NodeId a, NodeId b) { return g.binary(Op::Mul, a, b); }
NodeId div(Graph& g, NodeId a, NodeId b) { return g.binary(Op::Div, a, b); }
NodeId neg(Graph& g, NodeId a) { return g.unary(Op::Neg, a); }

// A zero block shaped like x but `len` long along `dim`.
NodeId zeros_like_along(Graph& g, NodeId x, int64_t dim, int64_t len) {
  Shape s = g.shape(x);
  s[dim] = len;
  return zeros(g, s);
}

// x padded with zero blocks of `before` and `after` entries along `dim`.
NodeId pad(Graph& g, NodeId x, int64_t dim, int64_t before, int64_t after) {
  std::vector<NodeId> parts;
  if (before > 0) parts.push_back(zeros_like_along(g, x, dim, before));
  parts.push_back(x);
  if (after > 0) parts.push_back(zeros_like_along(g, x, dim, after));
  return parts.size() == 1 ? x : g.cat(std::move(parts), dim);
}

NodeId no_operands(Graph&, const Node& n, NodeId, size_t, NodeId) {
  throw Error(fmt::format("autodiff: {} has no operands to differentiate", ir::op_name(n.op)));
}

// ---- leaves (never reached: they have no operands)
constexpr Rule vjp_Input = no_operands;
constexpr Rule vjp_Param = no_operands;
constexpr Rule vjp_Const = no_operands;

// ---- elementwise unary (x = operand, y = the node)
// neg: -g
NodeId vjp_Neg(Graph& g, const Node&, NodeId, size_t, NodeId adj) { return neg(g, adj); }
// sin: g * cos(x)
NodeId vjp_Sin(Graph& g, const Node& n, NodeId, size_t, NodeId adj) {
  return mul(g, adj, g.unary(Op::Cos, n.operands[0]));
}
// cos: -(g * sin(x))
NodeId vjp_Cos(Graph& g, const Node& n, NodeId, size_t, NodeId adj) {
  return neg(g, mul(g, adj, g.unary(Op::Sin, n.operands[0])));
}
// exp: g * y
NodeId vjp_Exp(Graph& g, const Node&, NodeId self, size_t, NodeId adj) { return mul(g, adj, self); }
// tanh: g * (1 - y*y)
NodeId vjp_Tanh(Graph& g, const Node& n, NodeId self, size_t, NodeId adj) {
  NodeId one_minus = g.binary(Op::Sub, g.constant(1.0, n.shape), mul(g, self, self));
  return mul(g, adj, one_minus);
}
// relu: g * step(x)
NodeId vjp_Relu(Graph& g, const Node& n, NodeId, size_t, NodeId adj) {
  return mul(g, adj, g.unary(Op::Step, n.operands[0]));
}
// step: 0 (piecewise constant)
NodeId vjp_Step(Graph& g, const Node& n, NodeId, size_t, NodeId) { return zeros(g, n.shape); }
// log: g / x
NodeId vjp_Log(Graph& g, const Node& n, NodeId, size_t, NodeId adj) {
  return div(g, adj, n.operands[0]);
}
// sqrt: g / (2y)   (y = sqrt(x) already exists)
NodeId vjp_Sqrt(Graph& g, const Node& n, NodeId self, size_t, NodeId adj) {
  return div(g, adj, mul(g, g.constant(2.0, n.shape), self));
}

// ---- elementwise binary (a, b = operands)
// add: g, g
NodeId vjp_Add(Graph&, const Node&, NodeId, size_t, NodeId adj) { return adj; }
// sub: g, -g
NodeId vjp_Sub(Graph& g, const Node&, NodeId, size_t i, NodeId adj) {
  return i == 0 ? adj : neg(g, adj);
}
// mul: g*b, g*a
NodeId vjp_Mul(Graph& g, const Node& n, NodeId, size_t i, NodeId adj) {
  return mul(g, adj, n.operands[1 - i]);
}
// div: g/b, -(g*y)/b   (y = a/b already exists, so no b*b node)
NodeId vjp_Div(Graph& g, const Node& n, NodeId self, size_t i, NodeId adj) {
  const NodeId b = n.operands[1];
  return i == 0 ? div(g, adj, b) : neg(g, div(g, mul(g, adj, self), b));
}

// ---- compute
// mm: g·Bᵀ, Aᵀ·g
NodeId vjp_Mm(Graph& g, const Node& n, NodeId, size_t i, NodeId adj) {
  return i == 0 ? g.mm(adj, g.transpose(n.operands[1])) : g.mm(g.transpose(n.operands[0]), adj);
}
// sum: expand(reshape(g, x with reduced dims kept as 1), shape of x)
NodeId vjp_Sum(Graph& g, const Node& n, NodeId, size_t, NodeId adj) {
  Shape kept = g.shape(n.operands[0]);
  const Shape full = kept;
  for (int64_t d : n.attrs.dims) kept[d] = 1;
  return g.expand(g.reshape(adj, kept), full);
}

// ---- data movement
// transpose: transpose(g)
NodeId vjp_Transpose(Graph& g, const Node&, NodeId, size_t, NodeId adj) { return g.transpose(adj); }
// permute: permute(g, inverse perm)
NodeId vjp_Permute(Graph& g, const Node& n, NodeId, size_t, NodeId adj) {
  std::vector<int64_t> inv(n.attrs.perm.size());
  for (size_t k = 0; k < inv.size(); ++k) inv[n.attrs.perm[k]] = static_cast<int64_t>(k);
  return g.permute(adj, std::move(inv));
}
// reshape: reshape(g, shape of x)
NodeId vjp_Reshape(Graph& g, const Node& n, NodeId, size_t, NodeId adj) {
  return g.reshape(adj, g.shape(n.operands[0]));
}
// unsqueeze: squeeze(g, dim)
NodeId vjp_Unsqueeze(Graph& g, const Node& n, NodeId, size_t, NodeId adj) {
  return g.squeeze(adj, n.attrs.dim);
}
// squeeze: unsqueeze(g, dim)
NodeId vjp_Squeeze(Graph& g, const Node& n, NodeId, size_t, NodeId adj) {
  return g.unsqueeze(adj, n.attrs.dim);
}
// expand: sum(g, broadcast dims, keepdim) — already the shape of x
NodeId vjp_Expand(Graph& g, const Node& n, NodeId, size_t, NodeId adj) {
  const Shape x = g.shape(n.operands[0]);  // a copy: g grows below
  std::vector<int64_t> dims;
  for (size_t d = 0; d < x.size(); ++d)
    if (x[d] != n.shape[d]) dims.push_back(static_cast<int64_t>(d));
  // sum with no dims would reduce everything; an expand that broadcasts nothing is identity.
  return dims.empty() ? adj : g.reshape(g.sum(adj, std::move(dims), true), x);
}
// select: cat(zeros[..index..], unsqueeze(g, dim), zeros[..n-index-1..]) along dim
NodeId vjp_Select(Graph& g, const Node& n, NodeId, size_t, NodeId adj) {
  const int64_t d = n.attrs.dim, size = g.shape(n.operands[0])[d];
  return pad(g, g.unsqueeze(adj, d), d, n.attrs.index, size - n.attrs.index - 1);
}
// slice: g spread to stride `step` (unsqueeze, cat zeros, reshape, trim), then zero-padded
NodeId vjp_Slice(Graph& g, const Node& n, NodeId, size_t, NodeId adj) {
  const Shape x = g.shape(n.operands[0]);  // a copy: g grows below
  const int64_t d = n.attrs.dim, step = n.attrs.step, span = n.attrs.end - n.attrs.start;
  if (numel(n.shape) == 0) return zeros(g, x);  // empty slice: nothing flows back
  NodeId spread = adj;
  if (step > 1) {
    NodeId u = g.unsqueeze(adj, d + 1);  // [.., m, 1, ..]
    Shape flat = n.shape;
    flat[d] *= step;  // m*step >= span, the excess is trailing zeros
    spread = g.reshape(g.cat({u, zeros_like_along(g, u, d + 1, step - 1)}, d + 1), flat);
    if (flat[d] > span) spread = g.slice(spread, d, 0, span);
  }
  return pad(g, spread, d, n.attrs.start, x[d] - n.attrs.end);
}
// cat: slice(g, dim, offset of operand i, offset + its size)
NodeId vjp_Cat(Graph& g, const Node& n, NodeId, size_t i, NodeId adj) {
  const int64_t d = n.attrs.dim;
  int64_t off = 0;
  for (size_t k = 0; k < i; ++k) off += g.shape(n.operands[k])[d];
  return g.slice(adj, d, off, off + g.shape(n.operands[i])[d]);
}

constexpr Rule kRules[] = {
#define OP(Enum, mnemonic, arity, attrs, shape_rule, category, kernel) vjp_##Enum,
#include "ir/ops.def"
};
static_assert(sizeof(kRules) / sizeof(kRules[0]) == ir::kNumOps);

}  // namespace

NodeId vjp(Graph& g, NodeId id, size_t operand, NodeId adj) {
  const Node n = g.node(id);  // a copy: the rule appends to the arena
  INRARCH_ASSERT(operand < n.operands.size(), "vjp: operand index out of range");
  INRARCH_ASSERT(g.shape(adj) == n.shape, "vjp: adjoint shape differs from the node's");
  NodeId r = kRules[static_cast<int>(n.op)](g, n, id, operand, adj);
  INRARCH_ASSERT(g.shape(r) == g.shape(n.operands[operand]), "vjp: rule returned a wrong shape");
  return r;
}

}  // namespace inrarch::autodiff
