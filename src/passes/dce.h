#pragma once

#include "passes/pass.h"

namespace inrarch::passes {

// Dead-code elimination: keeps only nodes reachable from the outputs (renumbered densely,
// in order) and the dense constants they use. Stats: "removed" (dead nodes dropped).
ir::Graph dce(const ir::Graph& g, PassContext& ctx);

}  // namespace inrarch::passes
