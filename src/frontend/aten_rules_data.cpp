// Builders for aten data movement (views, indexing, concatenation), the backward ops of
// indexing that double backward records (select_backward, slice_backward: a zero-padded
// scatter), the scatters that in-place updates of views become (select_scatter,
// slice_scatter: the base with a part replaced), all built as one cat of slices, and tensor
// factories (splat constants of the recorded result shape).
#include <limits>

#include <fmt/format.h>

#include "frontend/aten_builders.h"

namespace inrarch::frontend::rules {

namespace {

int64_t rank_of(const AtenCtx& c, NodeId x) { return static_cast<int64_t>(c.g.shape(x).size()); }

// A part of x along dim: [lo, hi), or x itself when that is all of it.
NodeId part(const AtenCtx& c, NodeId x, int64_t dim, int64_t lo, int64_t hi) {
  return lo == 0 && hi == c.g.shape(x)[dim] ? x : c.g.slice(x, dim, lo, hi, 1);
}

// Python's slice bounds on a dim of size n: negative from the end, clamped to [0, n].
int64_t bound(int64_t v, int64_t n) { return std::clamp<int64_t>(v < 0 ? v + n : v, 0, n); }

// The result along `dim` takes the elements start, start + step, ... (< end) from `src`, in
// order, and every other run [lo, hi) of elements from fill(lo, hi): zeros for the backward
// of indexing, the base tensor for the scatters. Built as one cat of the runs.
template <class Fill>
NodeId scatter_runs(const AtenCtx& c, NodeId src, int64_t dim, int64_t start, int64_t end,
                    int64_t step, Fill fill) {
  if (step < 1) c.fail(fmt::format("slice step {} (must be positive)", step));
  const int64_t n = c.shape()[dim];
  auto from_src = [&](int64_t i) { return i >= start && i < end && (i - start) % step == 0; };
  std::vector<NodeId> parts;
  int64_t k = 0;  // elements of src used so far
  for (int64_t i = 0; i < n;) {
    const bool s = from_src(i);
    int64_t j = i + 1;
    while (j < n && from_src(j) == s && (!s || step == 1)) ++j;
    parts.push_back(s ? part(c, src, dim, k, k + (j - i)) : fill(i, j));
    k += s ? j - i : 0;
    i = j;
  }
  if (k != c.g.shape(src)[dim])
    c.fail(fmt::format("the source has {} elements along dim {}, the slice {}", c.g.shape(src)[dim], dim, k));
  return parts.size() == 1 ? parts[0] : c.g.cat(parts, dim);
}

NodeId scatter_into_zeros(const AtenCtx& c, NodeId src, int64_t dim, int64_t start, int64_t end,
                          int64_t step) {
  return scatter_runs(c, src, dim, start, end, step, [&](int64_t lo, int64_t hi) {
    Shape s = c.shape();
    s[dim] = hi - lo;
    return c.g.constant(0.0, s);
  });
}

NodeId scatter_into(const AtenCtx& c, NodeId base, NodeId src, int64_t dim, int64_t start,
                    int64_t end, int64_t step) {
  return scatter_runs(c, src, dim, start, end, step,
                      [&](int64_t lo, int64_t hi) { return part(c, base, dim, lo, hi); });
}

}  // namespace

NodeId t(const AtenCtx& c) {
  NodeId x = c.tensor(0);
  return rank_of(c, x) < 2 ? x : c.g.transpose(x);
}

NodeId transpose(const AtenCtx& c) {
  NodeId x = c.tensor(0);
  const int64_t r = rank_of(c, x);
  if (r < 2) return x;
  const int64_t d0 = norm_dim(c, c.integer(1, "dim0"), r), d1 = norm_dim(c, c.integer(2, "dim1"), r);
  if (d0 == d1) return x;
  if (r == 2) return c.g.transpose(x);
  std::vector<int64_t> perm(r);
  for (int64_t i = 0; i < r; ++i) perm[i] = i;
  std::swap(perm[d0], perm[d1]);
  return c.g.permute(x, perm);
}

NodeId permute(const AtenCtx& c) {
  NodeId x = c.tensor(0);
  std::vector<int64_t> perm = c.ints(1, "dims");
  const int64_t r = rank_of(c, x);
  bool is_identity = true;
  for (int64_t i = 0; i < static_cast<int64_t>(perm.size()); ++i) {
    perm[i] = norm_dim(c, perm[i], r);
    is_identity = is_identity && perm[i] == i;
  }
  if (is_identity) return x;
  // A 2-D swap is a transpose: the kernel library and the passes know it best.
  return r == 2 ? c.g.transpose(x) : c.g.permute(x, perm);
}

NodeId reshape(const AtenCtx& c) { return c.g.reshape(c.tensor(0), c.shape()); }

NodeId unsqueeze(const AtenCtx& c) {
  NodeId x = c.tensor(0);
  return c.g.unsqueeze(x, norm_dim(c, c.integer(1, "dim"), rank_of(c, x) + 1));
}

NodeId squeeze(const AtenCtx& c) {
  // squeeze(x, dim) of a size-1 dim is an IR squeeze; every other form (all dims, a dim
  // that is not 1, a dim list) is fully described by the recorded result shape.
  NodeId x = c.tensor(0);
  const nlohmann::json* d = c.arg(1, "dim");
  if (d && d->is_number_integer()) {
    const int64_t dim = norm_dim(c, d->get<int64_t>(), rank_of(c, x));
    if (rank_of(c, x) > 0 && c.g.shape(x)[dim] == 1) return c.g.squeeze(x, dim);
  }
  return c.g.reshape(x, c.shape());
}

NodeId expand(const AtenCtx& c) { return c.broadcast(c.tensor(0), c.shape()); }

// x.repeat(r...): x padded with leading 1s to len(r) dims; a dim of size 1 (or repeated once)
// is an expand of that dim, any other gets a new size-1 dim before it, expanded to r and
// merged with it by a reshape. So a repeat of one row is one row broadcast, as expand is
// (docs/pytorch.md "aten op → IR").
NodeId repeat(const AtenCtx& c) {
  NodeId x = c.tensor(0);
  const std::vector<int64_t> reps = c.ints(1, "repeats");
  const Shape shape = c.g.shape(x);
  if (reps.size() < shape.size()) c.fail("repeat needs at least as many repeats as dimensions");
  const size_t pad = reps.size() - shape.size();
  Shape source, target;
  bool merge = false;
  for (size_t i = 0; i < reps.size(); ++i) {
    const int64_t n = i < pad ? 1 : shape[i - pad], r = reps[i];
    if (r < 1) c.fail(fmt::format("repeat count {} is not supported (only counts >= 1)", r));
    if (n != 1 && r != 1) {
      source.push_back(1);
      target.push_back(r);
      merge = true;
    }
    source.push_back(n);
    target.push_back(n == 1 ? r : n);
  }
  NodeId out = c.g.expand(c.g.reshape(x, source), target);
  return merge ? c.g.reshape(out, c.shape()) : out;
}

NodeId select(const AtenCtx& c) {
  NodeId x = c.tensor(0);
  return c.g.select(x, norm_dim(c, c.integer(1, "dim"), rank_of(c, x)), c.integer(2, "index"));
}

NodeId slice(const AtenCtx& c) {
  NodeId x = c.tensor(0);
  const int64_t dim = norm_dim(c, c.integer_or(1, "dim", 0), rank_of(c, x));
  const int64_t start = c.integer_or(2, "start", 0);
  const int64_t end = c.integer_or(3, "end", std::numeric_limits<int64_t>::max());
  const int64_t step = c.integer_or(4, "step", 1);
  if (start == 0 && end >= c.g.shape(x)[dim] && step == 1) return x;  // a full slice is a view
  return c.g.slice(x, dim, start, end, step);
}

NodeId cat(const AtenCtx& c) {
  std::vector<NodeId> xs = c.tensors(0, "tensors");
  const int64_t dim = norm_dim(c, c.integer_or(1, "dim", 0), rank_of(c, xs[0]));
  return xs.size() == 1 ? xs[0] : c.g.cat(xs, dim);
}

NodeId stack(const AtenCtx& c) {
  std::vector<NodeId> xs = c.tensors(0, "tensors");
  const int64_t dim = norm_dim(c, c.integer_or(1, "dim", 0), rank_of(c, xs[0]) + 1);
  for (NodeId& x : xs) x = c.g.unsqueeze(x, dim);
  return xs.size() == 1 ? xs[0] : c.g.cat(xs, dim);
}

NodeId select_backward(const AtenCtx& c) {  // (grad, input_sizes, dim, index)
  const auto r = static_cast<int64_t>(c.shape().size());
  const int64_t dim = norm_dim(c, c.integer(2, "dim"), r);
  const int64_t index = bound(c.integer(3, "index"), c.shape()[dim]);
  return scatter_into_zeros(c, c.g.unsqueeze(c.tensor(0), dim), dim, index, index + 1, 1);
}

NodeId slice_backward(const AtenCtx& c) {  // (grad, input_sizes, dim, start, end, step)
  const auto r = static_cast<int64_t>(c.shape().size());
  const int64_t dim = norm_dim(c, c.integer(2, "dim"), r), n = c.shape()[dim];
  return scatter_into_zeros(c, c.tensor(0), dim, bound(c.integer(3, "start"), n),
                            bound(c.integer(4, "end"), n), c.integer(5, "step"));
}

NodeId select_scatter(const AtenCtx& c) {  // (base, src, dim, index)
  const auto r = static_cast<int64_t>(c.shape().size());
  const int64_t dim = norm_dim(c, c.integer(2, "dim"), r);
  const int64_t index = bound(c.integer(3, "index"), c.shape()[dim]);
  return scatter_into(c, c.tensor(0), c.g.unsqueeze(c.tensor(1, "src"), dim), dim, index,
                      index + 1, 1);
}

NodeId slice_scatter(const AtenCtx& c) {  // (base, src, dim=0, start=None, end=None, step=1)
  const auto r = static_cast<int64_t>(c.shape().size());
  const int64_t dim = norm_dim(c, c.integer_or(2, "dim", 0), r), n = c.shape()[dim];
  const int64_t start = bound(c.integer_or(3, "start", 0), n);
  const int64_t end = bound(c.integer_or(4, "end", n), n);
  return scatter_into(c, c.tensor(0), c.tensor(1, "src"), dim, start, end,
                      c.integer_or(5, "step", 1));
}

NodeId copy(const AtenCtx& c) { return c.broadcast(c.tensor(1, "src"), c.shape()); }

NodeId zeros(const AtenCtx& c) { return c.splat(0.0); }
NodeId ones(const AtenCtx& c) { return c.splat(1.0); }
NodeId fill_arg0(const AtenCtx& c) { return c.splat(c.scalar(0, "fill_value", 0.0)); }
NodeId fill_arg1(const AtenCtx& c) {
  if (c.is_tensor(1)) return c.broadcast(c.tensor(1), c.shape());  // fill.Tensor: a 0-d value
  return c.splat(c.scalar(1, "fill_value", 0.0));
}
NodeId fill_arg2(const AtenCtx& c) { return c.splat(c.scalar(2, "fill_value", 0.0)); }

}  // namespace inrarch::frontend::rules
