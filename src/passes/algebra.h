#pragma once

#include "passes/pass.h"

namespace inrarch::passes {

// Algebraic simplification: the declarative rule table in algebra.cpp (one line per rule,
// `// x*1 -> x` style), run to a fixpoint by run_rules (rewriter.h).
//
// Besides the identities (x*1, x+0, -(-x), x*0, x/c -> x*(1/c), ...), the table moves
// scalar factors and signs outward through elementwise ops, data movement and mm until
// they merge ((x*30)*30 -> x*900) or are absorbed by a static operand of an mm
// (mm(x*c, W) -> mm(x, W*c), later folded into one param by fold_params). That is what
// lets the SIREN chain-rule factors (30, -1, 1/189) and cos(z)*30 be shared across all
// derivative outputs instead of multiplied in per output. Broadcast rows that seed a
// backward pass are pulled through mm (mm(expand(r), W) -> expand(mm(r, W))) and row
// scalings are pushed into the weight (mm(x*expand(r), W) -> mm(x, diag(r) W)).
// Stats: one counter per rule name, plus "fixpoint-guard" if the loop guard stopped it.
ir::Graph algebra(const ir::Graph& g, PassContext& ctx);

}  // namespace inrarch::passes
