// Transpose simplification: a rebuild where each transpose looks at its (already
// simplified) operand; chains collapse in one pass because operands are rebuilt first.
#include "passes/transpose_simplify.h"

#include "passes/rewriter.h"

namespace inrarch::passes {

namespace {

// transpose(v) costs no node when v is a transpose (cancels) or static (folds into a param
// or constant later).
bool free_transpose(RuleContext& c, NodeId v) { return c.op(v) == Op::Transpose || c.is_static(v); }

NodeId simplify(RuleContext& c, const Node& n, PassStats& stats) {
  const NodeId x = n.operands[0];
  if (c.op(x) == Op::Transpose) {
    stats.count("transpose-transpose");
    return c.arg(x, 0);
  }
  if (c.g.node(x).is_splat()) {
    stats.count("transpose-splat");
    return c.g.constant(*c.splat(x), n.shape);
  }
  if (c.op(x) == Op::Mm && free_transpose(c, c.arg(x, 0)) && free_transpose(c, c.arg(x, 1))) {
    stats.count("transpose-mm");
    const NodeId a = c.arg(x, 0), b = c.arg(x, 1);
    auto t = [&](NodeId v) { return c.op(v) == Op::Transpose ? c.arg(v, 0) : c.g.transpose(v); };
    return c.g.mm(t(b), t(a));
  }
  return ir::kNoNode;
}

}  // namespace

ir::Graph transpose_simplify(const ir::Graph& g, PassContext& ctx) {
  Graph out(g.name());
  RuleContext c(out);
  rebuild_into(g, out, [&](Graph&, const Node& n, NodeId) {
    return n.op == Op::Transpose ? simplify(c, n, ctx.stats) : ir::kNoNode;
  });
  return rebuild(out);
}

}  // namespace inrarch::passes
