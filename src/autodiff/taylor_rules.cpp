// Taylor rules: one entry per ops.def row (taylor_<Enum>), gathered by the X-macro so a new
// op without a rule does not compile. A rule gets a copy of the node and builds the jet of
// the node from its operands' jets (docs/taylor.md has the derivations):
//   linear ops (neg, add, sub, shape ops, sum, cat) act on each coefficient;
//   mul is the Cauchy product  (ab)_α = Σ_{β≤α} a_β b_{α−β};
//   mm by a matrix constant in x stacks every non-zero coefficient into one mm;
//   sqrt and div solve the Cauchy product of their defining identity (u·u = v, q·b = a);
//   exp, sin/cos, tanh, log, div use the recurrences of u' = w·v' along one direction j
//   (the first with α_j > 0):  α_j u_α = Σ_{β≤α, β_j≥1} β_j v_β w_{α−β}.
// Zero coefficients are kNoNode and every helper skips them, so the graph never holds a
// product by zero; hash-consing shares the repeated β_j·v_β terms.
#include "autodiff/taylor_rules.h"

#include <fmt/format.h>

#include "support/error.h"

namespace inrarch::autodiff {

namespace {

using ir::Node;
using ir::NodeId;
using ir::Op;
using ir::kNoNode;

using Rule = Jet (*)(JetTable& t, const Node& n, NodeId self);

// ---- zero-aware arithmetic on coefficients
NodeId add(JetTable& t, NodeId a, NodeId b) {
  if (a == kNoNode) return b;
  if (b == kNoNode) return a;
  return t.g.binary(Op::Add, a, b);
}
NodeId neg(JetTable& t, NodeId a) { return a == kNoNode ? a : t.g.unary(Op::Neg, a); }
NodeId sub(JetTable& t, NodeId a, NodeId b) {
  if (b == kNoNode) return a;
  return a == kNoNode ? neg(t, b) : t.g.binary(Op::Sub, a, b);
}
NodeId mul(JetTable& t, NodeId a, NodeId b) {
  return a == kNoNode || b == kNoNode ? kNoNode : t.g.binary(Op::Mul, a, b);
}
NodeId scale(JetTable& t, double k, NodeId a) {
  if (a == kNoNode || k == 1.0) return a;
  return mul(t, t.g.constant(k, t.g.shape(a)), a);
}
// Σ terms as a balanced tree: a chain would put every term's add on the latency path.
NodeId sum_terms(JetTable& t, std::vector<NodeId> terms) {
  std::erase(terms, kNoNode);
  if (terms.empty()) return kNoNode;
  while (terms.size() > 1) {
    std::vector<NodeId> next;
    for (size_t i = 0; i + 1 < terms.size(); i += 2) next.push_back(add(t, terms[i], terms[i + 1]));
    if (terms.size() % 2) next.push_back(terms.back());
    terms = std::move(next);
  }
  return terms[0];
}

int direction(const MultiIndex& alpha) {
  for (size_t j = 0; j < alpha.size(); ++j)
    if (alpha[j] > 0) return static_cast<int>(j);
  INRARCH_ASSERT(false, "taylor: direction of the zero multi-index");
  return 0;
}

// (1/α_j) Σ_{β≤α, β≠0, β≠skip} β_j v_β w_{α−β}: the right-hand side of u' = w·v' along j.
// v and w are coefficient lookups; `skip_alpha` drops β = α (log's implicit term).
template <class V, class W>
NodeId chain(JetTable& t, size_t a, V v, W w, bool skip_alpha = false) {
  const MultiIndex& alpha = t.mi[a];
  const int j = direction(alpha);
  std::vector<NodeId> terms;
  for (auto [b, r] : t.mi.splits(a)) {
    const int bj = t.mi[b][j];
    if (bj == 0 || (skip_alpha && static_cast<size_t>(b) == a)) continue;
    terms.push_back(mul(t, scale(t, bj, v(b)), w(r)));
  }
  return scale(t, 1.0 / alpha[j], sum_terms(t, std::move(terms)));
}

// Σ_{β≤α} f(β, α−β), β = 0 skipped when `skip_zero`.
template <class F>
NodeId cauchy(JetTable& t, size_t a, F f, bool skip_zero = false) {
  std::vector<NodeId> terms;
  for (auto [b, r] : t.mi.splits(a))
    if (!(skip_zero && b == 0)) terms.push_back(f(b, r));
  return sum_terms(t, std::move(terms));
}

Jet constant_jet(const JetTable& t, NodeId self) {
  Jet j(t.mi.size(), kNoNode);
  j[0] = self;
  return j;
}

// Applies the node's own op to each coefficient: exact for ops linear in every operand
// jointly (shape ops, sum, neg, add, sub, cat), whose coefficient α is the op of the
// operands' coefficients α. A zero operand coefficient is a zero constant of its shape.
Jet per_coefficient(JetTable& t, const Node& n, NodeId self) {
  Jet j = constant_jet(t, self);
  for (size_t a = 1; a < t.mi.size(); ++a) {
    std::vector<NodeId> ops;
    bool any = false;
    for (NodeId o : n.operands) {
      NodeId c = t.coef(o, a);
      any |= c != kNoNode;
      ops.push_back(c == kNoNode ? t.g.constant(0.0, t.g.shape(o)) : c);
    }
    if (any) j[a] = t.g.add(n.op, std::move(ops), n.attrs, &n.shape);
  }
  return j;
}

Jet unreachable(JetTable&, const Node& n, NodeId) {
  throw Error(fmt::format("taylor: {} has no operands to differentiate", ir::op_name(n.op)));
}

// ---- leaves: x itself is x + Σ_j t_j e_j, every other leaf is constant in x
// The seed e_v is one row broadcast to all (expand of [1, d]): the same for every sample,
// so what is computed from it alone stays one row (stacked_mm) and folds into a [1, n]
// weight, not a batch-sized one.
Jet taylor_Input(JetTable& t, const Node& n, NodeId self) {
  Jet j = constant_jet(t, self);
  if (self != t.wrt || t.mi.order() == 0) return j;
  const int64_t d = n.shape[1];
  for (int64_t v = 0; v < d; ++v) {
    Tensor one_hot({1, d});
    one_hot.data[v] = 1.0;
    MultiIndex e(d, 0);
    e[v] = 1;
    j[t.mi.find(e)] = t.g.expand(t.g.constant(one_hot), n.shape);
  }
  return j;
}
constexpr Rule taylor_Param = unreachable;
constexpr Rule taylor_Const = unreachable;

// ---- elementwise unary (v = operand)
Jet taylor_Neg(JetTable& t, const Node& n, NodeId self) {
  Jet j = constant_jet(t, self);
  for (size_t a = 1; a < j.size(); ++a) j[a] = neg(t, t.coef(n.operands[0], a));
  return j;
}

// sin and cos together: s' = c·v', c' = −s·v'.
void sin_cos_jets(JetTable& t, NodeId v, Jet& s, Jet& c) {
  s.assign(t.mi.size(), kNoNode);
  c.assign(t.mi.size(), kNoNode);
  s[0] = t.g.unary(Op::Sin, v);
  c[0] = t.g.unary(Op::Cos, v);
  auto vc = [&](size_t b) { return t.coef(v, b); };
  for (size_t a = 1; a < s.size(); ++a) {
    s[a] = chain(t, a, vc, [&](size_t r) { return c[r]; });
    c[a] = neg(t, chain(t, a, vc, [&](size_t r) { return s[r]; }));
  }
}
Jet taylor_Sin(JetTable& t, const Node& n, NodeId) {
  Jet s, c;
  sin_cos_jets(t, n.operands[0], s, c);
  return s;
}
Jet taylor_Cos(JetTable& t, const Node& n, NodeId) {
  Jet s, c;
  sin_cos_jets(t, n.operands[0], s, c);
  return c;
}
// exp: u' = u·v'
Jet taylor_Exp(JetTable& t, const Node& n, NodeId self) {
  Jet u = constant_jet(t, self);
  auto vc = [&](size_t b) { return t.coef(n.operands[0], b); };
  for (size_t a = 1; a < u.size(); ++a) u[a] = chain(t, a, vc, [&](size_t r) { return u[r]; });
  return u;
}
// tanh: u' = w·v' with w = 1 − u², itself a jet built alongside u.
Jet taylor_Tanh(JetTable& t, const Node& n, NodeId self) {
  Jet u = constant_jet(t, self), w(u.size(), kNoNode);
  w[0] = t.g.binary(Op::Sub, t.g.constant(1.0, n.shape), t.g.binary(Op::Mul, self, self));
  auto vc = [&](size_t b) { return t.coef(n.operands[0], b); };
  for (size_t a = 1; a < u.size(); ++a) {
    u[a] = chain(t, a, vc, [&](size_t r) { return w[r]; });
    w[a] = neg(t, cauchy(t, a, [&](size_t b, size_t r) { return mul(t, u[b], u[r]); }));
  }
  return u;
}
// relu is piecewise linear: u_α = step(v_0)·v_α (almost everywhere, as autograd takes it).
Jet taylor_Relu(JetTable& t, const Node& n, NodeId self) {
  Jet u = constant_jet(t, self);
  const NodeId v = n.operands[0];
  for (size_t a = 1; a < u.size(); ++a) {
    const NodeId c = t.coef(v, a);
    if (c != kNoNode) u[a] = mul(t, t.g.unary(Op::Step, v), c);
  }
  return u;
}
// step is piecewise constant: no coefficient but its value.
Jet taylor_Step(JetTable& t, const Node&, NodeId self) { return constant_jet(t, self); }
// log: v·u' = v', so α_j v_0 u_α = α_j v_α − Σ_{β≠α} β_j u_β v_{α−β}.
Jet taylor_Log(JetTable& t, const Node& n, NodeId self) {
  Jet u = constant_jet(t, self);
  const NodeId v = n.operands[0];
  auto uc = [&](size_t b) { return u[b]; };
  auto vc = [&](size_t r) { return t.coef(v, r); };
  for (size_t a = 1; a < u.size(); ++a) {
    const NodeId rest = chain(t, a, uc, vc, /*skip_alpha=*/true);
    const NodeId top = sub(t, t.coef(v, a), rest);
    if (top != kNoNode) u[a] = t.g.binary(Op::Div, top, v);
  }
  return u;
}
// sqrt: u·u = v, so 2 u_0 u_α = v_α − Σ_{β≠0, β≠α} u_β u_{α−β}.
Jet taylor_Sqrt(JetTable& t, const Node& n, NodeId self) {
  Jet u = constant_jet(t, self);
  const NodeId v = n.operands[0];
  NodeId two_u0 = kNoNode;
  for (size_t a = 1; a < u.size(); ++a) {
    const NodeId rest = cauchy(t, a, [&](size_t b, size_t r) {
      return b == 0 || r == 0 ? kNoNode : mul(t, u[b], u[r]);
    });
    const NodeId top = sub(t, t.coef(v, a), rest);
    if (top == kNoNode) continue;
    if (two_u0 == kNoNode) two_u0 = scale(t, 2.0, self);
    u[a] = t.g.binary(Op::Div, top, two_u0);
  }
  return u;
}

// ---- elementwise binary
Jet taylor_Add(JetTable& t, const Node& n, NodeId self) {
  Jet j = constant_jet(t, self);
  for (size_t a = 1; a < j.size(); ++a)
    j[a] = add(t, t.coef(n.operands[0], a), t.coef(n.operands[1], a));
  return j;
}
Jet taylor_Sub(JetTable& t, const Node& n, NodeId self) {
  Jet j = constant_jet(t, self);
  for (size_t a = 1; a < j.size(); ++a)
    j[a] = sub(t, t.coef(n.operands[0], a), t.coef(n.operands[1], a));
  return j;
}
Jet taylor_Mul(JetTable& t, const Node& n, NodeId self) {
  Jet j = constant_jet(t, self);
  const NodeId x = n.operands[0], y = n.operands[1];
  for (size_t a = 1; a < j.size(); ++a)
    j[a] = cauchy(t, a, [&](size_t b, size_t r) { return mul(t, t.coef(x, b), t.coef(y, r)); });
  return j;
}
// div: q·b = a, so q_α = (a_α − Σ_{γ≠0} b_γ q_{α−γ}) / b_0.
Jet taylor_Div(JetTable& t, const Node& n, NodeId self) {
  Jet q = constant_jet(t, self);
  const NodeId x = n.operands[0], y = n.operands[1];
  for (size_t a = 1; a < q.size(); ++a) {
    const NodeId rest =
        cauchy(t, a, [&](size_t b, size_t r) { return mul(t, t.coef(y, b), q[r]); }, true);
    const NodeId top = sub(t, t.coef(x, a), rest);
    if (top != kNoNode) q[a] = t.g.binary(Op::Div, top, y);
  }
  return q;
}

// ---- compute
// A coefficient that is one row broadcast to all (a seed, or what only seeds reach) goes
// through the mm as that one row: rows·in·out MACs become in·out, and the result folds.
bool broadcast_row(const JetTable& t, NodeId c) {
  return t.g.op(c) == Op::Expand && t.g.shape(t.g.node(c).operands[0])[0] == 1;
}

// A [rows, in] whose other non-zero coefficients go through one mm by w (constant in x):
// they are stacked sample-major into [rows·k, in] (each sample's k coefficient rows
// together, so rows stay independent) and split again after the mm. One weight ROM, one
// kernel.
Jet stacked_mm(JetTable& t, NodeId a, NodeId w, NodeId self) {
  Jet j = constant_jet(t, self);
  std::vector<size_t> live;
  for (size_t c = 1; c < j.size(); ++c) {
    const NodeId ac = t.coef(a, c);
    if (ac == kNoNode) continue;
    if (!broadcast_row(t, ac)) {
      live.push_back(c);
      continue;
    }
    const ir::Shape out = t.g.shape(self);  // a copy: g grows below
    j[c] = t.g.expand(t.g.mm(t.g.node(ac).operands[0], w), out);
  }
  if (live.size() == 1) j[live[0]] = t.g.mm(t.coef(a, live[0]), w);
  if (live.size() <= 1) return j;
  const ir::Shape as = t.g.shape(a), ws = t.g.shape(w);
  const int64_t rows = as[0], k = static_cast<int64_t>(live.size());
  std::vector<NodeId> parts;
  for (size_t c : live) parts.push_back(t.g.unsqueeze(t.coef(a, c), 1));
  const NodeId stacked = t.g.reshape(t.g.cat(std::move(parts), 1), {rows * k, as[1]});
  const NodeId split = t.g.reshape(t.g.mm(stacked, w), {rows, k, ws[1]});
  for (int64_t i = 0; i < k; ++i) j[live[i]] = t.g.select(split, 1, i);
  return j;
}
// mm is bilinear: by a constant matrix it is linear in the other operand, else a Cauchy
// product of mms.
Jet taylor_Mm(JetTable& t, const Node& n, NodeId self) {
  const NodeId a = n.operands[0], b = n.operands[1];
  if (t.constant_in_x(b)) return stacked_mm(t, a, b, self);
  Jet j = constant_jet(t, self);
  for (size_t c = 1; c < j.size(); ++c)
    j[c] = cauchy(t, c, [&](size_t p, size_t r) {
      const NodeId x = t.coef(a, p), y = t.coef(b, r);
      return x == kNoNode || y == kNoNode ? kNoNode : t.g.mm(x, y);
    });
  return j;
}
constexpr Rule taylor_Sum = per_coefficient;

// ---- data movement: linear, each coefficient moves as the value does
constexpr Rule taylor_Transpose = per_coefficient;
constexpr Rule taylor_Permute = per_coefficient;
constexpr Rule taylor_Reshape = per_coefficient;
constexpr Rule taylor_Unsqueeze = per_coefficient;
constexpr Rule taylor_Squeeze = per_coefficient;
constexpr Rule taylor_Expand = per_coefficient;
constexpr Rule taylor_Select = per_coefficient;
constexpr Rule taylor_Slice = per_coefficient;
constexpr Rule taylor_Cat = per_coefficient;

constexpr Rule kRules[] = {
#define OP(Enum, mnemonic, arity, attrs, shape_rule, category, kernel) taylor_##Enum,
#include "ir/ops.def"
};
static_assert(sizeof(kRules) / sizeof(kRules[0]) == ir::kNumOps);

}  // namespace

Jet taylor_rule(JetTable& t, NodeId id) {
  const Node n = t.g.node(id);  // a copy: the rule appends to the arena
  Jet j = kRules[static_cast<int>(n.op)](t, n, id);
  INRARCH_ASSERT(j.size() == t.mi.size() && j[0] == id, "taylor: rule returned a wrong jet");
  for (NodeId c : j)
    INRARCH_ASSERT(c == kNoNode || t.g.shape(c) == n.shape, "taylor: coefficient of a wrong shape");
  return j;
}

}  // namespace inrarch::autodiff
