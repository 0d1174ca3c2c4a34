#pragma once

#include "passes/pass.h"

namespace inrarch::passes {

// Transpose simplification:
//   transpose(transpose(x)) -> x                        ("transpose-transpose")
//   transpose(splat c)      -> splat c, swapped shape   ("transpose-splat")
//   transpose(mm(a, b))     -> mm(T b, T a) when both T's cancel or land on static values
//                                                        ("transpose-mm")
// One transpose per value is guaranteed by hash-consing (two transposes of x are one node).
// Transposes of params and dense constants are folded by fold_params / const_fold.
ir::Graph transpose_simplify(const ir::Graph& g, PassContext& ctx);

}  // namespace inrarch::passes
