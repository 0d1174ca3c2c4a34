// Taylor mode: one forward sweep over the nodes on a path from x to the requested outputs,
// each node's jet built by its op's rule (taylor_rules.cpp) from its operands' jets. As in
// grad(), new nodes land above the swept range, so the sweep never visits them.
#include "autodiff/taylor.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <set>

#include "autodiff/dependence.h"
#include "autodiff/taylor_rules.h"
#include "support/error.h"

namespace inrarch::autodiff {

namespace {

using ir::Graph;
using ir::NodeId;
using ir::Op;

NodeId find_output(const Graph& g, const std::string& name) {
  for (const ir::Output& o : g.outputs())
    if (o.name == name) return o.node;
  return ir::kNoNode;
}

NodeId wrt_input(const Graph& g, const TaylorSpec& spec) {
  const NodeId x = g.find_input(spec.wrt);
  if (x == ir::kNoNode) throw Error(fmt::format("taylor: the graph has no input \"{}\"", spec.wrt));
  if (g.shape(x).size() != 2)
    throw Error(fmt::format("taylor: input \"{}\" has shape {}; it must be [rows, variables]",
                            spec.wrt, shape_str(g.shape(x))));
  return x;
}

void check_request(const Graph& g, const MultiIndexSet& mi, const DerivativeRequest& r) {
  const NodeId f = find_output(g, r.of);
  if (f == ir::kNoNode) throw Error(fmt::format("taylor: output \"{}\" of request \"{}\" does not exist", r.of, r.name));
  if (!r.weights.empty() && r.weights.size() != r.plus.size() + 1)
    throw Error(fmt::format("taylor: request \"{}\": {} weights for {} terms", r.name, r.weights.size(),
                            r.plus.size() + 1));
  for (const Term& term : r.terms()) {
    if (mi.find(term.alpha) < 0)
      throw Error(fmt::format("taylor: request \"{}\": multi-index {} needs {} entries >= 0 summing to at most the order {}",
                              r.name, multi_index_str(term.alpha), mi.variables(), mi.order()));
    if (!std::isfinite(term.weight))
      throw Error(fmt::format("taylor: request \"{}\": the scale of term {} is not finite", r.name,
                              multi_index_str(term.alpha)));
  }
  const ir::Shape& s = g.shape(f);
  if (r.index && (s.empty() || *r.index < 0 || *r.index >= s.back()))
    throw Error(fmt::format("taylor: request \"{}\": index {} out of range of {}'s last dimension ({})",
                            r.name, *r.index, r.of, shape_str(s)));
  if (!std::isfinite(r.scale)) throw Error(fmt::format("taylor: request \"{}\": scale is not finite", r.name));
}

}  // namespace

std::vector<DerivativeRequest> resolve_requests(const Graph& g, const TaylorSpec& spec) {
  const NodeId x = wrt_input(g, spec);
  const MultiIndexSet mi(static_cast<int>(g.shape(x)[1]), spec.order);
  std::vector<DerivativeRequest> reqs = spec.requests.empty() ? default_requests(g, mi) : spec.requests;
  std::set<std::string> names;
  for (const DerivativeRequest& r : reqs) {
    check_request(g, mi, r);
    if (!names.insert(r.name).second) throw Error(fmt::format("taylor: two requests are named \"{}\"", r.name));
  }
  return reqs;
}

namespace {

NodeId scaled(Graph& g, double k, NodeId node) {
  return k == 1.0 ? node : g.binary(Op::Mul, g.constant(k, g.shape(node)), node);
}

// scale · Σ_α w_α α! f_α[..., index] (∂^α f = α! f_α: the jet holds normalized
// coefficients), a zero coefficient adding nothing; all zero is a zero constant.
NodeId finish(Graph& g, const JetTable& t, NodeId f, const DerivativeRequest& r) {
  const ir::Shape shape = g.shape(f);  // a copy: g grows below
  const MultiIndexSet& mi = t.mi;
  NodeId sum = ir::kNoNode;
  for (const Term& term : r.terms()) {
    const size_t a = static_cast<size_t>(mi.find(term.alpha));
    NodeId c = t.coef(f, a);
    if (c == ir::kNoNode || term.weight == 0.0) continue;
    if (r.index) c = g.select(c, static_cast<int64_t>(shape.size()) - 1, *r.index);
    c = scaled(g, r.scale * term.weight * mi.factorial(a), c);
    sum = sum == ir::kNoNode ? c : g.binary(Op::Add, sum, c);
  }
  if (sum != ir::kNoNode) return sum;
  const NodeId zero = g.constant(0.0, shape);
  return r.index ? g.select(zero, static_cast<int64_t>(shape.size()) - 1, *r.index) : zero;
}

}  // namespace

std::vector<DerivativeRequest> default_requests(const Graph& g, const MultiIndexSet& mi) {
  std::vector<DerivativeRequest> reqs;
  for (const ir::Output& o : g.outputs())
    for (size_t a = 0; a < mi.size(); ++a) {
      std::string name = o.name;
      for (size_t v = 0; a > 0 && v < mi[a].size(); ++v) name += fmt::format("{}{}", v ? "_" : "_d", mi[a][v]);
      reqs.push_back({name, o.name, mi[a], std::nullopt, 1.0});
    }
  return reqs;
}

Graph taylor(const Graph& primal, const TaylorSpec& spec) {
  Graph g = primal;
  const NodeId x = wrt_input(g, spec);
  const MultiIndexSet mi(static_cast<int>(g.shape(x)[1]), spec.order);
  const std::vector<DerivativeRequest> reqs = resolve_requests(g, spec);
  NodeId top = x;
  for (const DerivativeRequest& r : reqs) top = std::max(top, find_output(g, r.of));
  JetTable t{g, mi, x, std::vector<Jet>(top + 1)};
  const std::vector<char> dep = depends_on(g, top, x);
  for (NodeId i = x; i <= top; ++i)
    if (dep[i - x]) t.jets[i] = taylor_rule(t, i);
  std::vector<ir::Output> outs;
  for (const DerivativeRequest& r : reqs) outs.push_back({r.name, finish(g, t, find_output(g, r.of), r)});
  g.set_outputs(std::move(outs));
  return g;
}

}  // namespace inrarch::autodiff
