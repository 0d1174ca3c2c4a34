// Interval bounds of every node (value_bounds.h). One rule per ops.def row (bound_<Enum>),
// gathered by the X-macro, so an op without a rule does not compile.
#include "passes/value_bounds.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>

#include <fmt/format.h>

#include "support/error.h"

namespace inrarch::passes {

namespace {

using ir::Node;
using ir::NodeId;
using Args = std::vector<const Interval*>;

constexpr double kInf = std::numeric_limits<double>::infinity();

struct Ctx {
  const ir::Graph& g;
  NodeId id;
  const InputBox& box;
  const ir::TensorMap& params;
};

using BoundFn = Interval (*)(const Ctx&, const Args&);

// A NaN end (inf - inf, 0 * inf) bounds nothing: the interval becomes infinite on that side.
Interval sanitized(Interval v) {
  for (double& x : v.lo.data) x = std::isnan(x) ? -kInf : x;
  for (double& x : v.hi.data) x = std::isnan(x) ? kInf : x;
  return v;
}

// The interpreter's op on the lower ends and on the upper ends: the rule of every op that
// does not decrease in any operand.
Interval on_ends(const Ctx& c, const Args& a) {
  std::vector<const Tensor*> lo, hi;
  for (const Interval* x : a) lo.push_back(&x->lo), hi.push_back(&x->hi);
  return sanitized({ir::evaluate_op(c.g, c.id, lo), ir::evaluate_op(c.g, c.id, hi)});
}

// Each element's [lo, hi] from f(lo_a, hi_a, lo_b, hi_b) -> {lo, hi} (b = a for unary).
template <typename F>
Interval per_element(const Args& a, F f) {
  const Interval& x = *a[0];
  const Interval& y = *a[a.size() - 1];
  Interval out{Tensor(x.lo.shape), Tensor(x.lo.shape)};
  for (int64_t i = 0; i < x.lo.size(); ++i) {
    auto [lo, hi] = f(x.lo.data[i], x.hi.data[i], y.lo.data[i], y.hi.data[i]);
    out.lo.data[i] = lo, out.hi.data[i] = hi;
  }
  return sanitized(std::move(out));
}

std::pair<double, double> extremes(double p, double q, double r, double s) {
  return {std::min({p, q, r, s}), std::max({p, q, r, s})};
}

// A product where 0 * inf is 0: a zero factor makes the product zero whatever the other.
double times(double x, double y) { return x == 0 || y == 0 ? 0.0 : x * y; }

// A periodic f (sin, cos) over [lo, hi]: its values at the ends, 1 where a crest (crest +
// 2k pi) lies inside and -1 where a trough does. The library's sin and cos are within an
// ulp of the truth, which the crest test cannot see: the ends widen by four ulps.
std::pair<double, double> wave_range(double lo, double hi, double (*f)(double), double crest) {
  constexpr double kTwoPi = 2 * std::numbers::pi;
  if (!std::isfinite(lo) || !std::isfinite(hi) || hi - lo >= kTwoPi) return {-1.0, 1.0};
  double mn = std::min(f(lo), f(hi)), mx = std::max(f(lo), f(hi));
  auto inside = [&](double phase) { return std::ceil((lo - phase) / kTwoPi) * kTwoPi + phase <= hi; };
  if (inside(crest)) mx = 1.0;
  if (inside(crest + std::numbers::pi)) mn = -1.0;
  constexpr double kSlack = 4 * std::numeric_limits<double>::epsilon();
  return {std::max(-1.0, mn - kSlack), std::min(1.0, mx + kSlack)};
}
double sine(double x) { return std::sin(x); }
double cosine(double x) { return std::cos(x); }

Tensor map_ends(const Tensor& a, const Tensor& b, double (*f)(double, double)) {
  Tensor out(a.shape);
  for (int64_t i = 0; i < a.size(); ++i) out.data[i] = f(a.data[i], b.data[i]);
  return out;
}

// ---- leaves
Interval bound_Input(const Ctx& c, const Args&) {
  const Node& n = c.g.node(c.id);
  auto it = c.box.find(n.attrs.name);
  if (it == c.box.end()) throw Error(fmt::format("value bounds: input \"{}\" has no box", n.attrs.name));
  if (it->second.lo.shape != n.shape || it->second.hi.shape != n.shape)
    throw Error(fmt::format("value bounds: the box of input \"{}\" is not shaped {}", n.attrs.name,
                            shape_str(n.shape)));
  return it->second;
}
Interval point(const Ctx& c) {
  Tensor v = ir::evaluate_op(c.g, c.id, {}, {}, c.params);
  return {v, v};
}
Interval bound_Param(const Ctx& c, const Args&) { return point(c); }
Interval bound_Const(const Ctx& c, const Args&) { return point(c); }

// ---- elementwise
Interval bound_Neg(const Ctx&, const Args& a) {
  return per_element(a, [](double lo, double hi, double, double) { return std::pair{-hi, -lo}; });
}
Interval bound_Sin(const Ctx&, const Args& a) {
  return per_element(a, [](double lo, double hi, double, double) { return wave_range(lo, hi, sine, std::numbers::pi / 2); });
}
Interval bound_Cos(const Ctx&, const Args& a) {
  return per_element(a, [](double lo, double hi, double, double) { return wave_range(lo, hi, cosine, 0.0); });
}
constexpr BoundFn bound_Exp = on_ends;
constexpr BoundFn bound_Tanh = on_ends;
constexpr BoundFn bound_Relu = on_ends;
constexpr BoundFn bound_Step = on_ends;
// log and sqrt are defined from 0 up: ends below it are taken as 0 (log 0 = -inf).
Interval from_zero(const Ctx& c, const Args& a) {
  Interval x = *a[0];
  for (double& v : x.lo.data) v = std::max(v, 0.0);
  for (double& v : x.hi.data) v = std::max(v, 0.0);
  return on_ends(c, {&x});
}
constexpr BoundFn bound_Log = from_zero;
constexpr BoundFn bound_Sqrt = from_zero;

constexpr BoundFn bound_Add = on_ends;
Interval bound_Sub(const Ctx&, const Args& a) {
  return per_element(a, [](double alo, double ahi, double blo, double bhi) { return std::pair{alo - bhi, ahi - blo}; });
}
Interval bound_Mul(const Ctx&, const Args& a) {
  return per_element(a, [](double alo, double ahi, double blo, double bhi) {
    return extremes(times(alo, blo), times(alo, bhi), times(ahi, blo), times(ahi, bhi));
  });
}
Interval bound_Div(const Ctx&, const Args& a) {
  return per_element(a, [](double alo, double ahi, double blo, double bhi) {
    const double q[] = {alo / blo, alo / bhi, ahi / blo, ahi / bhi};
    if ((blo <= 0 && bhi >= 0) || std::any_of(q, q + 4, [](double v) { return std::isnan(v); }))
      return std::pair{-kInf, kInf};
    return extremes(q[0], q[1], q[2], q[3]);
  });
}

// ---- compute
// Midpoint-radius: A = [Am - Ar, Am + Ar], B likewise; A B lies within Am Bm ± (|Am| Br +
// Ar |Bm| + Ar Br). The midpoint product's rounding is at most K ulps of |A| |B| per element.
Interval bound_Mm(const Ctx& c, const Args& a) {
  auto mm = [&](const Tensor& x, const Tensor& y) { return ir::evaluate_op(c.g, c.id, {&x, &y}); };
  auto mid = [](double lo, double hi) { return lo / 2 + hi / 2; };
  auto rad = [](double lo, double hi) { return std::max(hi - (lo / 2 + hi / 2), (lo / 2 + hi / 2) - lo); };
  auto mag = [](double lo, double hi) { return std::max(std::fabs(lo), std::fabs(hi)); };
  auto abs_of = [](Tensor t) {
    for (double& v : t.data) v = std::fabs(v);
    return t;
  };
  const Interval &A = *a[0], &B = *a[1];
  const Tensor am = map_ends(A.lo, A.hi, +mid), ar = map_ends(A.lo, A.hi, +rad);
  const Tensor bm = map_ends(B.lo, B.hi, +mid), br = map_ends(B.lo, B.hi, +rad);
  const Tensor centre = mm(am, bm), magnitude = mm(map_ends(A.lo, A.hi, +mag), map_ends(B.lo, B.hi, +mag));
  const Tensor r1 = mm(abs_of(am), br), r2 = mm(ar, abs_of(bm)), r3 = mm(ar, br);
  const double ulps = 4.0 * double(A.lo.shape.at(1) + 2) * std::numeric_limits<double>::epsilon();
  Interval out{centre, centre};
  for (int64_t i = 0; i < centre.size(); ++i) {
    const double r = (r1.data[i] + r2.data[i] + r3.data[i]) * (1 + ulps) + ulps * magnitude.data[i];
    out.lo.data[i] = centre.data[i] - r;
    out.hi.data[i] = centre.data[i] + r;
  }
  return sanitized(std::move(out));
}
constexpr BoundFn bound_Sum = on_ends;

// ---- data movement: every element is one of the operand's
constexpr BoundFn bound_Transpose = on_ends;
constexpr BoundFn bound_Permute = on_ends;
constexpr BoundFn bound_Reshape = on_ends;
constexpr BoundFn bound_Unsqueeze = on_ends;
constexpr BoundFn bound_Squeeze = on_ends;
constexpr BoundFn bound_Expand = on_ends;
constexpr BoundFn bound_Select = on_ends;
constexpr BoundFn bound_Slice = on_ends;
constexpr BoundFn bound_Cat = on_ends;

constexpr BoundFn kBound[] = {
#define OP(Enum, mnemonic, arity, attrs, shape_rule, category, kernel) bound_##Enum,
#include "ir/ops.def"
};
static_assert(sizeof(kBound) / sizeof(kBound[0]) == ir::kNumOps);

// Bounds what `nodes` need in id order, handing each requested node's interval to `done`
// and freeing every interval after its last user.
template <typename Done>
void bound_core(const ir::Graph& g, const std::vector<NodeId>& nodes, const InputBox& box,
                const ir::TensorMap& params, Done&& done) {
  const ir::LiveOrder live = ir::live_order(g, nodes);
  std::vector<char> wanted(g.size(), 0);
  for (NodeId id : nodes) wanted[id] = 1;
  std::vector<Interval> values(g.size());
  Args args;
  for (NodeId id : live.order) {
    args.clear();
    for (NodeId o : g.node(id).operands) args.push_back(&values[o]);
    values[id] = kBound[static_cast<int>(g.node(id).op)](Ctx{g, id, box, params}, args);
    for (NodeId o : g.node(id).operands)
      if (live.last_use[o] == id) values[o] = Interval();
    if (wanted[id]) done(id, values[id]);
    if (live.last_use[id] == ir::kNoNode) values[id] = Interval();
  }
}

}  // namespace

InputBox uniform_box(const ir::Graph& g, double lo, double hi) {
  InputBox box;
  for (NodeId id = 0; id < g.size(); ++id)
    if (g.node(id).op == ir::Op::Input)
      box[g.node(id).attrs.name] = {Tensor(g.node(id).shape, lo), Tensor(g.node(id).shape, hi)};
  return box;
}

std::vector<Interval> value_bounds(const ir::Graph& g, const std::vector<NodeId>& nodes, const InputBox& box,
                                   const ir::TensorMap& params) {
  std::map<NodeId, Interval> kept;
  bound_core(g, nodes, box, params, [&](NodeId id, const Interval& v) { kept[id] = v; });
  std::vector<Interval> out;
  for (NodeId id : nodes) out.push_back(kept.at(id));
  return out;
}

std::vector<double> magnitude_bounds(const ir::Graph& g, const std::vector<NodeId>& nodes, const InputBox& box,
                                     const ir::TensorMap& params) {
  std::map<NodeId, double> kept;
  bound_core(g, nodes, box, params, [&](NodeId id, const Interval& v) {
    double m = 0;
    for (double x : v.lo.data) m = std::max(m, std::fabs(x));
    for (double x : v.hi.data) m = std::max(m, std::fabs(x));
    kept[id] = m;
  });
  std::vector<double> out;
  for (NodeId id : nodes) out.push_back(kept.at(id));
  return out;
}

}  // namespace inrarch::passes
