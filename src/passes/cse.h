#pragma once

#include "passes/pass.h"

namespace inrarch::passes {

// Full structural common-subexpression elimination.
//
// Rebuilding into a hash-consed graph merges every pair of structurally equal nodes (same
// op, attributes, operands, shape; add/mul operands in canonical order). On top of that it
// canonicalizes what hash-consing alone cannot see:
//   - chains of one associative+commutative op (add, mul) whose inner links have no other
//     user are re-associated left-deep with operands sorted by id, splat constants last, so
//     (a*b)*c and (c*a)*b become one node;
//   - identity data movement (reshape/expand to the same shape, permute by the identity)
//     is replaced by its operand.
// Stats: "merged" (nodes equal to an earlier one), "reassociate", "identity".
ir::Graph cse(const ir::Graph& g, PassContext& ctx);

}  // namespace inrarch::passes
