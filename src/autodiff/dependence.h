// Which nodes depend on a given node (internal to src/autodiff): shared by the reverse and
// the Taylor sweeps, which both visit only the nodes on a path from wrt.
#pragma once

#include <vector>

#include "ir/graph.h"

namespace inrarch::autodiff {

// depends[i - wrt] for i in [wrt, top]: node i is wrt or has an operand that depends on wrt.
// Operands have smaller ids than their users, so nothing below wrt can depend on it.
inline std::vector<char> depends_on(const ir::Graph& g, ir::NodeId top, ir::NodeId wrt) {
  std::vector<char> dep(top - wrt + 1, 0);
  dep[0] = 1;
  for (ir::NodeId i = wrt + 1; i <= top; ++i)
    for (ir::NodeId o : g.node(i).operands)
      if (o >= wrt && dep[o - wrt]) {
        dep[i - wrt] = 1;
        break;
      }
  return dep;
}

}  // namespace inrarch::autodiff
