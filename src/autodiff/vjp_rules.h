// The per-op VJP rule table behind grad() (internal to src/autodiff).
#pragma once

#include "autodiff/grad.h"

namespace inrarch::autodiff {

// Appends the nodes of operand `operand`'s share of the adjoint of node `id`, given that
// node's adjoint `adj` (shape of `id`), and returns it (shape of the operand).
NodeId vjp(Graph& g, NodeId id, size_t operand, NodeId adj);

}  // namespace inrarch::autodiff
