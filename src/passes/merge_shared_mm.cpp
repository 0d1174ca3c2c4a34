#include "passes/merge_shared_mm.h"

#include <algorithm>
#include <map>
#include <unordered_map>

#include "passes/rewriter.h"

namespace inrarch::passes {

namespace {

using Group = std::vector<NodeId>;

// mm nodes on the longest path from an input, per node.
std::vector<int> mm_depth(const Graph& g, const std::vector<NodeId>& live) {
  std::vector<int> depth(g.size(), 0);
  for (NodeId v : live) {
    int d = 0;
    for (NodeId o : g.node(v).operands) d = std::max(d, depth[o]);
    depth[v] = d + (g.op(v) == Op::Mm ? 1 : 0);
  }
  return depth;
}

// Splits the products of one weight into groups of pairwise independent products, at most
// `max_group` each, in depth order. Dependence: bit i of reach[v] says product i is below v.
std::vector<Group> group_users(const Graph& g, const std::vector<NodeId>& live, Group users,
                               const std::vector<int>& depth, int64_t max_group) {
  std::stable_sort(users.begin(), users.end(), [&](NodeId a, NodeId b) { return depth[a] < depth[b]; });
  if (users.size() > 64) users.resize(64);  // the reach masks are 64 bits wide
  std::unordered_map<NodeId, uint64_t> reach;
  std::unordered_map<NodeId, int> index;
  for (size_t i = 0; i < users.size(); ++i) index[users[i]] = static_cast<int>(i);
  for (NodeId v : live) {
    uint64_t m = 0;
    for (NodeId o : g.node(v).operands)
      if (auto it = reach.find(o); it != reach.end()) m |= it->second;
    if (auto it = index.find(v); it != index.end()) m |= uint64_t(1) << it->second;
    if (m) reach[v] = m;
  }
  std::vector<Group> groups;
  uint64_t members = 0;  // bits of the open group
  for (size_t i = 0; i < users.size(); ++i) {
    const uint64_t below_i = reach[users[i]] & ~(uint64_t(1) << i);  // products it depends on
    bool independent = (below_i & members) == 0;
    for (size_t j = 0; independent && j < i; ++j)
      if ((members >> j & 1) && (reach[users[j]] >> i & 1)) independent = false;
    if (groups.empty() || !independent || static_cast<int64_t>(groups.back().size()) >= max_group) {
      groups.emplace_back();
      members = 0;
    }
    groups.back().push_back(users[i]);
    members |= uint64_t(1) << i;
  }
  return groups;
}

// True when contracting every group in `rep` (member -> the group's first product) to one
// node leaves the graph acyclic (Kahn's algorithm on the contracted graph). Groups are
// independent inside, but two groups can still need each other's results.
bool acyclic(const Graph& g, const std::vector<NodeId>& live,
             const std::unordered_map<NodeId, NodeId>& rep) {
  auto r = [&](NodeId v) { auto it = rep.find(v); return it == rep.end() ? v : it->second; };
  std::unordered_map<NodeId, int> indegree;
  std::unordered_map<NodeId, std::vector<NodeId>> succ;
  for (NodeId v : live) {
    indegree.emplace(r(v), 0);
    for (NodeId o : g.node(v).operands)
      if (r(o) != r(v)) succ[r(o)].push_back(r(v)), ++indegree[r(v)];
  }
  std::vector<NodeId> ready;
  for (const auto& [v, d] : indegree)
    if (d == 0) ready.push_back(v);
  size_t done = 0;
  while (!ready.empty()) {
    NodeId v = ready.back();
    ready.pop_back();
    ++done;
    for (NodeId u : succ[v])
      if (--indegree[u] == 0) ready.push_back(u);
  }
  return done == indegree.size();
}

// Groups of two or more products to merge, keyed by their first (lowest-id) product. A
// group that would close a cycle with the groups kept before it is left unmerged.
std::map<NodeId, Group> merge_groups(const Graph& g, int64_t max_group) {
  const std::vector<NodeId> live = ir::live_nodes(g);
  const std::vector<bool> st = ir::static_nodes(g, live);
  const std::vector<int> depth = mm_depth(g, live);
  std::map<std::pair<NodeId, ir::Shape>, Group> by_weight;  // (weight, A's shape) -> products
  for (NodeId v : live) {
    const Node& n = g.node(v);
    if (n.op == Op::Mm && st[n.operands[1]] && !st[n.operands[0]])
      by_weight[{n.operands[1], g.shape(n.operands[0])}].push_back(v);
  }
  std::map<NodeId, Group> out;
  std::unordered_map<NodeId, NodeId> rep;
  for (auto& [key, users] : by_weight) {
    if (users.size() < 2) continue;
    for (Group& grp : group_users(g, live, users, depth, max_group)) {
      if (grp.size() < 2) continue;
      NodeId first = *std::min_element(grp.begin(), grp.end());
      for (NodeId s : grp) rep[s] = first;
      if (acyclic(g, live, rep)) {
        out[first] = std::move(grp);
      } else {
        for (NodeId s : grp) rep.erase(s);
      }
    }
  }
  return out;
}

}  // namespace

namespace {

// Copies the graph in topological order; a group is emitted where its first product was,
// after the operands of all its products (the later ones' operands are pulled forward,
// which independence makes possible).
struct Merger {
  const Graph& g;
  const std::map<NodeId, Group>& groups;
  Graph out;
  std::vector<NodeId> map;
  std::unordered_map<NodeId, const Group*> group_of;

  NodeId emit(NodeId v) {
    if (map[v] != ir::kNoNode) return map[v];
    if (auto it = group_of.find(v); it != group_of.end()) {
      emit_group(*it->second);
      return map[v];
    }
    Node n = g.node(v);
    for (NodeId& o : n.operands) o = emit(o);
    if (n.op == Op::Const && n.attrs.dense >= 0) n.attrs.dense = out.intern_tensor(g.tensor(n.attrs.dense));
    return map[v] = add_node(out, n);
  }

  void emit_group(const Group& grp) {
    std::vector<NodeId> rows;
    for (NodeId s : grp) rows.push_back(out.unsqueeze(emit(g.node(s).operands[0]), 1));
    const NodeId w = emit(g.node(grp[0]).operands[1]);
    const ir::Shape& a = g.shape(g.node(grp[0]).operands[0]);
    const int64_t M = a.at(0), K = a.at(1), N = g.shape(grp[0]).at(1);
    const auto m = static_cast<int64_t>(grp.size());
    NodeId stacked = out.reshape(out.cat(rows, 1), {M * m, K});
    NodeId product = out.reshape(out.mm(stacked, w), {M, m, N});
    for (int64_t s = 0; s < m; ++s) map[grp[s]] = out.select(product, 1, s);
  }
};

}  // namespace

ir::Graph merge_shared_mm(const ir::Graph& g, PassContext& ctx, int64_t max_group) {
  if (max_group < 2) return rebuild(g);
  const std::map<NodeId, Group> groups = merge_groups(g, max_group);
  Merger mg{g, groups, Graph(g.name()), std::vector<NodeId>(g.size(), ir::kNoNode), {}};
  for (const auto& [first, grp] : groups) {
    for (NodeId s : grp) mg.group_of[s] = &grp;
    ctx.stats.count("merge-groups");
    ctx.stats.count("merged-mm", static_cast<int64_t>(grp.size()) - 1);
  }
  for (NodeId v : ir::live_nodes(g)) mg.emit(v);
  std::vector<ir::Output> outs;
  for (const ir::Output& o : g.outputs()) outs.push_back({o.name, mg.map[o.node]});
  mg.out.set_outputs(std::move(outs));
  return std::move(mg.out);
}

}  // namespace inrarch::passes
