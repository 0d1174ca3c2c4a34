// The reference interpreter: evaluates a graph in double precision. It is the oracle for
// tests, the source of reference outputs and testbench golden data.
#pragma once

#include <vector>

#include "ir/bundle.h"

namespace inrarch::ir {

// Values of the graph's outputs, in output order. Throws inrarch::Error when an input or
// param is missing or has the wrong shape.
std::vector<Tensor> evaluate(const Graph& g, const TensorMap& inputs, const TensorMap& params);

// Values of arbitrary nodes (for tests and debugging).
std::vector<Tensor> evaluate_nodes(const Graph& g, const std::vector<NodeId>& nodes,
                                   const TensorMap& inputs, const TensorMap& params);

}  // namespace inrarch::ir
