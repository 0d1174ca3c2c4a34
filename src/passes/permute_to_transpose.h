#pragma once

#include "passes/pass.h"

namespace inrarch::passes {

// The permutes and reshapes PyTorch records, simplified by a rule table (docs/optimizer.md):
// permute chains composed into one permute, identity permutes removed, permutes and
// transposes that move only size-1 dims made reshapes, chains of reshapes merged, and
// `permute {perm = [1,0]}` of a 2-D value made a `transpose` (the op every backend has a
// kernel for, and the form transpose_simplify and fold_params reason about). PyTorch's
// `W.permute(-1,-2)` and einsum's unsqueeze / permute / bmm chains arrive this way.
// Stats: "identity-permute", "permute-permute", "permute-as-reshape", "reshape-chain",
// "permute-through-reshape", "permute-to-transpose".
ir::Graph permute_to_transpose(const ir::Graph& g, PassContext& ctx);

}  // namespace inrarch::passes
