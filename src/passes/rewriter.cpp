// Rebuild and fixpoint engines (see rewriter.h for the algorithm).
#include "passes/rewriter.h"

#include <array>

#include "support/error.h"

namespace inrarch::passes {

NodeId add_node(Graph& out, const Node& n) {
  return out.add(n.op, n.operands, n.attrs, &n.shape);
}

std::vector<NodeId> rebuild_into(const Graph& src, Graph& out, const NodeFn& fn) {
  std::vector<NodeId> map(src.size(), ir::kNoNode);
  for (NodeId old : ir::live_nodes(src)) {
    Node n = src.node(old);
    for (NodeId& o : n.operands) o = map[o];
    if (n.op == Op::Const && n.attrs.dense >= 0) n.attrs.dense = out.intern_tensor(src.tensor(n.attrs.dense));
    NodeId id = fn ? fn(out, n, old) : ir::kNoNode;
    map[old] = id == ir::kNoNode ? add_node(out, n) : id;
  }
  std::vector<ir::Output> outs;
  for (const ir::Output& o : src.outputs()) outs.push_back({o.name, map[o.node]});
  out.set_outputs(std::move(outs));
  return map;
}

Graph rebuild(const Graph& src, const NodeFn& fn) {
  Graph out(src.name());
  rebuild_into(src, out, fn);
  return out;
}

std::optional<double> RuleContext::splat(NodeId id) const {
  const Node& n = g.node(id);
  if (n.is_splat()) return n.attrs.value;
  return std::nullopt;
}

void RuleContext::extend(NodeId id) {
  // Operands precede users, so one forward sweep up to `id` settles every fact.
  while (facts_.size() <= id) {
    const Node& n = g.node(static_cast<NodeId>(facts_.size()));
    uint8_t f = 0;
    if (n.op == Op::Param) f = 3;
    else if (n.op == Op::Const) f = 1;
    else if (n.op != Op::Input) {
      f = 1;
      for (NodeId o : n.operands) f = static_cast<uint8_t>((f & facts_[o] & 1) | ((f | facts_[o]) & 2));
    }
    if (!(f & 1)) f = 0;
    facts_.push_back(f);
  }
}

bool RuleContext::is_static(NodeId id) {
  extend(id);
  return facts_[id] & 1;
}

void RuleContext::note_uses(NodeId id, uint32_t n) {
  if (uses_.size() <= id) uses_.resize(id + 1, 0);
  uses_[id] += n;
}

bool RuleContext::reads_param(NodeId id) {
  extend(id);
  return facts_[id] & 2;
}

namespace {

// Offers node `id` to the rules of its op until none matches; returns the final id.
NodeId rewrite_node(RuleContext& ctx, const std::vector<std::vector<const Rule*>>& by_op,
                    NodeId id, PassStats& stats, const FixpointLimits& limits, int64_t& fired) {
  for (int chain = 0; chain < limits.max_chain; ++chain) {
    const Node n = ctx.g.node(id);
    NodeId r = ir::kNoNode;
    for (const Rule* rule : by_op[static_cast<size_t>(n.op)]) {
      r = rule->apply(ctx, n, id);
      if (r != ir::kNoNode && r != id) {
        stats.count(rule->name);
        ++fired;
        break;
      }
      r = ir::kNoNode;
    }
    if (r == ir::kNoNode) return id;
    id = r;
  }
  stats.count("fixpoint-guard");
  return id;
}

}  // namespace

Graph run_rules(const Graph& g, std::span<const Rule> rules, PassStats& stats,
                const FixpointLimits& limits) {
  std::vector<std::vector<const Rule*>> by_op(ir::kNumOps);
  for (const Rule& r : rules)
    for (int op = 0; op < ir::kNumOps; ++op)
      if (!r.root || static_cast<int>(*r.root) == op) by_op[op].push_back(&r);
  Graph cur = rebuild(g);
  for (int sweep = 0; sweep < limits.max_sweeps; ++sweep) {
    Graph out(cur.name());
    RuleContext ctx(out);
    std::vector<uint32_t> uses(cur.size(), 0);
    for (NodeId id : ir::live_nodes(cur))
      for (NodeId o : cur.node(id).operands) ++uses[o];
    for (const ir::Output& o : cur.outputs()) ++uses[o.node];
    int64_t fired = 0;
    rebuild_into(cur, out, [&](Graph& o, const Node& n, NodeId old) {
      NodeId id = rewrite_node(ctx, by_op, add_node(o, n), stats, limits, fired);
      ctx.note_uses(id, uses[old]);
      return id;
    });
    if (fired == 0) return out;
    cur = rebuild(out);  // drop what the rules left dead
  }
  stats.count("fixpoint-guard");
  return cur;
}

}  // namespace inrarch::passes
