#pragma once

#include "passes/pass.h"

namespace inrarch::passes {

// Rewrites `permute {perm = [1,0]}` of a 2-D value into `transpose` (the op every backend
// has a kernel for, and the form transpose_simplify and fold_params reason about), and an
// identity permute into its operand. PyTorch's `W.permute(-1,-2)` arrives this way.
// Stats: "permute-to-transpose", "identity-permute".
ir::Graph permute_to_transpose(const ir::Graph& g, PassContext& ctx);

}  // namespace inrarch::passes
