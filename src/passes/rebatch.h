#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "ir/bundle.h"

namespace inrarch::passes {

// Re-instantiates a graph at another number of rows (samples), so that a dataflow design
// can be analysed on a prefix of k rows without importing the model again.
//
// An INR graph evaluates a batch of B independent samples: every input has B as dim 0. A
// node is batched ("rows") when its elements, in row-major order, are grouped by sample:
// shape[0] == B*f and sample i owns elements [i*R, (i+1)*R), R = numel/B. A batched graph
// stays correct at any B when no op mixes rows or moves the batch off the outermost
// position; ops.def rows each have a rule saying which (rebatch.cpp). Params and constants
// are not batched, except a "broadcast row": a constant subtree that holds one value for
// every row (a splat, an expand of a [1,...] value, elementwise ops of such) and meets rows
// elementwise, so it is resized with them.
//
// The rebatched graph keeps the ops, attributes, params, outputs and output names, and the
// order of the live nodes, so every node keeps its number among the live nodes (its id,
// when the source graph has no dead nodes, as every pass leaves it): the processes and
// streams of a design lowered from it are named from those numbers and match the design at
// the full batch name for name.

// The number of rows B of a graph whose values are row-independent and row-major (every
// input has B as dim 0 and no op mixes rows or moves the batch off the outermost position),
// or std::nullopt with the reason in *why_not ("node %12 (transpose) moves the batch
// dimension of %11", "no input", "inputs disagree on the batch: x has 64, y has 32", ...).
// Only live nodes are considered. B must be at least 2: at B == 1 every size-1 dimension
// could be the batch. An output whose dim 0 is a multiple of B is taken as per-row (that is
// what first_rows cuts), so a fixed output of that size must be a broadcast row.
std::optional<int64_t> graph_rows(const ir::Graph& g, std::string* why_not = nullptr);

// The same graph at `rows` rows (>= 1): every batched or broadcast-row node's dim 0 scaled
// from B*f to rows*f (inputs, reshape/expand target shapes, splat constants), all else
// identical; dead nodes are dropped. Throws inrarch::Error when graph_rows fails, and when
// resizing makes a node equal to another one (hash-consing would then merge them and
// renumber the nodes after it). rebatch(g, graph_rows(g)) equals g when g has no dead nodes.
ir::Graph rebatch(const ir::Graph& g, int64_t rows);

// The first `rows` rows of every tensor in `m` whose dim 0 is a multiple of `batch` (inputs,
// reference outputs): [batch*f, ...] becomes [rows*f, ...] holding the first rows*f slices.
// Other tensors are copied unchanged. Throws inrarch::Error unless 1 <= rows <= batch.
ir::TensorMap first_rows(const ir::TensorMap& m, int64_t batch, int64_t rows);

// Rows [lo, hi) of the same tensors (0 <= lo < hi <= batch).
ir::TensorMap row_range(const ir::TensorMap& m, int64_t batch, int64_t lo, int64_t hi);

}  // namespace inrarch::passes
