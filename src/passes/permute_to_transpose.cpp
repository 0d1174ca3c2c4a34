// permute -> transpose: a single rebuild; only permutes are looked at.
#include "passes/permute_to_transpose.h"

#include "passes/rewriter.h"

namespace inrarch::passes {

ir::Graph permute_to_transpose(const ir::Graph& g, PassContext& ctx) {
  return rebuild(g, [&](Graph& out, const Node& n, NodeId) {
    if (n.op != Op::Permute) return ir::kNoNode;
    const auto& p = n.attrs.perm;
    bool identity = true;
    for (size_t i = 0; i < p.size(); ++i) identity = identity && p[i] == static_cast<int64_t>(i);
    if (identity) {
      ctx.stats.count("identity-permute");
      return n.operands[0];
    }
    if (p.size() == 2) {  // the only non-identity 2-D permutation is the swap
      ctx.stats.count("permute-to-transpose");
      return out.transpose(n.operands[0]);
    }
    return ir::kNoNode;
  });
}

}  // namespace inrarch::passes
