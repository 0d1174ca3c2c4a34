// Built-in models: the SIREN of the INSP benchmark (README) and INSP's derivative set ("new_grad_lastdim")
// on top of it, built with grad() exactly as INSP builds it with autograd.grad.
//
// Random numbers come from std::mt19937_64 and a hand-written conversion to [0,1) (the top
// 53 bits), because std::uniform_real_distribution is implementation-defined: bundles must be
// identical across standard libraries. Params and the input use separate streams so that
// changing the batch does not change the weights.
#include "autodiff/models.h"

#include <cmath>
#include <random>

#include <fmt/format.h>

#include "autodiff/grad.h"
#include "support/error.h"
#include "ir/interpreter.h"

namespace inrarch::autodiff {

namespace {

using ir::Op;

constexpr uint64_t kInputStream = 0x9e3779b97f4a7c15ULL;  // offsets the seed of x's stream
constexpr double kInspScale = 189.0;                       // INSP divides each li[i] by 189
constexpr int kMaxOrder = 8;  // 3*(2^9-1) outputs: far past anything buildable in memory

double uniform(std::mt19937_64& rng, double lo, double hi) {
  const double u = static_cast<double>(rng() >> 11) * 0x1.0p-53;  // [0,1), 53 random bits
  return lo + (hi - lo) * u;
}

Tensor uniform_tensor(std::mt19937_64& rng, Shape shape, double bound) {
  Tensor t(std::move(shape));
  for (double& v : t.data) v = uniform(rng, -bound, bound);
  return t;
}

void check_spec(const SirenSpec& s) {
  if (s.dims.size() < 2) throw Error("siren: dims needs at least an input and an output size");
  for (int64_t d : s.dims)
    if (d < 1) throw Error(fmt::format("siren: layer size {} must be positive", d));
  if (s.batch < 1) throw Error(fmt::format("siren: batch {} must be positive", s.batch));
}

std::string weight_name(size_t layer) { return fmt::format("l{}.weight", layer); }
std::string bias_name(size_t layer) { return fmt::format("l{}.bias", layer); }

// x W^T + b, with the bias broadcast explicitly over the batch (PyTorch: b.unsqueeze(-2)).
NodeId linear(Graph& g, NodeId x, size_t layer, int64_t in, int64_t out, int64_t batch) {
  NodeId w = g.param(weight_name(layer), {out, in});
  NodeId b = g.param(bias_name(layer), {out});
  NodeId xw = g.mm(x, g.transpose(w));
  return g.binary(Op::Add, xw, g.expand(g.unsqueeze(b, 0), {batch, out}));
}

}  // namespace

SirenSpec insp_siren(int64_t batch, int64_t width, uint64_t seed) {
  SirenSpec spec;
  spec.dims = {2, width, width, width, width, 3};
  spec.batch = batch;
  spec.seed = seed;
  return spec;
}

NodeId build_siren(Graph& g, const SirenSpec& spec) {
  check_spec(spec);
  NodeId h = g.input("x", {spec.batch, spec.dims[0]});
  const size_t layers = spec.dims.size() - 1;
  for (size_t l = 0; l < layers; ++l) {
    const int64_t in = spec.dims[l], out = spec.dims[l + 1];
    h = linear(g, h, l, in, out, spec.batch);
    if (l + 1 < layers)
      h = g.unary(Op::Sin, g.binary(Op::Mul, g.constant(spec.w0, {spec.batch, out}), h));
  }
  return h;
}

ir::TensorMap siren_params(const SirenSpec& spec) {
  check_spec(spec);
  std::mt19937_64 rng(spec.seed);
  ir::TensorMap params;
  for (size_t l = 0; l + 1 < spec.dims.size(); ++l) {
    const int64_t in = spec.dims[l], out = spec.dims[l + 1];
    const double fan_in = static_cast<double>(in);
    const double w_bound = l == 0 ? 1.0 / fan_in : std::sqrt(6.0 / fan_in) / spec.w0;
    params[weight_name(l)] = uniform_tensor(rng, {out, in}, w_bound);
    params[bias_name(l)] = uniform_tensor(rng, {out}, 1.0 / std::sqrt(fan_in));
  }
  return params;
}

Tensor siren_input(const SirenSpec& spec) {
  check_spec(spec);
  std::mt19937_64 rng(spec.seed + kInputStream);
  return uniform_tensor(rng, {spec.batch, spec.dims[0]}, 1.0);
}

int64_t insp_output_count(int order) {
  if (order < 0 || order > kMaxOrder)
    throw Error(fmt::format("insp: order {} out of range 0..{}", order, kMaxOrder));
  return 3 * ((int64_t{1} << (order + 1)) - 1);
}

const char* mode_name(DerivativeMode m) { return m == DerivativeMode::Taylor ? "taylor" : "reverse"; }

DerivativeMode mode_from_name(const std::string& s) {
  if (s == "taylor") return DerivativeMode::Taylor;
  if (s == "reverse") return DerivativeMode::Reverse;
  throw Error(fmt::format("unknown derivative mode \"{}\" (known: taylor, reverse)", s));
}

ir::Graph build_siren_graph(const SirenSpec& spec) {
  Graph g("siren");
  g.add_output("y", build_siren(g, spec));
  return g;
}

// li[0..2] are y's components; li[3 + 2i + j] = ∂_j (li[i] / 189).
std::vector<DerivativeRequest> insp_requests(int order) {
  const int64_t outputs = insp_output_count(order);
  std::vector<DerivativeRequest> li;
  for (int64_t c = 0; c < 3; ++c) li.push_back({fmt::format("out{}", c), "y", {0, 0}, c, 1.0});
  for (int64_t k = 3; k < outputs; ++k) {
    DerivativeRequest r = li[(k - 3) / 2];
    r.name = fmt::format("out{}", k);
    r.alpha[(k - 3) % 2] += 1;
    r.scale /= kInspScale;
    li.push_back(std::move(r));
  }
  return li;
}

ir::Graph build_insp_graph(const SirenSpec& spec, int order, DerivativeMode mode) {
  const int64_t outputs = insp_output_count(order);
  check_spec(spec);
  if (spec.dims.front() < 2 || spec.dims.back() < 3)
    throw Error(fmt::format("insp: needs at least 2 inputs and 3 outputs, dims give {} and {}",
                            spec.dims.front(), spec.dims.back()));
  if (mode == DerivativeMode::Taylor) {
    Graph g = taylor(build_siren_graph(spec), {"x", order, insp_requests(order)});
    g.set_name("insp");
    return g;
  }
  Graph g("insp");
  const NodeId y = build_siren(g, spec);
  const NodeId x = g.find_input("x");
  std::vector<NodeId> li = {g.select(y, 1, 0), g.select(y, 1, 1), g.select(y, 1, 2)};
  const int64_t steps = 3 * ((int64_t{1} << order) - 1);
  for (int64_t i = 0; i < steps; ++i) {
    const Shape shape = g.shape(li[i]);  // a copy: g grows below
    NodeId scaled = g.binary(Op::Div, li[i], g.constant(kInspScale, shape));
    NodeId dx = grad(g, scaled, x, g.constant(1.0, shape));
    li.push_back(g.select(dx, 1, 0));
    li.push_back(g.select(dx, 1, 1));
  }
  INRARCH_ASSERT(static_cast<int64_t>(li.size()) == outputs, "insp: output count");
  for (size_t i = 0; i < li.size(); ++i) g.add_output(fmt::format("out{}", i), li[i]);
  return g;
}

ir::Bundle build_insp_bundle(const SirenSpec& spec, int order, bool with_reference,
                             DerivativeMode mode) {
  ir::Bundle b{build_insp_graph(spec, order, mode), {}, siren_params(spec), {}};
  b.inputs["x"] = siren_input(spec);
  if (with_reference) {
    const ir::Graph reverse = mode == DerivativeMode::Reverse ? ir::Graph() : build_insp_graph(spec, order);
    const ir::Graph& oracle = mode == DerivativeMode::Reverse ? b.graph : reverse;
    std::vector<Tensor> values = ir::evaluate(oracle, b.inputs, b.params);
    for (size_t i = 0; i < values.size(); ++i)
      b.reference[b.graph.outputs()[i].name] = std::move(values[i]);
  }
  return b;
}

}  // namespace inrarch::autodiff
