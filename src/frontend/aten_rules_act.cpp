// Builders for activation functions and the backward ops autograd records for them, as
// decompositions into IR ops (the IR has no sigmoid, softplus, silu, gelu, elu, leaky relu).
// Each keeps exp's argument <= 0, so a fixed-point exp never overflows and float64 never
// makes an inf that a mask would multiply by 0 (docs/pytorch.md "Decompositions").
#include <cmath>

#include <fmt/format.h>

#include "frontend/aten_builders.h"

namespace inrarch::frontend::rules {

using ir::Op;

namespace {

NodeId one_like(const AtenCtx& c, NodeId x) { return c.g.constant(1.0, c.g.shape(x)); }

// exp(-|x|), in (0, 1].
NodeId exp_neg_abs(const AtenCtx& c, NodeId x) { return c.un(Op::Exp, c.un(Op::Neg, abs_of(c, x))); }

// g * (m + (1 - m) * v): the derivative of a piecewise function with slope 1 where m.
NodeId masked_slope(const AtenCtx& c, NodeId g, NodeId m, NodeId v) {
  return c.bin(Op::Mul, g, select_mask(c, m, one_like(c, m), v));
}

}  // namespace

// sigmoid = (e + p (1 - e)) / (1 + e), e = exp(-|x|), p = step(x): 1/(1 + e^-x) for x > 0,
// e^x/(1 + e^x) otherwise.
NodeId sigmoid_of(const AtenCtx& c, NodeId x) {
  NodeId e = exp_neg_abs(c, x), one = one_like(c, x);
  NodeId num = c.bin(Op::Add, e, c.bin(Op::Mul, c.un(Op::Step, x), c.bin(Op::Sub, one, e)));
  return c.bin(Op::Div, num, c.bin(Op::Add, one, e));
}

NodeId sigmoid(const AtenCtx& c) { return sigmoid_of(c, c.tensor(0)); }

// PyTorch: x where beta x > threshold, else log(1 + exp(beta x)) / beta, here
// relu(beta x)/beta + log(1 + exp(-|beta x|))/beta (the same value, no overflow).
NodeId softplus(const AtenCtx& c) {
  const double beta = c.scalar(1, "beta", 1.0), thr = c.scalar(2, "threshold", 20.0);
  NodeId x = c.tensor(0), bx = scale(c, x, beta);
  NodeId soft = c.bin(Op::Add, c.un(Op::Relu, bx), c.un(Op::Log, c.bin(Op::Add, c.splat(1.0), exp_neg_abs(c, bx))));
  NodeId over = c.un(Op::Step, c.bin(Op::Sub, bx, c.splat(thr)));
  return select_mask(c, over, x, scale(c, soft, 1.0 / beta));
}

NodeId softplus_backward(const AtenCtx& c) {  // grad * (beta x > threshold ? 1 : sigmoid(beta x))
  const double beta = c.scalar(2, "beta", 1.0), thr = c.scalar(3, "threshold", 20.0);
  NodeId bx = scale(c, c.operand(1, "self"), beta);
  NodeId over = c.un(Op::Step, c.bin(Op::Sub, bx, c.splat(thr)));
  return masked_slope(c, c.operand(0), over, sigmoid_of(c, bx));
}

NodeId silu(const AtenCtx& c) {
  NodeId x = c.tensor(0);
  return c.bin(Op::Mul, x, sigmoid_of(c, x));
}

NodeId silu_backward(const AtenCtx& c) {  // grad * s (1 + x (1 - s)), s = sigmoid(x)
  NodeId x = c.operand(1, "self"), s = sigmoid_of(c, x), one = c.splat(1.0);
  NodeId d = c.bin(Op::Mul, s, c.bin(Op::Add, one, c.bin(Op::Mul, x, c.bin(Op::Sub, one, s))));
  return c.bin(Op::Mul, c.operand(0), d);
}

namespace {

constexpr double kGeluKappa = 0.044715;
const double kGeluBeta = std::sqrt(2.0 / M_PI);

void need_tanh_gelu(const AtenCtx& c, size_t arg) {
  const nlohmann::json* a = c.arg(arg, "approximate");
  if (!a || (a->is_string() && a->get<std::string>() == "none"))
    c.fail("gelu with the exact erf form is not supported (the IR has no erf); use "
           "approximate='tanh' (nn.GELU(approximate='tanh'))");
  if (!a->is_string() || a->get<std::string>() != "tanh") c.fail(fmt::format("gelu approximate={} is not supported", a->dump()));
}

NodeId gelu_inner(const AtenCtx& c, NodeId x) {  // beta (x + kappa x^3)
  NodeId x3 = c.bin(Op::Mul, c.bin(Op::Mul, x, x), x);
  return scale(c, c.bin(Op::Add, x, scale(c, x3, kGeluKappa)), kGeluBeta);
}

}  // namespace

NodeId gelu(const AtenCtx& c) {  // 0.5 x (1 + tanh(beta (x + kappa x^3)))
  need_tanh_gelu(c, 1);
  NodeId x = c.tensor(0);
  return c.bin(Op::Mul, scale(c, x, 0.5), c.bin(Op::Add, c.splat(1.0), c.un(Op::Tanh, gelu_inner(c, x))));
}

// grad * (0.5 (1 + t) + 0.5 x (1 - t^2) beta (1 + 3 kappa x^2)), t = tanh(inner)
NodeId gelu_backward(const AtenCtx& c) {
  need_tanh_gelu(c, 2);
  NodeId x = c.operand(1, "self"), one = c.splat(1.0);
  NodeId t = c.un(Op::Tanh, gelu_inner(c, x));
  NodeId inner_d = scale(c, c.bin(Op::Add, one, scale(c, c.bin(Op::Mul, x, x), 3 * kGeluKappa)), kGeluBeta);
  NodeId right = c.bin(Op::Mul, c.bin(Op::Mul, scale(c, x, 0.5), c.bin(Op::Sub, one, c.bin(Op::Mul, t, t))), inner_d);
  NodeId d = c.bin(Op::Add, scale(c, c.bin(Op::Add, one, t), 0.5), right);
  return c.bin(Op::Mul, c.operand(0), d);
}

// elu(x, alpha, scale, input_scale) = scale relu(x) + scale alpha (exp(-relu(-x) input_scale) - 1)
NodeId elu(const AtenCtx& c) {
  const double alpha = c.scalar(1, "alpha", 1.0), s = c.scalar(2, "scale", 1.0), is = c.scalar(3, "input_scale", 1.0);
  NodeId x = c.tensor(0);
  NodeId neg = c.bin(Op::Sub, c.un(Op::Exp, scale(c, c.un(Op::Neg, c.un(Op::Relu, c.un(Op::Neg, x))), is)), c.splat(1.0));
  return scale(c, c.bin(Op::Add, c.un(Op::Relu, x), scale(c, neg, alpha)), s);
}

// elu_backward(grad, alpha, scale, input_scale, is_result, self_or_result): grad * scale where
// positive, else grad * input_scale * (y + alpha scale) (from the result y) or
// grad * input_scale * alpha scale * exp(x input_scale) (from x).
NodeId elu_backward(const AtenCtx& c) {
  const double alpha = c.scalar(1, "alpha", 1.0), s = c.scalar(2, "scale", 1.0), is = c.scalar(3, "input_scale", 1.0);
  const bool is_result = c.boolean_or(4, "is_result", false);
  NodeId v = c.operand(5, "self_or_result"), p = c.un(Op::Step, v);
  NodeId slope = is_result ? scale(c, c.bin(Op::Add, v, c.splat(alpha * s)), is)
                           : scale(c, c.un(Op::Exp, scale(c, c.un(Op::Neg, c.un(Op::Relu, c.un(Op::Neg, v))), is)), is * alpha * s);
  return c.bin(Op::Mul, c.operand(0), select_mask(c, p, c.splat(s), slope));
}

NodeId leaky_relu(const AtenCtx& c) {  // relu(x) - slope relu(-x)
  const double k = c.scalar(1, "negative_slope", 0.01);
  NodeId x = c.tensor(0);
  return c.bin(Op::Sub, c.un(Op::Relu, x), scale(c, c.un(Op::Relu, c.un(Op::Neg, x)), k));
}

NodeId leaky_relu_backward(const AtenCtx& c) {  // grad * (x > 0 ? 1 : slope)
  const double k = c.scalar(2, "negative_slope", 0.01);
  NodeId p = c.un(Op::Step, c.operand(1, "self"));
  return masked_slope(c, c.operand(0), p, c.splat(k));
}

}  // namespace inrarch::frontend::rules
