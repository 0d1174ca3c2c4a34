// Which mms lowering makes batch reductions (docs/dataflow.md §2, "mm_reduce"): an mm whose
// A is the transpose of a streamed [R,K] value x and whose B is a streamed [R,N] value y,
// i.e. C[K,N] = xᵀ·y = Σ_r x[r,:]ᵀ y[r,:], the inner dimension being the rows. A weight
// gradient (δᵀ·h) has this form. Lowered as an mm, the transpose holds all of x (a full
// buffer) and the mm all of y before the first product; lowered as one mm_reduce kernel,
// both stream by rows into K·N accumulators and C is written once after the last row.
#pragma once

#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "ir/graph.h"

namespace inrarch::dataflow {

struct RowReductions {
  // mm node -> the value its A reads instead of the transposing node.
  std::unordered_map<ir::NodeId, ir::NodeId> a_of;
  // The transposing nodes no kernel computes (every consumer is such an mm).
  std::unordered_set<ir::NodeId> absorbed;
};

// A transposing node t is transpose(x), permute(x, [1, 0]) or reshape of an [R,1] x to
// [1,R], with x streamed and [R,K]. It is absorbed when it is no output, every consumer is
// an mm reading it as A with a streamed B of R rows, and the K·N accumulators of each are
// at most the R·(K+N) elements the transpose and the mm's B buffer would hold. `st`: the
// static (input-free) nodes, which never stream.
RowReductions find_row_reductions(const ir::Graph& g, const std::vector<ir::NodeId>& live,
                                  const std::vector<bool>& st);

}  // namespace inrarch::dataflow
