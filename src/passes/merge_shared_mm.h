#pragma once

#include <cstdint>

#include "passes/pass.h"

namespace inrarch::passes {

// Merges matrix products that share a constant right operand (a weight) into one product
// over stacked rows, so the weight is held once instead of once per product.
//
// Nested reverse mode multiplies many different row streams by the same weight (INSP
// order 3 reads l1's backward weight in 27 products): each product is a kernel with its own
// ROM copy, 2 Mbit at width 256, and order 3 needs more ROM than the whole U50 has. Merged,
// mm(A_s, W) for s < m becomes
//     q = reshape(mm(reshape(cat([unsqueeze(A_s, 1)...], 1), [M*m, K]), W), [M, m, N])
//     C_s = select(q, 1, s)
// whose stream order interleaves the operands row by row (row i of A_0, of A_1, ...), so
// the merged kernel serves them in turn and none waits for another's whole matrix. It costs
// throughput: the merged kernel writes the m products' beats one at a time, so m is bounded
// by `max_group` (the caller weighs memory against cycles).
//
// Products are merged only when neither depends on the other (else the merged node would
// read its own result); candidates are taken in order of their mm depth (mm nodes on the
// longest path from an input) so that operands arriving at similar times go together.
// Stats: "merged-mm" (products merged away), "merge-groups".
ir::Graph merge_shared_mm(const ir::Graph& g, PassContext& ctx, int64_t max_group);

}  // namespace inrarch::passes
