// Permutations and the reshapes around them, as a rule table run by the fixpoint driver
// (rewriter.h). PyTorch's einsum and bmm wrap a 2-D product in unsqueeze / permute / view
// chains that move only size-1 dimensions or compose to the identity; left in the graph,
// each permute of the batch is a kernel that buffers whole rows (docs/optimizer.md).
#include "passes/permute_to_transpose.h"

#include "passes/rewriter.h"

namespace inrarch::passes {

namespace {

constexpr NodeId kNo = ir::kNoNode;
using C = RuleContext;
using Perm = std::vector<int64_t>;

bool is_identity(const Perm& p) {
  for (size_t i = 0; i < p.size(); ++i)
    if (p[i] != static_cast<int64_t>(i)) return false;
  return true;
}

// The operand dims that are not 1, in the order the permutation reads them.
std::vector<int64_t> moved_big_dims(const Shape& in, const Perm& p) {
  std::vector<int64_t> big;
  for (int64_t d : p)
    if (in[d] != 1) big.push_back(d);
  return big;
}

// A permute that keeps the order of the dims that are not 1 keeps the element order: a
// reshape.
bool permute_keeps_order(const Shape& in, const Perm& p) {
  const auto big = moved_big_dims(in, p);
  for (size_t i = 1; i < big.size(); ++i)
    if (big[i] < big[i - 1]) return false;
  return true;
}

// Ops that only reshape (the element order stays): reshape, unsqueeze, squeeze, a select
// of a size-1 dim, a permute that keeps the order of the dims that are not 1.
bool only_reshapes(C& c, NodeId id) {
  const Node& n = c.g.node(id);
  switch (n.op) {
    case Op::Reshape:
    case Op::Unsqueeze:
    case Op::Squeeze: return true;
    case Op::Select: return c.shape(n.operands[0])[n.attrs.dim] == 1;
    case Op::Permute: return permute_keeps_order(c.shape(n.operands[0]), n.attrs.perm);
    default: return false;
  }
}

// ---- rules

// permute {perm = identity} -> x
NodeId identity_permute(C&, const Node& n, NodeId) { return is_identity(n.attrs.perm) ? n.operands[0] : kNo; }

// permute(permute(x, p), q) -> permute(x, r), r[i] = p[q[i]] (the identity rule then
// removes a pair that cancels).
NodeId permute_permute(C& c, const Node& n, NodeId) {
  const NodeId x = n.operands[0];
  if (c.op(x) != Op::Permute) return kNo;
  const Perm p = c.g.node(x).attrs.perm;
  Perm r;
  for (int64_t q : n.attrs.perm) r.push_back(p[q]);
  return c.g.permute(c.arg(x, 0), r);
}

// permute(transpose x) and transpose(permute x) of 2-D values compose as permutes.
NodeId permute_transpose(C& c, const Node& n, NodeId) {
  const NodeId x = n.operands[0];
  if (c.op(x) != Op::Transpose) return kNo;
  Perm r;
  for (int64_t q : n.attrs.perm) r.push_back(1 - q);
  return c.g.permute(c.arg(x, 0), r);
}
NodeId transpose_permute(C& c, const Node& n, NodeId) {
  const NodeId x = n.operands[0];
  if (c.op(x) != Op::Permute) return kNo;
  const Perm p = c.g.node(x).attrs.perm;
  return c.g.permute(c.arg(x, 0), {p[1], p[0]});
}

// A lone op that only reshapes stays as it is (reshape, unsqueeze...), but a permute or a
// transpose that moves only size-1 dims becomes the reshape it is.
NodeId permute_as_reshape(C& c, const Node& n, NodeId) {
  const Shape in = c.shape(n.operands[0]);
  if (!permute_keeps_order(in, n.attrs.perm)) return kNo;
  return in == n.shape ? n.operands[0] : c.g.reshape(n.operands[0], n.shape);
}
NodeId transpose_as_reshape(C& c, const Node& n, NodeId) {
  const Shape in = c.shape(n.operands[0]);
  if (in.size() != 2 || (in[0] != 1 && in[1] != 1)) return kNo;
  return c.g.reshape(n.operands[0], n.shape);
}

// reshape-like(reshape-like(x)) -> reshape(x), or x when the shapes agree.
NodeId reshape_chain(C& c, const Node& n, NodeId id) {
  if (n.operands.size() != 1 || !only_reshapes(c, id) || !only_reshapes(c, n.operands[0])) return kNo;
  const NodeId x = c.arg(n.operands[0], 0);
  return c.shape(x) == n.shape ? x : c.g.reshape(x, n.shape);
}

// permute of a value with size-1 dims that swaps its two other dims: a 2-D transpose
// between reshapes (which the reshape rules then merge with their neighbours, and which
// transpose-simplify cancels against another transpose).
NodeId permute_through_reshape(C& c, const Node& n, NodeId) {
  const Shape in = c.shape(n.operands[0]);
  const auto big = moved_big_dims(in, n.attrs.perm);
  if (big.size() != 2 || in.size() == 2 || big[0] < big[1]) return kNo;
  const NodeId flat = c.g.reshape(n.operands[0], {in[big[1]], in[big[0]]});
  return c.g.reshape(c.g.transpose(flat), n.shape);
}

// permute [1,0] of a 2-D value -> transpose, the op transpose-simplify and fold-params
// reason about.
NodeId permute_to_transpose_rule(C& c, const Node& n, NodeId) {
  if (n.attrs.perm != Perm{1, 0}) return kNo;
  return c.g.transpose(n.operands[0]);
}

constexpr auto kAny = std::nullopt;

const Rule kRules[] = {
    {"identity-permute", Op::Permute, identity_permute},             // permute(x, id) -> x
    {"permute-permute", Op::Permute, permute_permute},               // permute(permute x) -> permute x
    {"permute-permute", Op::Permute, permute_transpose},             // permute(T x) -> permute x
    {"permute-permute", Op::Transpose, transpose_permute},           // T(permute x) -> permute x
    {"reshape-chain", kAny, reshape_chain},                          // reshape(reshape x) -> reshape x
    {"permute-as-reshape", Op::Permute, permute_as_reshape},         // moves only 1s -> reshape
    {"permute-as-reshape", Op::Transpose, transpose_as_reshape},     // T of [1,n] -> reshape
    {"permute-through-reshape", Op::Permute, permute_through_reshape},  // -> reshape(T(reshape x))
    {"permute-to-transpose", Op::Permute, permute_to_transpose_rule},   // permute [1,0] -> T
};

}  // namespace

ir::Graph permute_to_transpose(const ir::Graph& g, PassContext& ctx) { return run_rules(g, kRules, ctx.stats); }

}  // namespace inrarch::passes
