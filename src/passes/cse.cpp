// CSE: one rebuild into a fresh hash-consed graph (see cse.h). Re-association only looks
// through single-use links, so it never duplicates a shared partial product.
#include "passes/cse.h"

#include <algorithm>

#include "passes/rewriter.h"

namespace inrarch::passes {

namespace {

struct CseState {
  const Graph& src;
  std::vector<uint32_t> uses;  // in src, outputs counted
  std::vector<NodeId> map;     // src -> out
};

// Leaves of the maximal single-use chain of `op` rooted at src node `id`.
void flatten(const CseState& s, NodeId id, Op op, std::vector<NodeId>& leaves, bool root) {
  const Node& n = s.src.node(id);
  if (n.op == op && (root || s.uses[id] == 1)) {
    for (NodeId o : n.operands) flatten(s, o, op, leaves, false);
    return;
  }
  leaves.push_back(id);
}

NodeId reassociate(CseState& s, Graph& out, NodeId old) {
  const Op op = s.src.op(old);
  std::vector<NodeId> leaves;
  flatten(s, old, op, leaves, true);
  if (leaves.size() <= 2) return ir::kNoNode;
  std::vector<NodeId> mapped;
  for (NodeId l : leaves) mapped.push_back(s.map[l]);
  // Splats last so scalar factors stay outermost, where the algebraic rules look for them.
  std::sort(mapped.begin(), mapped.end(), [&](NodeId a, NodeId b) {
    const bool sa = out.node(a).is_splat(), sb = out.node(b).is_splat();
    return sa != sb ? sb : a < b;
  });
  NodeId acc = mapped[0];
  for (size_t i = 1; i < mapped.size(); ++i) acc = out.binary(op, acc, mapped[i]);
  return acc;
}

bool is_identity(const Graph& out, const Node& n) {
  if (n.op == Op::Reshape || n.op == Op::Expand) return out.shape(n.operands[0]) == n.shape;
  if (n.op != Op::Permute) return false;
  for (size_t i = 0; i < n.attrs.perm.size(); ++i)
    if (n.attrs.perm[i] != static_cast<int64_t>(i)) return false;
  return true;
}

}  // namespace

ir::Graph cse(const ir::Graph& g, PassContext& ctx) {
  CseState s{g, std::vector<uint32_t>(g.size(), 0), std::vector<NodeId>(g.size(), ir::kNoNode)};
  for (NodeId id : ir::live_nodes(g))
    for (NodeId o : g.node(id).operands) ++s.uses[o];
  for (const ir::Output& o : g.outputs()) ++s.uses[o.node];
  Graph out(g.name());
  rebuild_into(g, out, [&](Graph& o, const Node& n, NodeId old) {
    NodeId id = ir::kNoNode;
    if (is_identity(o, n)) {
      id = n.operands[0];
      ctx.stats.count("identity");
    } else if (n.op == Op::Add || n.op == Op::Mul) {
      const size_t before = o.size();
      id = reassociate(s, o, old);
      if (id != ir::kNoNode) {
        auto have = o.node(id).operands, want = n.operands;
        std::sort(have.begin(), have.end());
        std::sort(want.begin(), want.end());
        if (o.node(id).op != n.op || have != want) ctx.stats.count("reassociate");
        else if (id < before) ctx.stats.count("merged");
      }
    }
    if (id == ir::kNoNode) {
      const size_t before = o.size();
      id = add_node(o, n);
      if (id < before) ctx.stats.count("merged");
    }
    return s.map[old] = id;
  });
  return rebuild(out);  // re-association can leave inner links dead
}

}  // namespace inrarch::passes
