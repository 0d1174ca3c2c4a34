// Builders for activation functions and the backward ops autograd records for them, as
// decompositions into IR ops (the IR has no sigmoid, softplus, silu, gelu, erf, elu, leaky relu).
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

// approximate='none' (the default) or 'tanh'.
bool exact_gelu(const AtenCtx& c, size_t arg) {
  const nlohmann::json* a = c.arg(arg, "approximate");
  if (!a || (a->is_string() && a->get<std::string>() == "none")) return true;
  if (!a->is_string() || a->get<std::string>() != "tanh") c.fail(fmt::format("gelu approximate={} is not supported", a->dump()));
  return false;
}

NodeId gelu_inner(const AtenCtx& c, NodeId x) {  // beta (x + kappa x^3)
  NodeId x3 = c.bin(Op::Mul, c.bin(Op::Mul, x, x), x);
  return scale(c, c.bin(Op::Add, x, scale(c, x3, kGeluKappa)), kGeluBeta);
}

// erfc(z) = exp(-z^2) g(t), t = 2 / (2 + z), for z >= 0: g is smooth on t in [0.25, 1] (z in
// [0, 6]) and is a degree-16 polynomial in u = (8 t - 5) / 3 in [-1, 1] there (Chebyshev
// interpolation, in monomial form: the coefficients stay below 0.43). z is clamped to 6,
// where erfc(6) < 3e-17. Every intermediate is bounded (t, u, g in [-1, 1], exp's argument in
// [-36, 0]), as a fixed-point design needs; the error is in docs/pytorch.md "erf".
constexpr double kErfcPoly[] = {
    0.37853741692923742,     0.42218758361344405,     0.16940759095489877,    0.032993429478231057,
    -0.0016702444160232068,  -0.0016653643734096421,  0.00013358438853154387, 0.00010054194764313037,
    -2.2700771525558802e-05, -4.2712842149980773e-06, 2.8398818819689904e-06, -2.8208035018906235e-07,
    -2.0125881907434257e-07, 8.6377574060701211e-08,  -3.7676085519385238e-09, -7.5791938476921886e-09,
    1.9596935838789623e-09};
constexpr double kErfcClamp = 6.0;

NodeId erfc_of_nonneg(const AtenCtx& c, NodeId z) {
  z = min_of(c, z, c.g.constant(kErfcClamp, c.g.shape(z)));
  const Shape s = c.g.shape(z);  // a copy: adding nodes moves the graph's shapes
  NodeId t = c.bin(Op::Div, c.g.constant(2.0, s), c.bin(Op::Add, c.g.constant(2.0, s), z));
  NodeId u = c.bin(Op::Sub, scale(c, t, 8.0 / 3.0), c.g.constant(5.0 / 3.0, s));
  const auto n = static_cast<int>(std::size(kErfcPoly));
  NodeId p = c.g.constant(kErfcPoly[n - 1], s);
  for (int k = n - 2; k >= 0; --k) p = c.bin(Op::Add, c.bin(Op::Mul, p, u), c.g.constant(kErfcPoly[k], s));
  return c.bin(Op::Mul, c.un(Op::Exp, c.un(Op::Neg, c.bin(Op::Mul, z, z))), p);
}

// 0.5 x (1 + erf(x / sqrt 2)) = relu(x) - 0.5 |x| erfc(|x| / sqrt 2).
NodeId exact_gelu_of(const AtenCtx& c, NodeId x) {
  NodeId a = abs_of(c, x);
  return c.bin(Op::Sub, c.un(Op::Relu, x), c.bin(Op::Mul, scale(c, a, 0.5), erfc_of_nonneg(c, scale(c, a, M_SQRT1_2))));
}

// Phi(x) + x phi(x): Phi = 1 - E/2 for x > 0 and E/2 otherwise, E = erfc(|x| / sqrt 2);
// phi = exp(-x^2 / 2) / sqrt(2 pi).
NodeId exact_gelu_slope(const AtenCtx& c, NodeId x) {
  NodeId half_e = scale(c, erfc_of_nonneg(c, scale(c, abs_of(c, x), M_SQRT1_2)), 0.5);
  NodeId cdf = select_mask(c, c.un(Op::Step, x), c.bin(Op::Sub, one_like(c, x), half_e), half_e);
  NodeId pdf = scale(c, c.un(Op::Exp, scale(c, c.bin(Op::Mul, x, x), -0.5)), 0.5 * M_2_SQRTPI * M_SQRT1_2);
  return c.bin(Op::Add, cdf, c.bin(Op::Mul, x, pdf));
}

}  // namespace

// sgn(x) (1 - erfc(|x|)).
NodeId erf(const AtenCtx& c) {
  NodeId x = c.tensor(0), one = one_like(c, x);
  NodeId sign = c.bin(Op::Sub, c.un(Op::Step, x), c.un(Op::Step, c.un(Op::Neg, x)));
  return c.bin(Op::Mul, sign, c.bin(Op::Sub, one, erfc_of_nonneg(c, abs_of(c, x))));
}

// Exact: relu(x) - 0.5 |x| erfc(|x| / sqrt 2); tanh form: 0.5 x (1 + tanh(beta (x + kappa x^3))).
NodeId gelu(const AtenCtx& c) {
  NodeId x = c.tensor(0);
  if (exact_gelu(c, 1)) return exact_gelu_of(c, x);
  return c.bin(Op::Mul, scale(c, x, 0.5), c.bin(Op::Add, c.splat(1.0), c.un(Op::Tanh, gelu_inner(c, x))));
}

// Exact: grad * (Phi(x) + x phi(x)); tanh form:
// grad * (0.5 (1 + t) + 0.5 x (1 - t^2) beta (1 + 3 kappa x^2)), t = tanh(inner).
NodeId gelu_backward(const AtenCtx& c) {
  NodeId x = c.operand(1, "self");
  if (exact_gelu(c, 2)) return c.bin(Op::Mul, c.operand(0), exact_gelu_slope(c, x));
  NodeId one = c.splat(1.0), t = c.un(Op::Tanh, gelu_inner(c, x));
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
