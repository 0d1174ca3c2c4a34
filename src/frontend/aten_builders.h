// The builder functions the aten rule table (aten_rules.cpp) points to. Each maps one aten
// node to IR ops; the table says which aten names use which builder.
#pragma once

#include "frontend/aten_context.h"

namespace inrarch::frontend::rules {

using ir::NodeId;

// aten_rules_math.cpp: elementwise, backward helpers, matmul, reductions
NodeId identity(const AtenCtx& c);
NodeId to_copy(const AtenCtx& c);
template <ir::Op O>
NodeId unary(const AtenCtx& c) { return c.un(O, c.tensor(0)); }
NodeId sigmoid(const AtenCtx& c);
NodeId softplus(const AtenCtx& c);
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
NodeId softplus_backward(const AtenCtx& c);
NodeId mm(const AtenCtx& c);
NodeId matmul(const AtenCtx& c);
NodeId addmm(const AtenCtx& c);
NodeId bmm(const AtenCtx& c);
NodeId sum(const AtenCtx& c);
NodeId mean(const AtenCtx& c);

// aten_rules_data.cpp: data movement, backward of indexing, factories
NodeId t(const AtenCtx& c);
NodeId transpose(const AtenCtx& c);
NodeId permute(const AtenCtx& c);
NodeId reshape(const AtenCtx& c);
NodeId unsqueeze(const AtenCtx& c);
NodeId squeeze(const AtenCtx& c);
NodeId expand(const AtenCtx& c);
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
