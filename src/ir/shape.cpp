// Shape rules. Each rule validates its operands and attributes (normalizing negative dims,
// PyTorch style) and returns the result shape; ops.def names the rule per op.
#include "ir/shape.h"

#include <algorithm>

#include <fmt/format.h>

#include "support/error.h"

namespace inrarch::ir {

namespace {

using Operands = std::vector<const Shape*>;

[[noreturn]] void fail(Op op, const std::string& why) {
  throw Error(fmt::format("{}: {}", op_name(op), why));
}

const Shape& need_given(Op op, const Shape* given) {
  if (!given) fail(op, "result shape must be stated");
  for (int64_t d : *given)
    if (d < 0) fail(op, fmt::format("negative dimension in {}", shape_str(*given)));
  return *given;
}

Shape shape_given(Op op, const Operands&, Attrs&, const Shape* given) {
  return need_given(op, given);
}

Shape shape_same(Op op, const Operands& in, Attrs&, const Shape*) {
  for (size_t i = 1; i < in.size(); ++i)
    if (*in[i] != *in[0])
      fail(op, fmt::format("operand shapes differ: {} vs {} (broadcast explicitly with expand)",
                           shape_str(*in[0]), shape_str(*in[i])));
  return *in[0];
}

Shape shape_mm(Op op, const Operands& in, Attrs&, const Shape*) {
  const Shape &a = *in[0], &b = *in[1];
  if (a.size() != 2 || b.size() != 2)
    fail(op, fmt::format("needs 2-D operands, got {} and {}", shape_str(a), shape_str(b)));
  if (a[1] != b[0])
    fail(op, fmt::format("inner dimensions differ: {} x {}", shape_str(a), shape_str(b)));
  return {a[0], b[1]};
}

Shape shape_transpose(Op op, const Operands& in, Attrs&, const Shape*) {
  if (in[0]->size() != 2) fail(op, fmt::format("needs a 2-D operand, got {}", shape_str(*in[0])));
  return {(*in[0])[1], (*in[0])[0]};
}

Shape shape_permute(Op op, const Operands& in, Attrs& attrs, const Shape*) {
  const Shape& x = *in[0];
  const auto rank = static_cast<int64_t>(x.size());
  if (static_cast<int64_t>(attrs.perm.size()) != rank)
    fail(op, fmt::format("perm has {} entries for a rank-{} operand", attrs.perm.size(), rank));
  std::vector<bool> seen(rank, false);
  Shape out;
  for (auto& p : attrs.perm) {
    p = normalize_dim(p, rank, "permute");
    if (seen[p]) fail(op, "perm repeats a dimension");
    seen[p] = true;
    out.push_back(x[p]);
  }
  return out;
}

Shape shape_reshape(Op op, const Operands& in, Attrs&, const Shape* given) {
  const Shape& out = need_given(op, given);
  if (numel(out) != numel(*in[0]))
    fail(op, fmt::format("cannot reshape {} to {}", shape_str(*in[0]), shape_str(out)));
  return out;
}

Shape shape_expand(Op op, const Operands& in, Attrs&, const Shape* given) {
  const Shape& out = need_given(op, given);
  const Shape& x = *in[0];
  // Same rank; every operand dim equals the result dim or is 1 (explicit, PyTorch-like).
  bool ok = x.size() == out.size();
  for (size_t i = 0; ok && i < x.size(); ++i) ok = x[i] == out[i] || x[i] == 1;
  if (!ok) fail(op, fmt::format("cannot expand {} to {} (same rank, size-1 dims only)",
                                shape_str(x), shape_str(out)));
  return out;
}

Shape shape_unsqueeze(Op op, const Operands& in, Attrs& attrs, const Shape*) {
  Shape out = *in[0];
  attrs.dim = normalize_dim(attrs.dim, static_cast<int64_t>(out.size()) + 1, "unsqueeze");
  out.insert(out.begin() + attrs.dim, 1);
  (void)op;
  return out;
}

Shape shape_squeeze(Op op, const Operands& in, Attrs& attrs, const Shape*) {
  Shape out = *in[0];
  attrs.dim = normalize_dim(attrs.dim, static_cast<int64_t>(out.size()), "squeeze");
  if (out[attrs.dim] != 1)
    fail(op, fmt::format("dimension {} of {} is not 1", attrs.dim, shape_str(out)));
  out.erase(out.begin() + attrs.dim);
  return out;
}

Shape shape_select(Op op, const Operands& in, Attrs& attrs, const Shape*) {
  Shape out = *in[0];
  attrs.dim = normalize_dim(attrs.dim, static_cast<int64_t>(out.size()), "select");
  const int64_t n = out[attrs.dim];
  if (attrs.index < 0) attrs.index += n;
  if (attrs.index < 0 || attrs.index >= n)
    fail(op, fmt::format("index {} out of range for dimension {} of {}", attrs.index, attrs.dim,
                         shape_str(out)));
  out.erase(out.begin() + attrs.dim);
  return out;
}

Shape shape_slice(Op op, const Operands& in, Attrs& attrs, const Shape*) {
  Shape out = *in[0];
  attrs.dim = normalize_dim(attrs.dim, static_cast<int64_t>(out.size()), "slice");
  const int64_t n = out[attrs.dim];
  if (attrs.step < 1) fail(op, fmt::format("step must be >= 1, got {}", attrs.step));
  // Python slice clamping, then stored in normalized form.
  auto clamp = [n](int64_t i) { return std::clamp(i < 0 ? i + n : i, int64_t{0}, n); };
  attrs.start = clamp(attrs.start);
  attrs.end = std::max(attrs.start, clamp(attrs.end));
  // ceil(len / step) without len + step - 1, which overflows for a step near INT64_MAX.
  const int64_t len = attrs.end - attrs.start;
  out[attrs.dim] = len == 0 ? 0 : (len - 1) / attrs.step + 1;
  return out;
}

Shape shape_cat(Op op, const Operands& in, Attrs& attrs, const Shape*) {
  Shape out = *in[0];
  attrs.dim = normalize_dim(attrs.dim, static_cast<int64_t>(out.size()), "cat");
  for (size_t i = 1; i < in.size(); ++i) {
    Shape a = *in[i], b = *in[0];
    bool ok = a.size() == b.size();
    if (ok) a[attrs.dim] = b[attrs.dim] = 0;
    if (!ok || a != b)
      fail(op, fmt::format("operand {} has shape {}, incompatible with {} along dim {}", i,
                           shape_str(*in[i]), shape_str(*in[0]), attrs.dim));
    out[attrs.dim] += (*in[i])[attrs.dim];
  }
  return out;
}

Shape shape_sum(Op op, const Operands& in, Attrs& attrs, const Shape*) {
  const Shape& x = *in[0];
  const auto rank = static_cast<int64_t>(x.size());
  if (attrs.dims.empty())  // PyTorch: no dims = all dims
    for (int64_t i = 0; i < rank; ++i) attrs.dims.push_back(i);
  for (auto& d : attrs.dims) d = normalize_dim(d, rank, "sum");
  std::sort(attrs.dims.begin(), attrs.dims.end());
  if (std::adjacent_find(attrs.dims.begin(), attrs.dims.end()) != attrs.dims.end())
    fail(op, "dims repeat a dimension");
  Shape out;
  for (int64_t i = 0; i < rank; ++i) {
    bool reduced = std::binary_search(attrs.dims.begin(), attrs.dims.end(), i);
    if (!reduced) out.push_back(x[i]);
    else if (attrs.keepdim) out.push_back(1);
  }
  return out;
}

using ShapeRule = Shape (*)(Op, const Operands&, Attrs&, const Shape*);

constexpr ShapeRule kShapeRules[] = {
#define OP(Enum, mnemonic, arity, attrs, shape_rule, category, kernel) &shape_##shape_rule,
#include "ir/ops.def"
};

}  // namespace

int64_t normalize_dim(int64_t dim, int64_t rank, const char* what) {
  if (dim < -rank || dim >= rank)
    throw Error(fmt::format("{}: dimension {} out of range for rank {}", what, dim, rank));
  return dim < 0 ? dim + rank : dim;
}

Shape infer_shape(Op op, const std::vector<const Shape*>& operands, Attrs& attrs,
                  const Shape* given) {
  Shape out = kShapeRules[static_cast<int>(op)](op, operands, attrs, given);
  if (given && *given != out)
    fail(op, fmt::format("stated shape {} but operands give {}", shape_str(*given),
                         shape_str(out)));
  return out;
}

}  // namespace inrarch::ir
