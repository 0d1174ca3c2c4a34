// fold_params: find the frontier of static subexpressions that read a param (static nodes
// with a non-static user, or outputs), peel trailing expands, and replace each frontier
// node by a new param whose recipe is the subexpression copied into its own graph.
#include "passes/fold_params.h"

#include <algorithm>
#include <set>

#include <fmt/format.h>

#include "passes/rewriter.h"

namespace inrarch::passes {

namespace {

struct Folder {
  const Graph& src;
  PassContext& ctx;
  std::set<std::string> taken;  // param names in use

  std::string fresh_name(const std::string& base, bool is_transpose) {
    std::string name = is_transpose ? base + ".T" : "";
    for (int k = 1; name.empty() || taken.count(name); ++k) name = fmt::format("{}.f{}", base, k);
    taken.insert(name);
    return name;
  }

  // The recipe of `root`: its cone (params by name, consts by value), output "value".
  Graph recipe(NodeId root) {
    Graph r("param");
    std::vector<NodeId> map(src.size(), ir::kNoNode);
    for (NodeId id : cone(root)) {
      Node n = src.node(id);
      for (NodeId& o : n.operands) o = map[o];
      if (n.op == Op::Const && n.attrs.dense >= 0) n.attrs.dense = r.intern_tensor(src.tensor(n.attrs.dense));
      map[id] = add_node(r, n);
    }
    r.add_output("value", map[root]);
    return r;
  }

  // The cone of `root` in increasing id order (operands first).
  std::vector<NodeId> cone(NodeId root) const {
    std::vector<NodeId> stack{root}, order;
    std::vector<char> seen(src.size(), 0);
    while (!stack.empty()) {
      const NodeId id = stack.back();
      stack.pop_back();
      if (seen[id]) continue;
      seen[id] = 1;
      order.push_back(id);
      for (NodeId o : src.node(id).operands) stack.push_back(o);
    }
    std::sort(order.begin(), order.end());
    return order;
  }

  std::string first_param(NodeId root) const {
    for (NodeId id : cone(root))
      if (src.op(id) == Op::Param) return src.node(id).attrs.name;
    return "param";
  }

  NodeId fold(Graph& out, NodeId root_src) {
    const Node& n = src.node(root_src);
    const bool is_t = n.op == Op::Transpose && src.op(n.operands[0]) == Op::Param;
    ParamTransform t{fresh_name(first_param(root_src), is_t), recipe(root_src)};
    ctx.stats.count(is_t ? "fold-transpose" : "fold-param-expr");
    NodeId p = out.param(t.name, n.shape);
    ctx.new_params.push_back(std::move(t));
    return p;
  }
};

}  // namespace

ir::Graph fold_params(const ir::Graph& g, PassContext& ctx) {
  Graph src = rebuild(g);  // dense, live only
  RuleContext facts(src);  // only reads src here
  Folder f{src, ctx, {}};
  for (const Node& n : src.nodes())
    if (n.op == Op::Param) f.taken.insert(n.attrs.name);
  for (const ParamTransform& t : ctx.new_params) f.taken.insert(t.name);

  // Frontier: static nodes that read a param and are used by a non-static node or output.
  std::vector<char> frontier(src.size(), 0);
  for (NodeId id = 0; id < src.size(); ++id)
    if (!facts.is_static(id))
      for (NodeId o : src.node(id).operands) frontier[o] = 1;
  for (const ir::Output& o : src.outputs()) frontier[o.node] = 1;
  // Peel expands: a broadcast stays an op; its (smaller) operand is what gets folded.
  for (NodeId id = static_cast<NodeId>(src.size()); id-- > 0;)
    if (frontier[id] && facts.is_static(id) && src.op(id) == Op::Expand) frontier[src.node(id).operands[0]] = 1;

  Graph out = rebuild(src, [&](Graph& o, const Node& n, NodeId old) {
    const bool fold = frontier[old] && facts.is_static(old) && facts.reads_param(old) &&
                      !ir::is_leaf(n.op) && n.op != Op::Expand;
    return fold ? f.fold(o, old) : ir::kNoNode;
  });
  return rebuild(out);  // the folded cones' leaves (old params) are dead now
}

}  // namespace inrarch::passes
