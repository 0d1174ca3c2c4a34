// The reference interpreter. One evaluator per ops.def row (eval_<Enum>), gathered into a
// table by the X-macro, so an op without an evaluator does not compile. Only nodes reachable
// from the requested ones are evaluated, in id (topological) order, and every intermediate
// tensor is freed right after its last user ran: memory stays near the live frontier, which
// matters for high-order INSP graphs with thousands of [batch,256] values.
//
// Data movement ops are all one strided copy: a view of the operand described by per-output-
// dim strides and a base offset (transpose/permute reorder strides, expand uses stride 0,
// select/slice move the base and scale strides).
#include "ir/interpreter.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <thread>
#include <unordered_map>

#include <fmt/format.h>

#include "support/error.h"

namespace inrarch::ir {

namespace {

using Args = std::vector<const Tensor*>;

struct Ctx {
  const Graph& g;
  const TensorMap& inputs;
  const TensorMap& params;
};

using EvalFn = Tensor (*)(const Ctx&, const Node&, const Args&);

// Calls fn(offset_a, offset_b) for every multi-index of `shape` in row-major order, where
// offset_x = base_x + sum(index[i] * strides_x[i]). An odometer: no per-element division.
template <typename Fn>
void for_each_index(const Shape& shape, const std::vector<int64_t>& sa, int64_t base_a,
                    const std::vector<int64_t>& sb, int64_t base_b, Fn&& fn) {
  const auto rank = shape.size();
  if (numel(shape) == 0) return;
  if (rank == 0) return fn(base_a, base_b);
  std::vector<int64_t> idx(rank, 0);
  int64_t a = base_a, b = base_b;
  const int64_t inner = shape[rank - 1], ia = sa[rank - 1], ib = sb[rank - 1];
  while (true) {
    for (int64_t j = 0; j < inner; ++j) fn(a + j * ia, b + j * ib);
    size_t d = rank - 1;
    while (true) {  // carry into the outer dims
      if (d == 0) return;
      --d;
      ++idx[d];
      a += sa[d];
      b += sb[d];
      if (idx[d] < shape[d]) break;
      a -= sa[d] * shape[d];
      b -= sb[d] * shape[d];
      idx[d] = 0;
    }
  }
}

// out[i...] = x[base + sum(i * strides)]: the one kernel behind every view-like op.
Tensor strided_copy(const Tensor& x, Shape out_shape, const std::vector<int64_t>& strides,
                    int64_t base) {
  Tensor out(std::move(out_shape));
  const auto dense = strides_of(out.shape);
  for_each_index(out.shape, strides, base, dense, 0,
                 [&](int64_t src, int64_t dst) { out.data[dst] = x.data[src]; });
  return out;
}

Tensor with_shape(const Tensor& x, const Shape& s) { return Tensor(s, x.data); }

template <typename F>
Tensor map1(const Tensor& x, F f) {
  Tensor out(x.shape);
  for (int64_t i = 0; i < x.size(); ++i) out.data[i] = f(x.data[i]);
  return out;
}

template <typename F>
Tensor map2(const Tensor& a, const Tensor& b, F f) {
  Tensor out(a.shape);
  for (int64_t i = 0; i < a.size(); ++i) out.data[i] = f(a.data[i], b.data[i]);
  return out;
}

const Tensor& leaf_value(const TensorMap& map, const Node& n, const char* kind) {
  auto it = map.find(n.attrs.name);
  if (it == map.end())
    throw Error(fmt::format("{} \"{}\" is missing (graph needs shape {})", kind, n.attrs.name,
                            shape_str(n.shape)));
  if (it->second.shape != n.shape)
    throw Error(fmt::format("{} \"{}\" has shape {}, graph needs {}", kind, n.attrs.name,
                            shape_str(it->second.shape), shape_str(n.shape)));
  return it->second;
}

// ---- leaves
Tensor eval_Input(const Ctx& c, const Node& n, const Args&) {
  return leaf_value(c.inputs, n, "input");
}
Tensor eval_Param(const Ctx& c, const Node& n, const Args&) {
  return leaf_value(c.params, n, "param");
}
Tensor eval_Const(const Ctx& c, const Node& n, const Args&) {
  return n.attrs.dense >= 0 ? c.g.tensor(n.attrs.dense) : Tensor(n.shape, n.attrs.value);
}

// ---- elementwise
#define UNARY(Enum, expr) \
  Tensor eval_##Enum(const Ctx&, const Node&, const Args& a) { \
    return map1(*a[0], [](double x) { return expr; });        \
  }
UNARY(Neg, -x)
UNARY(Sin, std::sin(x))
UNARY(Cos, std::cos(x))
UNARY(Exp, std::exp(x))
UNARY(Tanh, std::tanh(x))
UNARY(Relu, x > 0 ? x : 0.0)
UNARY(Step, x > 0 ? 1.0 : 0.0)
UNARY(Log, std::log(x))
UNARY(Sqrt, std::sqrt(x))
#undef UNARY

#define BINARY(Enum, expr) \
  Tensor eval_##Enum(const Ctx&, const Node&, const Args& a) {         \
    return map2(*a[0], *a[1], [](double x, double y) { return expr; }); \
  }
BINARY(Add, x + y)
BINARY(Sub, x - y)
BINARY(Mul, x * y)
BINARY(Div, x / y)
#undef BINARY

// ---- compute
// i-k-j order: the inner loop runs over contiguous rows of B and C.
// C rows [lo, hi) of A*B, C zero on entry. A block of 4 rows x 32 columns of C stays in
// registers while k runs (3x the plain loop's speed here), so B is read once per 4 rows.
// Every element still sums its products in k order from 0, with a multiply and an add,
// never fused: the result is bit-identical to the plain triple loop on any machine.
// Compiled for AVX-512, AVX2 and the baseline, chosen at run time.
#if defined(__clang__)
#define INRARCH_MM_TARGETS __attribute__((target_clones("avx512f", "avx2", "default")))
#else
#define INRARCH_MM_TARGETS \
  __attribute__((target_clones("avx512f", "avx2", "default"), optimize("fp-contract=off")))
#endif
INRARCH_MM_TARGETS
void mm_rows(const double* A, const double* B, double* C, int64_t k, int64_t p, int64_t lo, int64_t hi) {
#if defined(__clang__)
#pragma clang fp contract(off)
#endif
  constexpr int64_t R = 4, J = 32;
  int64_t i = lo;
  for (; i + R <= hi; i += R) {
    int64_t j0 = 0;
    for (; j0 + J <= p; j0 += J) {
      double acc[R][J] = {};
      for (int64_t kk = 0; kk < k; ++kk) {
        const double* b = B + kk * p + j0;
        for (int64_t r = 0; r < R; ++r) {
          const double a = A[(i + r) * k + kk];
          for (int64_t j = 0; j < J; ++j) acc[r][j] += a * b[j];
        }
      }
      for (int64_t r = 0; r < R; ++r)
        for (int64_t j = 0; j < J; ++j) C[(i + r) * p + j0 + j] = acc[r][j];
    }
    for (int64_t r = 0; r < R; ++r)
      for (int64_t kk = 0; kk < k; ++kk)
        for (int64_t j = j0; j < p; ++j) C[(i + r) * p + j] += A[(i + r) * k + kk] * B[kk * p + j];
  }
  for (; i < hi; ++i)
    for (int64_t kk = 0; kk < k; ++kk)
      for (int64_t j = 0; j < p; ++j) C[i * p + j] += A[i * k + kk] * B[kk * p + j];
}
#undef INRARCH_MM_TARGETS

Tensor eval_Mm(const Ctx&, const Node& n, const Args& a) {
  const Tensor &A = *a[0], &B = *a[1];
  const int64_t m = A.shape[0], k = A.shape[1], p = B.shape[1];
  Tensor C(n.shape);
  // Large products (a big batch) split their rows over the cores.
  const auto cores = static_cast<int64_t>(std::max(1u, std::thread::hardware_concurrency()));
  // (evaluate_rows.h's blocks of rows stay under the threshold: they run on the cores already.)
  const int64_t parts = m * k * p > (int64_t(1) << 28) ? std::min<int64_t>(cores, m / 4) : 1;
  if (parts <= 1) {
    mm_rows(A.data.data(), B.data.data(), C.data.data(), k, p, 0, m);
    return C;
  }
  std::vector<std::thread> pool;
  const int64_t chunk = (m / parts + 3) / 4 * 4;
  for (int64_t lo = 0; lo < m; lo += chunk)
    pool.emplace_back([&, lo] { mm_rows(A.data.data(), B.data.data(), C.data.data(), k, p, lo, std::min(m, lo + chunk)); });
  for (auto& t : pool) t.join();
  return C;
}

Tensor eval_Sum(const Ctx&, const Node& n, const Args& a) {
  const Tensor& x = *a[0];
  // Output strides over the input's dims, 0 on reduced dims (keepdim layout = same data).
  Shape kept = x.shape;
  for (int64_t d : n.attrs.dims) kept[d] = 1;
  auto ostr = strides_of(kept);
  for (int64_t d : n.attrs.dims) ostr[d] = 0;
  Tensor out(n.shape);
  for_each_index(x.shape, strides_of(x.shape), 0, ostr, 0,
                 [&](int64_t src, int64_t dst) { out.data[dst] += x.data[src]; });
  return out;
}

// ---- data movement
Tensor eval_Transpose(const Ctx&, const Node& n, const Args& a) {
  return strided_copy(*a[0], n.shape, {1, a[0]->shape[1]}, 0);
}

Tensor eval_Permute(const Ctx&, const Node& n, const Args& a) {
  const auto in = strides_of(a[0]->shape);
  std::vector<int64_t> s;
  for (int64_t p : n.attrs.perm) s.push_back(in[p]);
  return strided_copy(*a[0], n.shape, s, 0);
}

Tensor eval_Reshape(const Ctx&, const Node& n, const Args& a) { return with_shape(*a[0], n.shape); }
Tensor eval_Unsqueeze(const Ctx&, const Node& n, const Args& a) { return with_shape(*a[0], n.shape); }
Tensor eval_Squeeze(const Ctx&, const Node& n, const Args& a) { return with_shape(*a[0], n.shape); }

Tensor eval_Expand(const Ctx&, const Node& n, const Args& a) {
  auto s = strides_of(a[0]->shape);
  for (size_t i = 0; i < s.size(); ++i)
    if (a[0]->shape[i] != n.shape[i]) s[i] = 0;  // broadcast dim: reread the same element
  return strided_copy(*a[0], n.shape, s, 0);
}

Tensor eval_Select(const Ctx&, const Node& n, const Args& a) {
  auto s = strides_of(a[0]->shape);
  const int64_t base = n.attrs.index * s[n.attrs.dim];
  s.erase(s.begin() + n.attrs.dim);
  return strided_copy(*a[0], n.shape, s, base);
}

Tensor eval_Slice(const Ctx&, const Node& n, const Args& a) {
  auto s = strides_of(a[0]->shape);
  const int64_t base = n.attrs.start * s[n.attrs.dim];
  s[n.attrs.dim] *= n.attrs.step;
  return strided_copy(*a[0], n.shape, s, base);
}

Tensor eval_Cat(const Ctx&, const Node& n, const Args& a) {
  const int64_t dim = n.attrs.dim;
  int64_t outer = 1;
  for (int64_t i = 0; i < dim; ++i) outer *= n.shape[i];
  Tensor out(n.shape);
  const int64_t out_row = out.size() / std::max<int64_t>(outer, 1);
  int64_t offset = 0;  // within one output row (everything from `dim` inwards)
  for (const Tensor* t : a) {
    const int64_t row = t->size() / std::max<int64_t>(outer, 1);
    for (int64_t o = 0; o < outer; ++o)
      std::copy_n(t->data.begin() + o * row, row, out.data.begin() + o * out_row + offset);
    offset += row;
  }
  return out;
}

constexpr EvalFn kEval[] = {
#define OP(Enum, mnemonic, arity, attrs, shape_rule, category, kernel) &eval_##Enum,
#include "ir/ops.def"
};
static_assert(sizeof(kEval) / sizeof(kEval[0]) == kNumOps);

}  // namespace

namespace {

// Evaluates what `nodes` need in id order; each requested node's value is handed to `done`
// (which may move it away) and every value is freed after its last user.
void evaluate_core(const Graph& g, const std::vector<NodeId>& nodes, const TensorMap& inputs,
                   const TensorMap& params, const std::function<void(NodeId, Tensor&)>& done) {
  const LiveOrder live = live_order(g, nodes);
  std::vector<char> wanted(g.size(), 0);
  for (NodeId id : nodes) wanted[id] = 1;
  Ctx ctx{g, inputs, params};
  std::vector<Tensor> values(g.size());
  Args args;
  for (NodeId id : live.order) {
    const Node& n = g.node(id);
    args.clear();
    for (NodeId o : n.operands) args.push_back(&values[o]);
    values[id] = kEval[static_cast<int>(n.op)](ctx, n, args);
    for (NodeId o : n.operands)
      if (live.last_use[o] == id) values[o] = Tensor();  // free after the last user
    if (wanted[id]) done(id, values[id]);
    if (live.last_use[id] == kNoNode) values[id] = Tensor();
  }
}

}  // namespace

LiveOrder live_order(const Graph& g, const std::vector<NodeId>& nodes) {
  std::vector<char> live(g.size(), 0);
  for (NodeId id : nodes) {
    if (id >= g.size()) throw Error(fmt::format("evaluate: node %{} does not exist", id));
    live[id] = 1;
  }
  LiveOrder out;
  out.last_use.assign(g.size(), kNoNode);
  for (size_t i = g.size(); i-- > 0;) {
    if (!live[i]) continue;
    for (NodeId o : g.node(static_cast<NodeId>(i)).operands) {
      live[o] = 1;
      if (out.last_use[o] == kNoNode) out.last_use[o] = static_cast<NodeId>(i);  // highest user first
    }
  }
  for (NodeId id = 0; id < g.size(); ++id)
    if (live[id]) out.order.push_back(id);
  return out;
}

Tensor evaluate_op(const Graph& g, NodeId id, const std::vector<const Tensor*>& operands, const TensorMap& inputs,
                   const TensorMap& params) {
  const Node& n = g.node(id);
  return kEval[static_cast<int>(n.op)](Ctx{g, inputs, params}, n, operands);
}

std::vector<Tensor> evaluate_nodes(const Graph& g, const std::vector<NodeId>& nodes,
                                   const TensorMap& inputs, const TensorMap& params) {
  std::unordered_map<NodeId, Tensor> kept;
  evaluate_core(g, nodes, inputs, params, [&](NodeId id, Tensor& v) { kept[id] = v; });
  std::vector<Tensor> out;
  out.reserve(nodes.size());
  for (NodeId id : nodes) out.push_back(kept.at(id));
  return out;
}

void evaluate_visit(const Graph& g, const std::vector<NodeId>& nodes, const TensorMap& inputs,
                    const TensorMap& params, const VisitFn& visit) {
  evaluate_core(g, nodes, inputs, params, [&](NodeId id, Tensor& v) { visit(id, v); });
}

std::vector<Tensor> evaluate(const Graph& g, const TensorMap& inputs, const TensorMap& params) {
  std::vector<NodeId> ids;
  for (const Output& o : g.outputs()) ids.push_back(o.node);
  return evaluate_nodes(g, ids, inputs, params);
}

}  // namespace inrarch::ir
