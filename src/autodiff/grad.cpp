// Reverse-mode autodiff. Operands have smaller ids than their users, so the nodes that can
// lie on a path wrt -> y all have ids in [wrt, y]: one forward sweep over that range marks
// the nodes that depend on wrt, and one backward sweep from y hands adjoints to exactly the
// operands that depend on wrt (anything else would contribute zero). Adjoints meeting at a
// node are accumulated with add. The new nodes land above y, so the sweeps never see them.
#include "autodiff/grad.h"

#include <fmt/format.h>

#include "autodiff/dependence.h"
#include "autodiff/vjp_rules.h"
#include "support/error.h"

namespace inrarch::autodiff {

namespace {

void check_node(const Graph& g, NodeId id, const char* what) {
  if (id >= g.size()) throw Error(fmt::format("grad: {} node %{} does not exist", what, id));
}

}  // namespace

NodeId grad(Graph& g, NodeId y, NodeId wrt, NodeId seed) {
  check_node(g, y, "y");
  check_node(g, wrt, "wrt");
  check_node(g, seed, "seed");
  if (g.shape(seed) != g.shape(y))
    throw Error(fmt::format("grad: seed has shape {}, y has {}", shape_str(g.shape(seed)),
                            shape_str(g.shape(y))));
  const Shape wrt_shape = g.shape(wrt);
  if (wrt > y) return g.constant(0.0, wrt_shape);  // y was built before wrt existed
  const std::vector<char> dep = depends_on(g, y, wrt);
  if (!dep[y - wrt]) return g.constant(0.0, wrt_shape);

  std::vector<NodeId> adj(y - wrt + 1, ir::kNoNode);
  adj[y - wrt] = seed;
  for (NodeId i = y; i > wrt; --i) {
    if (adj[i - wrt] == ir::kNoNode) continue;  // not on a path from y
    const std::vector<NodeId> operands = g.node(i).operands;  // copy: g grows below
    for (size_t k = 0; k < operands.size(); ++k) {
      const NodeId o = operands[k];
      if (o < wrt || !dep[o - wrt]) continue;
      const NodeId c = vjp(g, i, k, adj[i - wrt]);
      NodeId& a = adj[o - wrt];
      a = a == ir::kNoNode ? c : g.binary(ir::Op::Add, a, c);
    }
  }
  return adj[0];
}

}  // namespace inrarch::autodiff
