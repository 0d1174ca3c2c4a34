// The builder functions the aten rule table (aten_rules.cpp) points to. Each maps one aten
// node to IR ops; the table says which aten names use which builder.
#pragma once

#include "frontend/aten_context.h"

namespace inrarch::frontend::rules {

using ir::NodeId;

// Shared pieces of decompositions (aten_rules_math.cpp, aten_rules_act.cpp).
NodeId scale(const AtenCtx& c, NodeId x, double k);                  // k x
NodeId abs_of(const AtenCtx& c, NodeId x);                           // relu(x) + relu(-x)
NodeId max_of(const AtenCtx& c, NodeId a, NodeId b);                 // b + relu(a - b)
NodeId min_of(const AtenCtx& c, NodeId a, NodeId b);                 // b - relu(b - a)
NodeId select_mask(const AtenCtx& c, NodeId m, NodeId a, NodeId b);  // m a + (1 - m) b
NodeId sigmoid_of(const AtenCtx& c, NodeId x);                       // exp of -|x| only
NodeId pow_of(const AtenCtx& c, NodeId x, double e);                 // x^e, e finite (as pow)

// aten_rules_math.cpp: elementwise, backward helpers, matmul, reductions
NodeId identity(const AtenCtx& c);
NodeId to_copy(const AtenCtx& c);
template <ir::Op O>
NodeId unary(const AtenCtx& c) { return c.un(O, c.tensor(0)); }
NodeId rsqrt(const AtenCtx& c);
NodeId cosh(const AtenCtx& c);
NodeId abs(const AtenCtx& c);
NodeId sgn(const AtenCtx& c);
NodeId clamp(const AtenCtx& c);
NodeId clamp_min(const AtenCtx& c);
NodeId clamp_max(const AtenCtx& c);
NodeId maximum(const AtenCtx& c);
NodeId minimum(const AtenCtx& c);
NodeId eq(const AtenCtx& c);
NodeId ne(const AtenCtx& c);
NodeId logical_and(const AtenCtx& c);
NodeId logical_or(const AtenCtx& c);
NodeId logical_not(const AtenCtx& c);
NodeId masked_fill(const AtenCtx& c);
NodeId reciprocal(const AtenCtx& c);
NodeId square(const AtenCtx& c);
NodeId add(const AtenCtx& c);
NodeId sub(const AtenCtx& c);
NodeId rsub(const AtenCtx& c);
NodeId mul(const AtenCtx& c);
NodeId div(const AtenCtx& c);
NodeId pow(const AtenCtx& c);
NodeId lt(const AtenCtx& c);
NodeId gt(const AtenCtx& c);
NodeId le(const AtenCtx& c);
NodeId ge(const AtenCtx& c);
NodeId where(const AtenCtx& c);
NodeId tanh_backward(const AtenCtx& c);
NodeId sigmoid_backward(const AtenCtx& c);
NodeId threshold_backward(const AtenCtx& c);
NodeId mm(const AtenCtx& c);
NodeId matmul(const AtenCtx& c);
NodeId addmm(const AtenCtx& c);
NodeId bmm(const AtenCtx& c);
NodeId sum(const AtenCtx& c);
NodeId mean(const AtenCtx& c);

// aten_rules_act.cpp: activations and their backward ops
NodeId sigmoid(const AtenCtx& c);
NodeId softplus(const AtenCtx& c);
NodeId softplus_backward(const AtenCtx& c);
NodeId silu(const AtenCtx& c);
NodeId silu_backward(const AtenCtx& c);
NodeId gelu(const AtenCtx& c);
NodeId gelu_backward(const AtenCtx& c);
NodeId erf(const AtenCtx& c);
NodeId elu(const AtenCtx& c);
NodeId elu_backward(const AtenCtx& c);
NodeId leaky_relu(const AtenCtx& c);
NodeId leaky_relu_backward(const AtenCtx& c);

// aten_rules_norm.cpp: vector norms of any order, max / min reductions, layer norm
NodeId norm(const AtenCtx& c);
NodeId linalg_vector_norm(const AtenCtx& c);
NodeId amax(const AtenCtx& c);
NodeId amin(const AtenCtx& c);
NodeId native_layer_norm(const AtenCtx& c);
NodeId native_layer_norm_backward(const AtenCtx& c);

// aten_rules_reduce.cpp: losses, the diagonal
NodeId mse_loss(const AtenCtx& c);
NodeId mse_loss_backward(const AtenCtx& c);
NodeId diagonal(const AtenCtx& c);
NodeId diagonal_backward(const AtenCtx& c);

// aten_rules_data.cpp: data movement, backward of indexing, factories
NodeId t(const AtenCtx& c);
NodeId transpose(const AtenCtx& c);
NodeId permute(const AtenCtx& c);
NodeId reshape(const AtenCtx& c);
NodeId unsqueeze(const AtenCtx& c);
NodeId squeeze(const AtenCtx& c);
NodeId expand(const AtenCtx& c);
NodeId repeat(const AtenCtx& c);
NodeId select(const AtenCtx& c);
NodeId slice(const AtenCtx& c);
NodeId cat(const AtenCtx& c);
NodeId stack(const AtenCtx& c);
NodeId select_backward(const AtenCtx& c);
NodeId slice_backward(const AtenCtx& c);
NodeId select_scatter(const AtenCtx& c);
NodeId slice_scatter(const AtenCtx& c);
NodeId copy(const AtenCtx& c);
NodeId zeros(const AtenCtx& c);
NodeId ones(const AtenCtx& c);
NodeId fill_arg1(const AtenCtx& c);
NodeId fill_arg2(const AtenCtx& c);
NodeId fill_arg0(const AtenCtx& c);

}  // namespace inrarch::frontend::rules
