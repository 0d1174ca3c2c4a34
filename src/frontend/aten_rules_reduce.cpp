// Builders for losses and the diagonal, as decompositions into sums and data movement
// (docs/pytorch.md "Decompositions").
#include <fmt/format.h>

#include "frontend/aten_builders.h"

namespace inrarch::frontend::rules {

using ir::Op;

namespace {

// PyTorch's reduction enum: 0 none, 1 mean, 2 sum.
NodeId reduce(const AtenCtx& c, NodeId v, int64_t reduction) {
  if (reduction == 0) return v;
  if (reduction != 1 && reduction != 2) c.fail(fmt::format("reduction {} is not supported", reduction));
  const double n = static_cast<double>(numel(c.g.shape(v)));
  NodeId s = c.g.shape(v).empty() ? v : c.g.sum(v, {}, false);
  return reduction == 1 ? scale(c, s, 1.0 / n) : s;
}

// Where the diagonal of dims (d1, d2) of a tensor of `shape` lies: x permuted so that d1, d2
// are last, the last two flattened; the diagonal is a slice of step n2 + 1 there.
struct Diagonal {
  std::vector<int64_t> perm;  // empty: d1, d2 are already the last two, in order
  Shape flat;                 // the permuted shape with the last two dims flattened
  int64_t start = 0, length = 0, step = 1;
};

Diagonal diagonal_of(const AtenCtx& c, const Shape& shape, int64_t offset, int64_t d1, int64_t d2) {
  const auto rank = static_cast<int64_t>(shape.size());
  if (rank < 2) c.fail("diagonal needs at least two dimensions");
  d1 = norm_dim(c, d1, rank);
  d2 = norm_dim(c, d2, rank);
  if (d1 == d2) c.fail("diagonal of one dimension with itself");
  Diagonal d;
  std::vector<int64_t> perm;
  for (int64_t i = 0; i < rank; ++i)
    if (i != d1 && i != d2) perm.push_back(i);
  perm.push_back(d1);
  perm.push_back(d2);
  if (d1 != rank - 2 || d2 != rank - 1) d.perm = perm;
  const int64_t n1 = shape[d1], n2 = shape[d2];
  for (size_t i = 0; i + 2 < perm.size(); ++i) d.flat.push_back(shape[perm[i]]);
  d.flat.push_back(n1 * n2);
  d.length = std::max<int64_t>(0, offset >= 0 ? std::min(n1, n2 - offset) : std::min(n1 + offset, n2));
  d.start = offset >= 0 ? offset : -offset * n2;
  d.step = n2 + 1;
  if (d.length == 0) c.fail("an empty diagonal is not supported");
  return d;
}

}  // namespace

NodeId mse_loss(const AtenCtx& c) {  // mean/sum/none of (x - t)^2
  NodeId d = c.bin(Op::Sub, c.tensor(0), c.broadcast(c.tensor(1, "target"), c.tensor_shape(0)));
  return reduce(c, c.bin(Op::Mul, d, d), c.integer_or(2, "reduction", 1));
}

NodeId mse_loss_backward(const AtenCtx& c) {  // grad * 2 (x - t), / n for the mean
  const int64_t reduction = c.integer_or(3, "reduction", 1);
  const double k = reduction == 1 ? 2.0 / static_cast<double>(numel(c.shape())) : 2.0;
  NodeId d = c.bin(Op::Sub, c.operand(1, "self"), c.operand(2, "target"));
  return c.bin(Op::Mul, c.operand(0, "grad_output"), scale(c, d, k));
}

NodeId diagonal(const AtenCtx& c) {
  NodeId x = c.tensor(0);
  const Diagonal d = diagonal_of(c, c.g.shape(x), c.integer_or(1, "offset", 0), c.integer_or(2, "dim1", 0),
                                 c.integer_or(3, "dim2", 1));
  if (!d.perm.empty()) x = c.g.permute(x, d.perm);
  NodeId flat = c.g.reshape(x, d.flat);
  const auto last = static_cast<int64_t>(d.flat.size()) - 1;
  return c.g.slice(flat, last, d.start, d.start + (d.length - 1) * d.step + 1, d.step);
}

// diagonal_backward(grad, input_sizes, offset, dim1, dim2): grad on the diagonal of zeros,
// as grad broadcast along d1 times the identity (offset 0, square only).
NodeId diagonal_backward(const AtenCtx& c) {
  const std::vector<int64_t> sizes = c.ints(1, "input_sizes");
  const Shape shape(sizes.begin(), sizes.end());
  const int64_t offset = c.integer_or(2, "offset", 0);
  const Diagonal d = diagonal_of(c, shape, offset, c.integer_or(3, "dim1", 0), c.integer_or(4, "dim2", 1));
  const int64_t n = d.length;
  if (offset != 0 || d.flat.back() != n * n)
    c.fail("the backward of a diagonal is supported for offset 0 of a square matrix only");
  Shape full(d.flat.begin(), d.flat.end() - 1);
  const Shape batch = full;
  full.push_back(n);
  full.push_back(n);
  NodeId g = c.tensor(0);  // [batch..., n]
  NodeId rows = c.g.expand(c.g.unsqueeze(g, static_cast<int64_t>(batch.size())), full);
  Tensor eye({n, n});
  for (int64_t i = 0; i < n; ++i) eye.data[i * n + i] = 1.0;
  Shape eye_shape(batch.size(), 1);
  eye_shape.push_back(n);
  eye_shape.push_back(n);
  NodeId id = c.g.expand(c.g.reshape(c.g.constant(eye), eye_shape), full);
  NodeId out = c.bin(Op::Mul, rows, id);
  if (d.perm.empty()) return out;
  std::vector<int64_t> inverse(d.perm.size());
  for (size_t i = 0; i < d.perm.size(); ++i) inverse[d.perm[i]] = static_cast<int64_t>(i);
  return c.g.permute(out, inverse);
}

}  // namespace inrarch::frontend::rules
