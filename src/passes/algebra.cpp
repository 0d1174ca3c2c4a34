// Algebraic rules, run by the fixpoint driver of rewriter.h.
//
// Normal form the rules drive towards: a scalar factor (splat constant) or a sign sits as
// far out as it can go, and disappears into a static operand (param/const expression) of
// an mm when it reaches one. Static subexpressions are normalized the other way (expand
// outermost) so fold_params can fold them into small params. Every rule either removes a
// node, or moves a factor strictly outward / into a static operand, so the set terminates;
// the driver's loop guard still bounds it.
#include "passes/algebra.h"

#include <array>

#include "passes/const_eval.h"
#include "passes/rewriter.h"

namespace inrarch::passes {

namespace {

constexpr NodeId kNo = ir::kNoNode;
using C = RuleContext;

// Splat value of operand i of n, or nullopt.
std::optional<double> splat_arg(C& c, const Node& n, size_t i) { return c.splat(n.operands[i]); }

// For x*c (c a splat) returns {x, c}.
std::optional<std::pair<NodeId, double>> scaled(C& c, NodeId id) {
  if (c.op(id) != Op::Mul) return std::nullopt;
  for (size_t i = 0; i < 2; ++i)
    if (auto v = c.splat(c.arg(id, i)); v && !c.splat(c.arg(id, 1 - i)))
      return std::pair{c.arg(id, 1 - i), *v};
  return std::nullopt;
}

NodeId scale(C& c, NodeId x, double v) {
  if (v == 1.0) return x;
  return c.g.binary(Op::Mul, x, c.splat_like(v, x));
}

bool is_shape_op(Op op) { return ir::op_info(op).category == ir::OpCategory::Shape && op != Op::Cat; }

// The same node with operand 0 replaced (for unary ops and data movement).
NodeId with_operand(C& c, const Node& n, NodeId x) {
  Node m = n;
  m.operands[0] = x;
  return add_node(c.g, m);
}

// True when a scalar factor on `id` can be absorbed without adding a node: static values
// fold, mm with a static operand takes it into the weight, sums of such values distribute.
bool absorbs(C& c, NodeId id, int depth = 3) {
  if (c.is_static(id)) return true;
  if (c.op(id) == Op::Mm) return c.is_static(c.arg(id, 0)) || c.is_static(c.arg(id, 1));
  if (depth > 0 && (c.op(id) == Op::Add || c.op(id) == Op::Sub))
    return absorbs(c, c.arg(id, 0), depth - 1) && absorbs(c, c.arg(id, 1), depth - 1);
  return false;
}

// ---- identities -------------------------------------------------------------------------

NodeId fold_constants(C& c, const Node& n, NodeId) { return fold_constant(c.g, n); }

NodeId mul_one(C& c, const Node& n, NodeId) {
  for (size_t i = 0; i < 2; ++i)
    if (splat_arg(c, n, i) == 1.0) return n.operands[1 - i];
  return kNo;
}

NodeId mul_zero(C& c, const Node& n, NodeId id) {
  for (size_t i = 0; i < 2; ++i)
    if (splat_arg(c, n, i) == 0.0) return c.splat_like(0.0, id);
  return kNo;
}

NodeId mul_minus_one(C& c, const Node& n, NodeId) {
  for (size_t i = 0; i < 2; ++i)
    if (splat_arg(c, n, i) == -1.0) return c.g.unary(Op::Neg, n.operands[1 - i]);
  return kNo;
}

NodeId add_zero(C& c, const Node& n, NodeId) {
  for (size_t i = 0; i < 2; ++i)
    if (splat_arg(c, n, i) == 0.0) return n.operands[1 - i];
  return kNo;
}

NodeId sub_zero(C& c, const Node& n, NodeId) {
  return splat_arg(c, n, 1) == 0.0 ? n.operands[0] : kNo;
}

NodeId zero_sub(C& c, const Node& n, NodeId) {
  return splat_arg(c, n, 0) == 0.0 ? c.g.unary(Op::Neg, n.operands[1]) : kNo;
}

NodeId sub_self(C& c, const Node& n, NodeId id) {
  return n.operands[0] == n.operands[1] ? c.splat_like(0.0, id) : kNo;
}

NodeId div_const(C& c, const Node& n, NodeId) {
  auto v = splat_arg(c, n, 1);
  if (!v || *v == 0.0) return kNo;
  return scale(c, n.operands[0], 1.0 / *v);
}

NodeId neg_neg(C& c, const Node& n, NodeId) {
  return c.op(n.operands[0]) == Op::Neg ? c.arg(n.operands[0], 0) : kNo;
}

// ---- scalar factors and signs move outward ----------------------------------------------

NodeId scale_scale(C& c, const Node&, NodeId id) {
  auto outer = scaled(c, id);
  if (!outer) return kNo;
  auto inner = scaled(c, outer->first);
  if (!inner) return kNo;
  return scale(c, inner->first, inner->second * outer->second);
}

NodeId neg_of_scaled(C& c, const Node& n, NodeId) {
  auto s = scaled(c, n.operands[0]);
  return s ? scale(c, s->first, -s->second) : kNo;
}

NodeId scaled_neg(C& c, const Node&, NodeId id) {
  auto s = scaled(c, id);
  if (!s || c.op(s->first) != Op::Neg) return kNo;
  return scale(c, c.arg(s->first, 0), -s->second);
}

// (x*c)*y -> (x*y)*c and (-x)*y -> -(x*y), y not a splat.
NodeId factor_out_of_mul(C& c, const Node& n, NodeId id) {
  if (scaled(c, id) || c.is_static(id)) return kNo;
  for (size_t i = 0; i < 2; ++i) {
    const NodeId a = n.operands[i], y = n.operands[1 - i];
    if (auto s = scaled(c, a)) return scale(c, c.g.binary(Op::Mul, s->first, y), s->second);
    if (c.op(a) == Op::Neg) return c.g.unary(Op::Neg, c.g.binary(Op::Mul, c.arg(a, 0), y));
  }
  return kNo;
}

// shape_op(x*c) -> shape_op(x)*c and shape_op(-x) -> -shape_op(x), x not static (static
// values keep expand outermost instead; see sink_expand).
NodeId factor_out_of_shape(C& c, const Node& n, NodeId id) {
  if (!is_shape_op(n.op) && n.op != Op::Sum) return kNo;
  const NodeId a = n.operands[0];
  if (c.is_static(a)) return kNo;
  if (auto s = scaled(c, a)) return scale(c, with_operand(c, n, s->first), s->second);
  if (c.op(a) == Op::Neg) return c.g.unary(Op::Neg, with_operand(c, n, c.arg(a, 0)));
  return kNo;
}

// sin(-x) -> -sin(x); cos(-x) -> cos(x)
NodeId odd_even(C& c, const Node& n, NodeId) {
  if (c.op(n.operands[0]) != Op::Neg) return kNo;
  const NodeId x = c.arg(n.operands[0], 0);
  return n.op == Op::Sin ? c.g.unary(Op::Neg, c.g.unary(Op::Sin, x)) : c.g.unary(Op::Cos, x);
}

// a + (-b) -> a - b
NodeId add_neg(C& c, const Node& n, NodeId) {
  for (size_t i = 0; i < 2; ++i)
    if (c.op(n.operands[i]) == Op::Neg)
      return c.g.binary(Op::Sub, n.operands[1 - i], c.arg(n.operands[i], 0));
  return kNo;
}

// a - (-b) -> a + b; (-a) - b -> -(a + b)
NodeId sub_neg(C& c, const Node& n, NodeId) {
  const NodeId a = n.operands[0], b = n.operands[1];
  if (c.op(b) == Op::Neg) return c.g.binary(Op::Add, a, c.arg(b, 0));
  if (c.op(a) == Op::Neg) return c.g.unary(Op::Neg, c.g.binary(Op::Add, c.arg(a, 0), b));
  return kNo;
}

// -(a - b) -> b - a
NodeId neg_sub(C& c, const Node& n, NodeId) {
  const NodeId a = n.operands[0];
  return c.op(a) == Op::Sub ? c.g.binary(Op::Sub, c.arg(a, 1), c.arg(a, 0)) : kNo;
}

// ---- mm: factors go into static operands, or out ---------------------------------------

// mm(x*c, y) -> mm(x, y*c) when y is static, else mm(x, y)*c (and mirrored); signs alike.
NodeId factor_through_mm(C& c, const Node& n, NodeId) {
  for (size_t i = 0; i < 2; ++i) {
    const NodeId a = n.operands[i], w = n.operands[1 - i];
    std::optional<std::pair<NodeId, double>> s = scaled(c, a);
    if (!s && c.op(a) == Op::Neg && !c.is_static(a)) s = std::pair{c.arg(a, 0), -1.0};
    if (!s || c.is_static(a)) continue;
    const NodeId x = s->first;
    if (c.is_static(w)) {
      const NodeId w2 = c.g.binary(Op::Mul, w, c.splat_like(s->second, w));
      return i == 0 ? c.g.mm(x, w2) : c.g.mm(w2, x);
    }
    return scale(c, i == 0 ? c.g.mm(x, w) : c.g.mm(w, x), s->second);
  }
  return kNo;
}

// The value and scalar factor of -x (x, -1) or of x*c (x, c); nullopt otherwise.
std::optional<std::pair<NodeId, double>> signed_factor(C& c, const Node& n, NodeId id) {
  if (n.op == Op::Neg) return std::pair{n.operands[0], -1.0};
  return scaled(c, id);
}

// mm(x, W)*c -> mm(x, W*c) and -mm(x, W) -> mm(x, -W), W static.
NodeId factor_into_mm(C& c, const Node& n, NodeId id) {
  const auto f = signed_factor(c, n, id);
  if (!f) return kNo;
  const auto [m, v] = *f;
  if (c.op(m) != Op::Mm || c.uses(m) > 1) return kNo;
  for (size_t i = 0; i < 2; ++i) {
    const NodeId w = c.arg(m, i), x = c.arg(m, 1 - i);
    if (!c.is_static(w)) continue;
    const NodeId w2 = c.g.binary(Op::Mul, w, c.splat_like(v, w));
    return i == 0 ? c.g.mm(w2, x) : c.g.mm(x, w2);
  }
  return kNo;
}

// (a+b)*c -> a*c + b*c and -(a+b) -> (-a) + (-b), when both halves absorb the factor and
// the sum has no other user (e.g. the pre-activation (xW^T + b)*30 becomes xW'^T + b').
NodeId distribute(C& c, const Node& n, NodeId id) {
  const auto f = signed_factor(c, n, id);
  if (!f) return kNo;
  const auto [sum, v] = *f;
  const Op op = c.op(sum);
  if ((op != Op::Add && op != Op::Sub) || c.is_static(sum) || c.uses(sum) > 1) return kNo;
  const NodeId a = c.arg(sum, 0), b = c.arg(sum, 1);
  if (!absorbs(c, a) || !absorbs(c, b)) return kNo;
  return c.g.binary(op, scale(c, a, v), scale(c, b, v));
}

// Is `id` expand(r) with r of shape [1,k] (a row broadcast down dim 0)?
std::optional<NodeId> broadcast_row(C& c, NodeId id) {
  if (c.op(id) != Op::Expand) return std::nullopt;
  const NodeId r = c.arg(id, 0);
  const Shape s = c.shape(r);
  if (s.size() != 2 || s[0] != 1) return std::nullopt;
  return r;
}

// mm(expand(r), W) -> expand(mm(r, W)), r and W static: one row computed, then broadcast.
// A splat of several rows is one row broadcast too: the backward seed (`ones_like(u)`,
// `u.sum()`'s) through the last layer is one row of W, so the ROM folded from it is that row,
// not a row per sample (docs/dataflow.md §7).
NodeId mm_of_broadcast_row(C& c, const Node& n, NodeId id) {
  auto r = broadcast_row(c, n.operands[0]);
  if (!r) {
    const Shape s = c.shape(n.operands[0]);
    if (auto v = c.splat(n.operands[0]); v && s[0] > 1) r = c.g.constant(*v, {1, s[1]});
  }
  if (!r || !c.is_static(*r) || !c.is_static(n.operands[1])) return kNo;
  return c.g.expand(c.g.mm(*r, n.operands[1]), n.shape);
}

// mm(x * expand(r), W) -> mm(x, expand(r^T) * W), r and W static: the row scaling becomes
// a scaling of W's rows, folded into a new weight. Only when this product is W's one
// reader: otherwise the scaled copy is a second ROM as large as W (2 Mbit at width 256)
// bought to save one multiply per element, and the products reading W can no longer share
// it (passes/merge_shared_mm.h). A W the rules made in this sweep has no use count yet
// (0): it is looked at again in the next sweep.
NodeId row_scale_into_mm(C& c, const Node& n, NodeId) {
  const NodeId a = n.operands[0], w = n.operands[1];
  if (c.op(a) != Op::Mul || !c.is_static(w) || c.is_static(a) || c.uses(w) != 1) return kNo;
  for (size_t i = 0; i < 2; ++i) {
    auto r = broadcast_row(c, c.arg(a, i));
    if (!r || !c.is_static(*r)) continue;
    const NodeId col = c.g.expand(c.g.transpose(*r), c.shape(w));
    return c.g.mm(c.arg(a, 1 - i), c.g.binary(Op::Mul, col, w));
  }
  return kNo;
}

// Static values keep broadcasts outermost so the folded param is the small operand:
// unary(expand(a)) -> expand(unary(a)); expand(a) op splat -> expand(a op splat);
// expand(a) op expand(b), a and b of one shape -> expand(a op b).
NodeId sink_expand(C& c, const Node& n, NodeId id) {
  const auto cat = ir::op_info(n.op).category;
  if ((cat != ir::OpCategory::Unary && cat != ir::OpCategory::Binary) || !c.is_static(id)) return kNo;
  const NodeId a = n.operands[0];
  if (cat == ir::OpCategory::Unary) {
    if (c.op(a) != Op::Expand) return kNo;
    return c.g.expand(c.g.unary(n.op, c.arg(a, 0)), n.shape);
  }
  if (cat != ir::OpCategory::Binary) return kNo;
  const NodeId b = n.operands[1];
  auto source = [&](NodeId e) { return c.op(e) == Op::Expand ? c.arg(e, 0) : kNo; };
  const NodeId ea = source(a), eb = source(b);
  auto bcast = [&](NodeId x, NodeId y) { return c.g.expand(c.g.binary(n.op, x, y), n.shape); };
  if (ea != kNo && eb != kNo && c.shape(ea) == c.shape(eb)) return bcast(ea, eb);
  if (ea != kNo && c.splat(b)) return bcast(ea, c.g.constant(*c.splat(b), c.shape(ea)));
  if (eb != kNo && c.splat(a)) return bcast(c.g.constant(*c.splat(a), c.shape(eb)), eb);
  return kNo;
}

// ---- the table ------------------------------------------------------------------------

constexpr auto kAny = std::nullopt;

const Rule kRules[] = {
    {"fold-constants", kAny, fold_constants},            // op(consts) -> const
    {"mul-one", Op::Mul, mul_one},                       // x*1 -> x
    {"mul-zero", Op::Mul, mul_zero},                     // x*0 -> 0
    {"mul-minus-one", Op::Mul, mul_minus_one},           // x*(-1) -> -x
    {"add-zero", Op::Add, add_zero},                     // x+0 -> x
    {"sub-zero", Op::Sub, sub_zero},                     // x-0 -> x
    {"zero-sub", Op::Sub, zero_sub},                     // 0-x -> -x
    {"sub-self", Op::Sub, sub_self},                     // x-x -> 0
    {"div-const", Op::Div, div_const},                   // x/c -> x*(1/c)
    {"neg-neg", Op::Neg, neg_neg},                       // -(-x) -> x
    {"scale-scale", Op::Mul, scale_scale},               // (x*c1)*c2 -> x*(c1*c2)
    {"neg-scaled", Op::Neg, neg_of_scaled},              // -(x*c) -> x*(-c)
    {"scaled-neg", Op::Mul, scaled_neg},                 // (-x)*c -> x*(-c)
    {"sink-expand", kAny, sink_expand},                  // static: op(expand a) -> expand(op a)
    {"factor-into-mm", Op::Mul, factor_into_mm},         // mm(x,W)*c -> mm(x,W*c)
    {"factor-into-mm", Op::Neg, factor_into_mm},         // -mm(x,W) -> mm(x,-W)
    {"distribute", Op::Mul, distribute},                 // (a+b)*c -> a*c+b*c if both absorb
    {"distribute", Op::Neg, distribute},                 // -(a+b) -> -a + -b if both absorb
    {"factor-out-of-mul", Op::Mul, factor_out_of_mul},   // (x*c)*y -> (x*y)*c, (-x)*y -> -(x*y)
    {"factor-out-of-shape", kAny, factor_out_of_shape},  // T(x*c) -> T(x)*c, T(-x) -> -T(x)
    {"factor-through-mm", Op::Mm, factor_through_mm},    // mm(x*c,W) -> mm(x,W*c) / mm(x,y)*c
    {"odd-even", Op::Sin, odd_even},                     // sin(-x) -> -sin(x)
    {"odd-even", Op::Cos, odd_even},                     // cos(-x) -> cos(x)
    {"add-neg", Op::Add, add_neg},                       // a+(-b) -> a-b
    {"sub-neg", Op::Sub, sub_neg},                       // a-(-b) -> a+b, (-a)-b -> -(a+b)
    {"neg-sub", Op::Neg, neg_sub},                       // -(a-b) -> b-a
    {"mm-broadcast-row", Op::Mm, mm_of_broadcast_row},   // mm(expand r, W) -> expand(mm(r,W))
    {"row-scale-into-mm", Op::Mm, row_scale_into_mm},    // mm(x*expand r, W) -> mm(x, diag(r)W)
};

}  // namespace

ir::Graph algebra(const ir::Graph& g, PassContext& ctx) { return run_rules(g, kRules, ctx.stats); }

}  // namespace inrarch::passes
