// Constant folding: one rebuild in topological order, so a folded operand is already a
// constant when its user is visited and whole constant subtrees fold in one pass.
#include "passes/const_fold.h"

#include "passes/const_eval.h"
#include "passes/rewriter.h"

namespace inrarch::passes {

ir::Graph const_fold(const ir::Graph& g, PassContext& ctx) {
  Graph out = rebuild(g, [&](Graph& o, const Node& n, NodeId) {
    if (n.op == Op::Const) {
      if (n.attrs.dense < 0) return ir::kNoNode;
      const NodeId c = make_const(o, o.tensor(n.attrs.dense));
      if (o.op(c) == Op::Const && !o.node(c).is_splat()) return c;
      ctx.stats.count("canonical-const");
      return c;
    }
    const NodeId f = fold_constant(o, n);
    if (f != ir::kNoNode) ctx.stats.count("fold");
    return f;
  });
  return rebuild(out);  // folding leaves the constant operands dead
}

}  // namespace inrarch::passes
