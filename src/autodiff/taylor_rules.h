// The per-op Taylor rule table behind taylor() (internal to src/autodiff; docs/taylor.md).
#pragma once

#include <vector>

#include "autodiff/multi_index.h"
#include "ir/graph.h"

namespace inrarch::autodiff {

// Normalized coefficients by multi-index (MultiIndexSet order), each shaped like the node;
// ir::kNoNode is a coefficient that is identically zero.
using Jet = std::vector<ir::NodeId>;

// The jets of the nodes swept so far. A node with no jet (it does not depend on x) is a
// constant of x: its coefficient 0 is the node, the rest are zero.
struct JetTable {
  ir::Graph& g;
  const MultiIndexSet& mi;
  ir::NodeId wrt;
  std::vector<Jet> jets;  // by node id; empty: constant in x

  ir::NodeId coef(ir::NodeId node, size_t alpha) const {
    const Jet& j = jets[node];
    return j.empty() ? (alpha == 0 ? node : ir::kNoNode) : j[alpha];
  }
  bool constant_in_x(ir::NodeId node) const { return jets[node].empty(); }
};

// The jet of node `id`, whose operands' jets are in `t`. Appends the nodes it needs to t.g.
Jet taylor_rule(JetTable& t, ir::NodeId id);

}  // namespace inrarch::autodiff
