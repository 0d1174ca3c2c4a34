// Builders for elementwise aten ops, the pointwise backward ops autograd records, matrix
// products and reductions. IR elementwise ops need equal shapes, so every operand goes
// through AtenCtx::operand (broadcast tensors, numbers as splats of the result shape).
#include <cmath>

#include <fmt/format.h>

#include "frontend/aten_builders.h"
#include "support/error.h"

namespace inrarch::frontend::rules {

using ir::Op;

namespace {

// 1 / (1 + exp(-x)): the IR has no sigmoid op.
NodeId sigmoid_of(const AtenCtx& c, NodeId x) {
  NodeId one = c.g.constant(1.0, c.g.shape(x));
  return c.bin(Op::Div, one, c.bin(Op::Add, one, c.un(Op::Exp, c.un(Op::Neg, x))));
}

NodeId scale(const AtenCtx& c, NodeId x, double k) {
  return k == 1.0 ? x : c.bin(Op::Mul, x, c.g.constant(k, c.g.shape(x)));
}

// x^n for a small integer n by repeated squaring (hash-consing shares the squares).
NodeId int_power(const AtenCtx& c, NodeId x, int64_t n) {
  if (n == 0) return c.g.constant(1.0, c.g.shape(x));
  if (n == 1) return x;
  NodeId half = int_power(c, x, n / 2);
  NodeId sq = c.bin(Op::Mul, half, half);
  return n % 2 ? c.bin(Op::Mul, sq, x) : sq;
}

}  // namespace

NodeId identity(const AtenCtx& c) { return c.tensor(0); }

NodeId to_copy(const AtenCtx& c) {
  // Only a float64 → float64 copy is a no-op; anything else would change values.
  const nlohmann::json* dt = c.arg(99, "dtype");
  if (dt && !(dt->is_string() && dt->get<std::string>() == "torch.float64"))
    c.fail(fmt::format("conversion to {} is not supported (export in float64)", dt->dump()));
  return c.tensor(0);
}

NodeId sigmoid(const AtenCtx& c) { return sigmoid_of(c, c.tensor(0)); }

NodeId softplus(const AtenCtx& c) {
  // log(1 + exp(beta x)) / beta. PyTorch returns x itself where beta x > threshold; the
  // difference there is below exp(-threshold) relative, and exp overflows past ~709.
  const double beta = c.scalar(1, "beta", 1.0);
  NodeId bx = scale(c, c.tensor(0), beta);
  NodeId r = c.un(Op::Log, c.bin(Op::Add, c.splat(1.0), c.un(Op::Exp, bx)));
  return scale(c, r, 1.0 / beta);
}

NodeId reciprocal(const AtenCtx& c) { return c.bin(Op::Div, c.splat(1.0), c.tensor(0)); }

NodeId square(const AtenCtx& c) {
  NodeId x = c.tensor(0);
  return c.bin(Op::Mul, x, x);
}

NodeId add(const AtenCtx& c) {
  return c.bin(Op::Add, c.operand(0), scale(c, c.operand(1, "other"), c.scalar(2, "alpha", 1.0)));
}

NodeId sub(const AtenCtx& c) {
  return c.bin(Op::Sub, c.operand(0), scale(c, c.operand(1, "other"), c.scalar(2, "alpha", 1.0)));
}

NodeId rsub(const AtenCtx& c) {  // other - alpha * self
  return c.bin(Op::Sub, c.operand(1, "other"), scale(c, c.operand(0), c.scalar(2, "alpha", 1.0)));
}

NodeId mul(const AtenCtx& c) { return c.bin(Op::Mul, c.operand(0), c.operand(1, "other")); }

NodeId div(const AtenCtx& c) {
  const nlohmann::json* mode = c.arg(2, "rounding_mode");
  if (mode && !mode->is_null()) c.fail("div with a rounding mode is not supported");
  return c.bin(Op::Div, c.operand(0), c.operand(1, "other"));
}

NodeId pow(const AtenCtx& c) {
  if (!c.is_tensor(0)) c.fail("a number raised to a tensor power is not supported");
  if (c.is_tensor(1, "exponent")) c.fail("a tensor exponent is not supported (only small integers)");
  const double e = c.scalar(1, "exponent", 1.0);
  if (e != std::round(e) || std::fabs(e) > 16)
    c.fail(fmt::format("exponent {} is not supported (only integers in [-16, 16])", e));
  const auto n = static_cast<int64_t>(e);
  NodeId p = int_power(c, c.operand(0), n < 0 ? -n : n);
  return n < 0 ? c.bin(Op::Div, c.splat(1.0), p) : p;
}

// Comparisons yield 1.0 / 0.0 (PyTorch's bool, converted by _to_copy): step(d) is d > 0.
NodeId lt(const AtenCtx& c) {
  return c.un(Op::Step, c.bin(Op::Sub, c.operand(1, "other"), c.operand(0)));
}
NodeId gt(const AtenCtx& c) {
  return c.un(Op::Step, c.bin(Op::Sub, c.operand(0), c.operand(1, "other")));
}
NodeId le(const AtenCtx& c) { return c.bin(Op::Sub, c.splat(1.0), gt(c)); }
NodeId ge(const AtenCtx& c) { return c.bin(Op::Sub, c.splat(1.0), lt(c)); }

NodeId where(const AtenCtx& c) {  // cond*a + (1-cond)*b; an inf/nan in the unused branch leaks
  NodeId cond = c.operand(0, "condition");
  NodeId not_cond = c.bin(Op::Sub, c.splat(1.0), cond);
  return c.bin(Op::Add, c.bin(Op::Mul, cond, c.operand(1, "self")),
               c.bin(Op::Mul, not_cond, c.operand(2, "other")));
}

NodeId tanh_backward(const AtenCtx& c) {  // grad * (1 - y^2), y = tanh(x)
  NodeId y = c.operand(1, "output");
  return c.bin(Op::Mul, c.operand(0), c.bin(Op::Sub, c.splat(1.0), c.bin(Op::Mul, y, y)));
}

NodeId sigmoid_backward(const AtenCtx& c) {  // grad * y * (1 - y), y = sigmoid(x)
  NodeId y = c.operand(1, "output");
  return c.bin(Op::Mul, c.operand(0), c.bin(Op::Mul, y, c.bin(Op::Sub, c.splat(1.0), y)));
}

NodeId threshold_backward(const AtenCtx& c) {  // grad * (x > threshold)
  const double thr = c.scalar(2, "threshold", 0.0);
  NodeId x = c.operand(1, "self");
  NodeId shifted = thr == 0.0 ? x : c.bin(Op::Sub, x, c.splat(thr));
  return c.bin(Op::Mul, c.operand(0), c.un(Op::Step, shifted));
}

NodeId softplus_backward(const AtenCtx& c) {  // grad * sigmoid(beta x)
  NodeId bx = scale(c, c.operand(1, "self"), c.scalar(2, "beta", 1.0));
  return c.bin(Op::Mul, c.operand(0), sigmoid_of(c, bx));
}

NodeId mm(const AtenCtx& c) { return c.g.mm(c.tensor(0), c.tensor(1, "mat2")); }

NodeId matmul(const AtenCtx& c) {
  // Vectors become 1-row / 1-column matrices; batched matmul is decomposed by the tracer.
  NodeId a = c.tensor(0), b = c.tensor(1, "other");
  const size_t ra = c.g.shape(a).size(), rb = c.g.shape(b).size();
  if (ra < 1 || ra > 2 || rb < 1 || rb > 2)
    c.fail(fmt::format("matmul of ranks {} and {} is not supported (1-D/2-D only)", ra, rb));
  if (ra == 1) a = c.g.unsqueeze(a, 0);
  if (rb == 1) b = c.g.unsqueeze(b, 1);
  return c.g.reshape(c.g.mm(a, b), c.shape());
}

NodeId addmm(const AtenCtx& c) {  // beta * bias + alpha * (mat1 @ mat2)
  NodeId prod = scale(c, c.g.mm(c.tensor(1, "mat1"), c.tensor(2, "mat2")), c.scalar(4, "alpha", 1.0));
  NodeId bias = scale(c, c.operand(0), c.scalar(3, "beta", 1.0));
  return c.bin(Op::Add, bias, prod);
}

NodeId bmm(const AtenCtx& c) {
  // One mm per batch entry, stacked: the IR's mm is 2-D.
  NodeId a = c.tensor(0), b = c.tensor(1, "mat2");
  const int64_t batch = c.g.shape(a).at(0);
  std::vector<NodeId> parts;
  for (int64_t i = 0; i < batch; ++i)
    parts.push_back(c.g.unsqueeze(c.g.mm(c.g.select(a, 0, i), c.g.select(b, 0, i)), 0));
  return parts.size() == 1 ? parts[0] : c.g.cat(parts, 0);
}

NodeId sum(const AtenCtx& c) {
  NodeId x = c.tensor(0);
  const auto rank = static_cast<int64_t>(c.g.shape(x).size());
  std::vector<int64_t> dims;
  const nlohmann::json* d = c.arg(1, "dim");
  if (d && !d->is_null() && !d->is_string()) dims = c.ints(1, "dim");  // string: a dtype
  const bool keepdim = c.boolean_or(2, "keepdim", false);
  if (rank == 0) return x;
  for (auto& v : dims) v = norm_dim(c, v, rank);
  return c.g.sum(x, dims, keepdim);  // empty dims = all, as in PyTorch
}

NodeId mean(const AtenCtx& c) {
  NodeId s = sum(c);
  const double n = static_cast<double>(numel(c.tensor_shape(0))) /
                   static_cast<double>(std::max<int64_t>(numel(c.shape()), 1));
  return scale(c, s, 1.0 / n);
}

}  // namespace inrarch::frontend::rules
