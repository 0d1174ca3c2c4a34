// Reverse-mode autodiff on the IR.
#pragma once

#include "ir/graph.h"

namespace inrarch::autodiff {

using ir::Graph;
using ir::NodeId;

// Appends to `g` the nodes of d(sum(seed * y)) / d(wrt) and returns that node (shape of
// `wrt`). `seed` has the shape of `y`. Built from the per-op VJP rule table; the result is
// ordinary IR, so the n-th derivative is n applications. If y does not depend on wrt the
// result is a zero constant.
NodeId grad(Graph& g, NodeId y, NodeId wrt, NodeId seed);

}  // namespace inrarch::autodiff
