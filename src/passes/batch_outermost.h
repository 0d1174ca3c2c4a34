#pragma once

#include "passes/pass.h"

namespace inrarch::passes {

// Leading size-1 dims before the batch, as in the `[1, N, d]` coordinates of SIREN's code,
// taken out of the whole graph, so that its rows are dim 0 as passes::graph_rows needs
// (docs/dataflow.md §7) and the design is the one of the `[N, d]` layout.
//
// When every input is [1,…,1, N, …] with the same k >= 1 leading ones and N >= 2, each
// becomes [N, …] read through a reshape that puts the ones back ("lead reshape"); the rules
// below move lead reshapes towards the outputs through elementwise ops, selects, slices,
// sums, cats and unsqueezes (a static operand is reshaped to match, a broadcast bias stays
// an expand of one row), where they meet the reshapes PyTorch puts before each product and
// cancel (permute-to-transpose's reshape-chain). An output [1,…,1, N·f, …] becomes
// [N·f, …]: the same values in the same order (optimize_bundle reshapes the bundle's inputs
// and reference outputs alike). Other graphs are returned unchanged.
// Stats: "batch-outermost" (inputs), "sink-lead-reshape".
ir::Graph batch_outermost(const ir::Graph& g, PassContext& ctx);

}  // namespace inrarch::passes
