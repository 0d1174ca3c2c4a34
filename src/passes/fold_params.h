#pragma once

#include "passes/pass.h"

namespace inrarch::passes {

// Folds static computations on weights into new weights.
//
// Params are compile-time values (they become on-chip ROM inside the consuming kernel), so
// any subexpression that reads params and constants but no input — transpose(W), 30*W^T,
// the row W[c,:]/189 that seeds a backward pass, diag(r)*W — is replaced by a new param.
// Trailing `expand`s are kept (only their operand is folded) so that a broadcast bias stays
// a [1,256] ROM instead of a [batch,256] one.
//
// Each new param comes with its recipe, appended to ctx.new_params (ParamTransform: the
// folded subexpression as a small IR graph over the old params). New names are derived
// from the first param read: "l0.weight.T" for a plain transpose, "l0.weight.f<k>"
// otherwise, never colliding with an existing param or transform.
// Stats: "fold-transpose", "fold-param-expr".
ir::Graph fold_params(const ir::Graph& g, PassContext& ctx);

}  // namespace inrarch::passes
