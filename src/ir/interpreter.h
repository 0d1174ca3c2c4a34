// The reference interpreter: evaluates a graph in double precision. It is the oracle for
// tests, the source of reference outputs and testbench golden data.
#pragma once

#include <functional>
#include <vector>

#include "ir/bundle.h"

namespace inrarch::ir {

// Values of the graph's outputs, in output order. Throws inrarch::Error when an input or
// param is missing or has the wrong shape.
std::vector<Tensor> evaluate(const Graph& g, const TensorMap& inputs, const TensorMap& params);

// Values of arbitrary nodes (for tests and debugging).
std::vector<Tensor> evaluate_nodes(const Graph& g, const std::vector<NodeId>& nodes,
                                   const TensorMap& inputs, const TensorMap& params);

// Calls visit(node, value) for every node in `nodes` as soon as it is evaluated, without
// keeping the values: memory stays near the live frontier however many nodes are visited
// (e.g. value ranges of every stream over a large batch).
using VisitFn = std::function<void(NodeId, const Tensor&)>;
void evaluate_visit(const Graph& g, const std::vector<NodeId>& nodes, const TensorMap& inputs,
                    const TensorMap& params, const VisitFn& visit);
// The nodes that evaluating `nodes` needs, in id order, and for each node of g the highest
// of them that reads it (kNoNode: none): the order evaluate_visit runs in, freeing a value
// after its last use. Other evaluators over the graph (passes/value_bounds.h) share it.
struct LiveOrder {
  std::vector<NodeId> order;
  std::vector<NodeId> last_use;
};
LiveOrder live_order(const Graph& g, const std::vector<NodeId>& nodes);

// One node's value from its operands' values, by the interpreter's rule for its op (leaves
// read `inputs` / `params`).
Tensor evaluate_op(const Graph& g, NodeId id, const std::vector<const Tensor*>& operands,
                   const TensorMap& inputs = {}, const TensorMap& params = {});

// The signature of evaluate_visit, for callers that take another evaluator (e.g. one that
// goes through a large batch a block of rows at a time).
using VisitEvaluator = std::function<void(const Graph&, const std::vector<NodeId>&, const TensorMap&,
                                          const TensorMap&, const VisitFn&)>;

}  // namespace inrarch::ir
