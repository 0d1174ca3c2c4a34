// The reference interpreter over a large batch, a block of rows at a time. Rows are
// independent (rebatch.h), so the graph at `block` rows evaluated on each block of the
// inputs gives each block of the outputs: memory is that of `block` rows however large the
// batch, and the blocks run on every core. A graph whose rows are not independent, or whose
// batch is at most one block, is evaluated whole (ir/interpreter.h).
#pragma once

#include <cstdint>
#include <vector>

#include "ir/interpreter.h"

namespace inrarch::passes {

inline constexpr int64_t kEvaluateBlockRows = 1024;

// Outputs, in output order, as ir::evaluate gives them.
std::vector<ir::Tensor> evaluate_in_rows(const ir::Graph& g, const ir::TensorMap& inputs,
                                         const ir::TensorMap& params,
                                         int64_t block = kEvaluateBlockRows);

// As ir::evaluate_visit, but visit(node, value) sees each block's value of the node, one
// call per block and node, from the worker threads: it must be safe to call concurrently
// (fold into a result under a lock, after the per-block work).
void visit_in_rows(const ir::Graph& g, const std::vector<ir::NodeId>& nodes,
                   const ir::TensorMap& inputs, const ir::TensorMap& params,
                   const ir::VisitFn& visit, int64_t block = kEvaluateBlockRows);

}  // namespace inrarch::passes
