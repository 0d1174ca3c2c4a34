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

// x^n for a small integer n by repeated squaring (hash-consing shares the squares).
NodeId int_power(const AtenCtx& c, NodeId x, int64_t n) {
  if (n == 0) return c.g.constant(1.0, c.g.shape(x));
  if (n == 1) return x;
  NodeId half = int_power(c, x, n / 2);
  NodeId sq = c.bin(Op::Mul, half, half);
  return n % 2 ? c.bin(Op::Mul, sq, x) : sq;
}

}  // namespace

NodeId scale(const AtenCtx& c, NodeId x, double k) {
  return k == 1.0 ? x : c.bin(Op::Mul, x, c.g.constant(k, c.g.shape(x)));
}

NodeId abs_of(const AtenCtx& c, NodeId x) {
  return c.bin(Op::Add, c.un(Op::Relu, x), c.un(Op::Relu, c.un(Op::Neg, x)));
}
NodeId max_of(const AtenCtx& c, NodeId a, NodeId b) { return c.bin(Op::Add, b, c.un(Op::Relu, c.bin(Op::Sub, a, b))); }
NodeId min_of(const AtenCtx& c, NodeId a, NodeId b) { return c.bin(Op::Sub, b, c.un(Op::Relu, c.bin(Op::Sub, b, a))); }
NodeId select_mask(const AtenCtx& c, NodeId m, NodeId a, NodeId b) {
  const NodeId one = c.g.constant(1.0, c.g.shape(m));
  return c.bin(Op::Add, c.bin(Op::Mul, m, a), c.bin(Op::Mul, c.bin(Op::Sub, one, m), b));
}

NodeId identity(const AtenCtx& c) { return c.tensor(0); }

NodeId to_copy(const AtenCtx& c) {
  // Only a float64 → float64 copy is a no-op; anything else would change values.
  const nlohmann::json* dt = c.arg(99, "dtype");
  if (dt && !(dt->is_string() && dt->get<std::string>() == "torch.float64"))
    c.fail(fmt::format("conversion to {} is not supported (export in float64)", dt->dump()));
  return c.tensor(0);
}

NodeId rsqrt(const AtenCtx& c) { return c.bin(Op::Div, c.splat(1.0), c.un(Op::Sqrt, c.tensor(0))); }
NodeId cosh(const AtenCtx& c) {
  NodeId a = abs_of(c, c.tensor(0));
  return scale(c, c.bin(Op::Add, c.un(Op::Exp, a), c.un(Op::Exp, c.un(Op::Neg, a))), 0.5);
}
NodeId abs(const AtenCtx& c) { return abs_of(c, c.tensor(0)); }
NodeId sgn(const AtenCtx& c) {  // 1, 0, -1
  NodeId x = c.tensor(0);
  return c.bin(Op::Sub, c.un(Op::Step, x), c.un(Op::Step, c.un(Op::Neg, x)));
}

// clamp(x, lo, hi) = min(max(x, lo), hi); either bound may be absent (None), a number or
// (clamp.Tensor) a tensor.
NodeId clamp_bounds(const AtenCtx& c, size_t lo_arg, size_t hi_arg) {
  NodeId y = c.tensor(0);
  auto given = [&](size_t i, const char* kw) {
    const nlohmann::json* a = i == 0 ? nullptr : c.arg(i, kw);
    return a && !a->is_null();
  };
  if (given(lo_arg, "min")) y = max_of(c, y, c.operand(lo_arg, "min"));
  if (given(hi_arg, "max")) y = min_of(c, y, c.operand(hi_arg, "max"));
  if (!given(lo_arg, "min") && !given(hi_arg, "max")) c.fail("clamp needs a min or a max");
  return y;
}
NodeId clamp(const AtenCtx& c) { return clamp_bounds(c, 1, 2); }
NodeId clamp_min(const AtenCtx& c) { return clamp_bounds(c, 1, 0); }
NodeId clamp_max(const AtenCtx& c) { return clamp_bounds(c, 0, 1); }
NodeId maximum(const AtenCtx& c) { return max_of(c, c.operand(0), c.operand(1, "other")); }
NodeId minimum(const AtenCtx& c) { return min_of(c, c.operand(0), c.operand(1, "other")); }

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

// x^e: an integer |e| <= 16 by muls, a half-integer one by muls and one sqrt (x^(n+1/2) =
// x^n sqrt x, NaN for x < 0 as in PyTorch), any other by exp(e log x) (0 at x = 0 for e > 0,
// NaN for x < 0: PyTorch's values in float64; fixed point needs x > 0, docs/pytorch.md).
NodeId pow_of(const AtenCtx& c, NodeId x, double e) {
  if (std::fabs(e) > 16 || 2.0 * e != std::round(2.0 * e)) return c.un(Op::Exp, scale(c, c.un(Op::Log, x), e));
  const auto n = static_cast<int64_t>(std::fabs(e));  // |e| rounded down
  NodeId p = int_power(c, x, n);
  if (e != std::round(e)) p = n == 0 ? c.un(Op::Sqrt, x) : c.bin(Op::Mul, p, c.un(Op::Sqrt, x));
  return e < 0 ? c.bin(Op::Div, c.g.constant(1.0, c.g.shape(x)), p) : p;
}

NodeId pow(const AtenCtx& c) {
  if (!c.is_tensor(0)) c.fail("a number raised to a tensor power is not supported");
  if (c.is_tensor(1, "exponent")) c.fail("a tensor exponent is not supported (only a number)");
  const double e = c.scalar(1, "exponent", 1.0);
  if (!std::isfinite(e)) c.fail(fmt::format("exponent {} is not supported", e));
  return pow_of(c, c.operand(0), e);
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

// eq is 1 - step(a-b) - step(b-a): exact equality, as PyTorch's.
NodeId eq(const AtenCtx& c) { return c.bin(Op::Sub, c.splat(1.0), c.bin(Op::Add, gt(c), lt(c))); }
NodeId ne(const AtenCtx& c) { return c.bin(Op::Add, gt(c), lt(c)); }
NodeId logical_and(const AtenCtx& c) { return c.bin(Op::Mul, c.operand(0), c.operand(1, "other")); }
NodeId logical_or(const AtenCtx& c) {
  NodeId a = c.operand(0), b = c.operand(1, "other");
  return c.bin(Op::Sub, c.bin(Op::Add, a, b), c.bin(Op::Mul, a, b));
}
NodeId logical_not(const AtenCtx& c) { return c.bin(Op::Sub, c.splat(1.0), c.operand(0)); }
// mask*value + (1-mask)*x. A masked quotient (norm's backward: (g / n).masked_fill(n == 0, 0))
// divides by b + mask instead, so the entries the mask drops are finite and 0·x stays 0; the
// others divide by b + 0 = b, unchanged.
NodeId masked_fill(const AtenCtx& c) {
  NodeId x = c.operand(0), m = c.operand(1, "mask");
  if (c.g.op(x) == Op::Div) {
    const ir::Node q = c.g.node(x);  // a copy: the graph grows below
    x = c.bin(Op::Div, q.operands[0], c.bin(Op::Add, q.operands[1], m));
  }
  return select_mask(c, m, c.operand(2, "value"), x);
}

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
