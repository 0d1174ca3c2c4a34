// Finding the batch reductions lowering fuses (reduce_rows.h).
#include "dataflow/reduce_rows.h"

#include <algorithm>

namespace inrarch::dataflow {

namespace {

// The [R,K] value that a transposing node reads, or kNoNode when t transposes nothing 2-D.
ir::NodeId transposed_value(const ir::Graph& g, ir::NodeId t) {
  const ir::Node& n = g.node(t);
  if (n.operands.size() != 1) return ir::kNoNode;
  const ir::NodeId x = n.operands[0];
  const ir::Shape& xs = g.shape(x);
  if (xs.size() != 2 || n.shape != ir::Shape{xs[1], xs[0]}) return ir::kNoNode;
  switch (n.op) {
    case ir::Op::Transpose: return x;
    case ir::Op::Permute: return n.attrs.perm == std::vector<int64_t>{1, 0} ? x : ir::kNoNode;
    case ir::Op::Reshape: return xs[1] == 1 ? x : ir::kNoNode;  // a column read as a row
    default: return ir::kNoNode;
  }
}

}  // namespace

RowReductions find_row_reductions(const ir::Graph& g, const std::vector<ir::NodeId>& live,
                                  const std::vector<bool>& st) {
  std::unordered_map<ir::NodeId, std::vector<std::pair<ir::NodeId, size_t>>> uses;  // (consumer, slot)
  for (ir::NodeId v : live) {
    if (st[v]) continue;
    const auto& ops = g.node(v).operands;
    for (size_t k = 0; k < ops.size(); ++k) uses[ops[k]].push_back({v, k});
  }
  std::unordered_set<ir::NodeId> outputs;
  for (const auto& o : g.outputs()) outputs.insert(o.node);
  RowReductions r;
  for (ir::NodeId t : live) {
    if (st[t] || outputs.count(t) || !uses.count(t)) continue;
    const ir::NodeId x = transposed_value(g, t);
    if (x == ir::kNoNode || st[x]) continue;
    const int64_t R = g.shape(x)[0], K = g.shape(x)[1];
    const bool all = std::all_of(uses[t].begin(), uses[t].end(), [&](const auto& use) {
      const ir::Node& m = g.node(use.first);
      if (m.op != ir::Op::Mm || use.second != 0 || st[m.operands[1]]) return false;
      const ir::Shape& b = g.shape(m.operands[1]);
      return b.size() == 2 && b[0] == R && K * b[1] <= R * (K + b[1]);
    });
    if (!all) continue;
    r.absorbed.insert(t);
    for (const auto& use : uses[t]) r.a_of[use.first] = x;
  }
  return r;
}

}  // namespace inrarch::dataflow
