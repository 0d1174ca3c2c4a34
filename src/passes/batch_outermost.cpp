// batch_outermost (batch_outermost.h): the inputs and outputs re-shaped, then lead reshapes
// sunk by a rule table run by the fixpoint driver (rewriter.h).
#include "passes/batch_outermost.h"

#include <algorithm>

#include "passes/rewriter.h"

namespace inrarch::passes {

namespace {

constexpr NodeId kNo = ir::kNoNode;
using C = RuleContext;
using ir::Shape;

// k >= 1 when `id` is a reshape that only prepends k ones to its operand's shape.
size_t lead_of(C& c, NodeId id) {
  if (c.op(id) != Op::Reshape) return 0;
  const Shape out = c.shape(id), in = c.shape(c.arg(id, 0));
  if (out.size() <= in.size() || !std::equal(in.begin(), in.end(), out.end() - in.size())) return 0;
  const size_t k = out.size() - in.size();
  return std::all_of(out.begin(), out.begin() + k, [](int64_t d) { return d == 1; }) ? k : 0;
}

Shape drop(const Shape& s, size_t k) { return Shape(s.begin() + k, s.end()); }

// `v` at the shape `s` without its k leading ones: a lead reshape's operand, a splat, an
// expand of a value with the same leading ones, or a reshape of a static value; kNo else.
NodeId without_lead(C& c, NodeId v, size_t k) {
  const Shape s = c.shape(v), to = drop(s, k);
  if (lead_of(c, v) == k) return c.arg(v, 0);
  if (auto x = c.splat(v)) return c.g.constant(*x, to);
  if (c.op(v) == Op::Expand) {
    const Shape r = c.shape(c.arg(v, 0));
    if (r.size() == s.size() && std::all_of(r.begin(), r.begin() + k, [](int64_t d) { return d == 1; }))
      return c.g.expand(c.g.reshape(c.arg(v, 0), drop(r, k)), to);
  }
  return c.is_static(v) ? c.g.reshape(v, to) : kNo;
}

NodeId lead(C& c, NodeId x, size_t k) {
  Shape s(k, 1);
  const Shape in = c.shape(x);
  s.insert(s.end(), in.begin(), in.end());
  return c.g.reshape(x, s);
}

// The k of the first operand that is a lead reshape (0: none).
size_t operand_lead(C& c, const Node& n) {
  for (NodeId o : n.operands)
    if (size_t k = lead_of(c, o)) return k;
  return 0;
}

// Elementwise ops and cat (not along a leading one): op(lead a, b', ...) -> lead(op(a, b, ...)).
NodeId sink_through_elementwise(C& c, const Node& n, NodeId) {
  const auto cat = ir::op_info(n.op).category;
  if (cat != ir::OpCategory::Unary && cat != ir::OpCategory::Binary && n.op != Op::Cat) return kNo;
  const size_t k = operand_lead(c, n);
  if (k == 0 || (n.op == Op::Cat && n.attrs.dim < static_cast<int64_t>(k))) return kNo;
  Node m = n;
  for (NodeId& o : m.operands)
    if ((o = without_lead(c, o, k)) == kNo) return kNo;
  m.shape = drop(n.shape, k);
  if (n.op == Op::Cat) m.attrs.dim -= static_cast<int64_t>(k);
  return lead(c, add_node(c.g, m), k);
}

// select / slice / unsqueeze / squeeze / sum on dims past the leading ones, and expand that
// keeps them: op(lead a) -> lead(op'(a)), dims shifted by k.
NodeId sink_through_shape(C& c, const Node& n, NodeId) {
  if (n.operands.empty()) return kNo;
  const size_t k = lead_of(c, n.operands[0]);
  const auto ik = static_cast<int64_t>(k);
  if (k == 0) return kNo;
  Node m = n;
  m.operands[0] = c.arg(n.operands[0], 0);
  switch (n.op) {
    case Op::Select:
    case Op::Slice:
    case Op::Unsqueeze:
    case Op::Squeeze:
      if (n.attrs.dim < ik) return kNo;
      m.attrs.dim -= ik;
      break;
    case Op::Sum:
      if (n.attrs.dims.front() < ik) return kNo;
      for (int64_t& d : m.attrs.dims) d -= ik;
      break;
    case Op::Expand:
      if (n.shape.size() != c.shape(n.operands[0]).size() ||
          !std::all_of(n.shape.begin(), n.shape.begin() + ik, [](int64_t d) { return d == 1; }))
        return kNo;
      break;
    default: return kNo;
  }
  m.shape = drop(n.shape, k);
  return lead(c, add_node(c.g, m), k);
}

const Rule kRules[] = {
    {"sink-lead-reshape", std::nullopt, sink_through_elementwise},  // op(lead a, b) -> lead(op(a, b'))
    {"sink-lead-reshape", std::nullopt, sink_through_shape},        // select(lead a) -> lead(select a)
};

// The k leading ones every input has (0: not all alike, or none).
size_t input_lead(const Graph& g) {
  size_t lead = 0;
  bool any = false;
  for (NodeId v : ir::live_nodes(g)) {
    if (g.op(v) != Op::Input) continue;
    const Shape& s = g.shape(v);
    size_t k = 0;
    while (k < s.size() && s[k] == 1) ++k;
    if (k == 0 || k == s.size() || s[k] < 2 || (any && k != lead)) return 0;
    lead = k, any = true;
  }
  return lead;
}

}  // namespace

ir::Graph batch_outermost(const ir::Graph& g, PassContext& ctx) {
  const size_t k = input_lead(g);
  if (k == 0) return rebuild(g);
  int64_t batch = 0;
  Graph out(g.name());
  rebuild_into(g, out, [&](Graph& o, const Node& n, NodeId) {
    if (n.op != Op::Input) return kNo;
    ctx.stats.count("batch-outermost");
    batch = n.shape[k];
    return o.reshape(o.input(n.attrs.name, drop(n.shape, k)), n.shape);
  });
  std::vector<ir::Output> outs = out.outputs();
  for (ir::Output& o : outs) {
    const Shape s = out.shape(o.node);
    if (s.size() > k && std::all_of(s.begin(), s.begin() + k, [](int64_t d) { return d == 1; }) &&
        s[k] % batch == 0)
      o.node = out.reshape(o.node, drop(s, k));
  }
  out.set_outputs(std::move(outs));
  return run_rules(out, kRules, ctx.stats);
}

}  // namespace inrarch::passes
