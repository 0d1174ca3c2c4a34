// Compile-time evaluation helpers shared by const_fold and the algebraic rules.
//
// Constants are kept in a canonical, splat-aware form so that folding never bloats the
// graph: a uniform tensor is a splat (`const 0.5 : [64,256]`), and a tensor that is
// uniform along some dimensions is `expand` of the smaller dense constant (the scaled
// one-hot rows that seed backward passes become `expand(const dense<[0,1/189,0]> : [1,3])`).
#pragma once

#include "ir/graph.h"
#include "ir/tensor.h"

namespace inrarch::passes {

// Dense results above this many elements are not folded (splats always are).
inline constexpr int64_t kMaxFoldElements = int64_t{1} << 22;

// A const, or an expand of a const: the canonical forms make_const produces.
bool is_const_like(const ir::Graph& g, ir::NodeId id);

// The value of a const-like node.
Tensor const_value(const ir::Graph& g, ir::NodeId id);

// Adds `t` to `g` in canonical form and returns its id.
ir::NodeId make_const(ir::Graph& g, const Tensor& t);

// If every operand of `n` (operands are ids of `g`) is const-like and `n` is not already
// canonical, adds the folded value and returns its id; kNoNode otherwise.
ir::NodeId fold_constant(ir::Graph& g, const ir::Node& n);

// Evaluates `n` on the given operand values with the reference interpreter.
Tensor eval_node(const ir::Node& n, const std::vector<Tensor>& operands);

}  // namespace inrarch::passes
