// Builders for vector norms of any order, max / min reductions and layer norm, as
// decompositions into sums, relus (max), powers and sqrt (docs/pytorch.md "aten op → IR").
#include <cmath>

#include <fmt/format.h>

#include "frontend/aten_builders.h"

namespace inrarch::frontend::rules {

using ir::Op;

namespace {

// The dims argument i (absent, None or [] = all) normalized for x.
std::vector<int64_t> dims_arg(const AtenCtx& c, NodeId x, size_t i, std::string_view kw) {
  const auto rank = static_cast<int64_t>(c.g.shape(x).size());
  const nlohmann::json* d = c.arg(i, kw);
  std::vector<int64_t> dims;
  if (d && !d->is_null()) dims = c.ints(i, kw);
  for (auto& v : dims) v = norm_dim(c, v, rank);
  if (dims.empty())
    for (int64_t k = 0; k < rank; ++k) dims.push_back(k);
  return dims;
}

// The max (or min) of x over dim, kept as size 1: halves of ceil(n/2) from both ends, which
// overlap by one element when n is odd (max is idempotent), until one is left: log2(n) levels.
NodeId extreme_over(const AtenCtx& c, NodeId x, int64_t dim, bool largest) {
  for (int64_t n = c.g.shape(x)[dim]; n > 1; n = (n + 1) / 2) {
    const int64_t h = (n + 1) / 2;
    NodeId a = c.g.slice(x, dim, 0, h, 1), b = c.g.slice(x, dim, n - h, n, 1);
    x = largest ? max_of(c, a, b) : min_of(c, a, b);
  }
  return x;
}

// max / min of x over dims, reshaped to the recorded result (keepdim or not).
NodeId extreme(const AtenCtx& c, NodeId x, const std::vector<int64_t>& dims, bool largest) {
  for (int64_t d : dims) x = extreme_over(c, x, d, largest);
  return c.g.reshape(x, c.shape());
}

NodeId sum_over(const AtenCtx& c, NodeId v, const std::vector<int64_t>& dims) {
  return c.g.reshape(c.g.sum(v, dims, true), c.shape());
}

// ||x||_p over dims (kept or not, as the recorded result shape says): p = 2 sqrt(sum x x), 1 sum |x|, inf / -inf max / min |x|, 0 the count of
// non-zeros, any other (sum |x|^p)^(1/p) (x^p itself for an even p).
NodeId vector_norm(const AtenCtx& c, const char* p_kw) {
  const nlohmann::json* pj = c.arg(1, p_kw);
  if (pj && pj->is_string())
    c.fail(fmt::format("a norm of order {} is not supported (only numbers)", pj->dump()));
  const double p = c.scalar(1, p_kw, 2.0);
  if (std::isnan(p)) c.fail("a norm of order nan is not supported");
  NodeId x = c.tensor(0);
  if (c.g.shape(x).empty()) return p == 0 ? c.bin(Op::Add, c.un(Op::Step, x), c.un(Op::Step, c.un(Op::Neg, x))) : abs_of(c, x);
  const std::vector<int64_t> dims = dims_arg(c, x, 2, "dim");
  if (p == 2) return c.un(Op::Sqrt, sum_over(c, c.bin(Op::Mul, x, x), dims));
  if (p == 0) return sum_over(c, c.bin(Op::Add, c.un(Op::Step, x), c.un(Op::Step, c.un(Op::Neg, x))), dims);
  if (std::isinf(p)) return extreme(c, abs_of(c, x), dims, p > 0);
  const bool even = p == std::round(p) && std::fmod(p, 2.0) == 0.0;
  NodeId a = even ? x : abs_of(c, x);
  NodeId s = sum_over(c, p == 1 ? a : pow_of(c, a, p), dims);
  return p == 1 ? s : pow_of(c, s, 1.0 / p);
}

// The last k dims of x: layer norm's normalized dims.
std::vector<int64_t> last_dims(const AtenCtx& c, NodeId x, size_t k) {
  const auto rank = static_cast<int64_t>(c.g.shape(x).size());
  if (k == 0 || static_cast<int64_t>(k) > rank) c.fail("normalized_shape must name 1 to rank dims");
  std::vector<int64_t> dims;
  for (auto d = rank - static_cast<int64_t>(k); d < rank; ++d) dims.push_back(d);
  return dims;
}

// The mean of v over dims, the dims kept as 1s.
NodeId mean_kept(const AtenCtx& c, NodeId v, const std::vector<int64_t>& dims) {
  double n = 1;
  for (int64_t d : dims) n *= static_cast<double>(c.g.shape(v)[d]);
  return scale(c, c.g.sum(v, dims, true), 1.0 / n);
}

NodeId bcast(const AtenCtx& c, NodeId v, NodeId like) { return c.broadcast(v, Shape(c.g.shape(like))); }

}  // namespace

NodeId norm(const AtenCtx& c) { return vector_norm(c, "p"); }
NodeId linalg_vector_norm(const AtenCtx& c) { return vector_norm(c, "ord"); }

NodeId amax(const AtenCtx& c) {
  NodeId x = c.tensor(0);
  return c.g.shape(x).empty() ? x : extreme(c, x, dims_arg(c, x, 1, "dim"), true);
}

NodeId amin(const AtenCtx& c) {
  NodeId x = c.tensor(0);
  return c.g.shape(x).empty() ? x : extreme(c, x, dims_arg(c, x, 1, "dim"), false);
}

// native_layer_norm(x, normalized_shape, weight?, bias?, eps) -> (y, mean, rstd), as PyTorch
// computes it: mean and the biased variance over the last dims, rstd = 1 / sqrt(var + eps),
// y = (x - mean) rstd (* weight) (+ bias); mean and rstd keep the normalized dims as 1s.
NodeId native_layer_norm(const AtenCtx& c) {
  const int64_t item = c.item(3);
  NodeId x = c.tensor(0);
  const std::vector<int64_t> dims = last_dims(c, x, c.ints(1, "normalized_shape").size());
  NodeId mean = mean_kept(c, x, dims);
  if (item == 1) return mean;
  NodeId d = c.bin(Op::Sub, x, bcast(c, mean, x));
  NodeId var = mean_kept(c, c.bin(Op::Mul, d, d), dims);
  const double eps = c.scalar(4, "eps", 1e-5);
  NodeId rstd = c.bin(Op::Div, c.g.constant(1.0, c.g.shape(var)),
                      c.un(Op::Sqrt, c.bin(Op::Add, var, c.g.constant(eps, c.g.shape(var)))));
  if (item == 2) return rstd;
  NodeId y = c.bin(Op::Mul, d, bcast(c, rstd, x));
  if (c.is_tensor(2, "weight")) y = c.bin(Op::Mul, y, bcast(c, c.tensor(2, "weight"), x));
  if (c.is_tensor(3, "bias")) y = c.bin(Op::Add, y, bcast(c, c.tensor(3, "bias"), x));
  return y;
}

// native_layer_norm_backward(g, x, normalized_shape, mean, rstd, weight?, bias?, mask) ->
// (dx, dweight, dbias), with xhat = (x - mean) rstd and gw = g weight:
// dx = rstd (gw - mean(gw) - xhat mean(gw xhat)) over the normalized dims, dweight = the sum of
// g xhat and dbias the sum of g over the others.
NodeId native_layer_norm_backward(const AtenCtx& c) {
  const int64_t item = c.item(3);
  NodeId g = c.tensor(0), x = c.tensor(1, "input");
  const std::vector<int64_t> dims = last_dims(c, x, c.ints(2, "normalized_shape").size());
  std::vector<int64_t> batch;
  for (int64_t d = 0; d < dims.front(); ++d) batch.push_back(d);
  auto over_batch = [&](NodeId v) { return batch.empty() ? v : c.g.sum(v, batch, false); };
  if (item == 2) return over_batch(g);
  NodeId rstd = bcast(c, c.tensor(4, "rstd"), x);
  NodeId xhat = c.bin(Op::Mul, c.bin(Op::Sub, x, bcast(c, c.tensor(3, "mean"), x)), rstd);
  if (item == 1) return over_batch(c.bin(Op::Mul, g, xhat));
  NodeId gw = c.is_tensor(5, "weight") ? c.bin(Op::Mul, g, bcast(c, c.tensor(5, "weight"), x)) : g;
  NodeId m1 = bcast(c, mean_kept(c, gw, dims), x);
  NodeId m2 = bcast(c, mean_kept(c, c.bin(Op::Mul, gw, xhat), dims), x);
  return c.bin(Op::Mul, rstd, c.bin(Op::Sub, c.bin(Op::Sub, gw, m1), c.bin(Op::Mul, xhat, m2)));
}

}  // namespace inrarch::frontend::rules
