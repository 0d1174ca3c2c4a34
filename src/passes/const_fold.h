#pragma once

#include "passes/pass.h"

namespace inrarch::passes {

// Constant folding: every op whose operands are all constants becomes a constant, in the
// canonical splat-aware form of const_eval.h (ops on splats stay splats; a folded tensor
// that is uniform along some dims becomes expand of a smaller dense constant). This covers
// the seeds of backward passes (ones_like, division by 189, the scatter of a select's
// cotangent into a one-hot column), transposes and mm of constants. Dense constants that
// are uniform are rewritten as splats. Results over kMaxFoldElements stay unfolded.
// Stats: "fold" (ops folded), "canonical-const" (dense constants re-expressed).
ir::Graph const_fold(const ir::Graph& g, PassContext& ctx);

}  // namespace inrarch::passes
