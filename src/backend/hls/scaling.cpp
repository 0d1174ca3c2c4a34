// compute_scaling: range analysis on the reference values, then one exponent per class of
// streams that data movement ties together (see scaling.h for the rules).
#include "backend/hls/scaling.h"

#include <algorithm>
#include <cmath>
#include <mutex>
#include <numeric>
#include <random>
#include <unordered_map>

#include "ir/interpreter.h"

namespace inrarch::hls {

using dataflow::Kind;

bool Scaling::any() const {
  auto nonzero = [](int k) { return k != 0; };
  if (std::any_of(stream_exp.begin(), stream_exp.end(), nonzero)) return true;
  return std::any_of(operand_exp.begin(), operand_exp.end(), [&](const std::vector<int>& v) {
    return std::any_of(v.begin(), v.end(), nonzero);
  });
}

Scaling Scaling::none(const dataflow::Design& d) {
  Scaling sc;
  sc.stream_exp.assign(d.streams.size(), 0);
  for (const auto& p : d.processes) sc.operand_exp.emplace_back(p.operands.size(), 0);
  return sc;
}

int scale_exponent(double magnitude, const NumberType& type, int margin_bits) {
  if (!(magnitude > 0) || !std::isfinite(magnitude)) return 0;
  const int top = type.int_bits - 1 - margin_bits;  // keep max|stored| <= 2^top
  int k = static_cast<int>(std::floor(top - std::log2(magnitude)));
  // Kernels shift by up to |EO| + |EA| + |EB|: three clamped exponents stay below the
  // 128-bit raw value of the widest intermediate.
  const int limit = std::min(type.width, 40);
  return std::clamp(k, -limit, limit);
}

namespace {

struct UnionFind {
  std::vector<size_t> parent;
  explicit UnionFind(size_t n) : parent(n) { std::iota(parent.begin(), parent.end(), 0); }
  size_t find(size_t x) {
    while (parent[x] != x) x = parent[x] = parent[parent[x]];
    return x;
  }
  void unite(size_t a, size_t b) { parent[find(a)] = find(b); }
};

bool moves_data(Kind k) {
  return k == Kind::Copy || dataflow::is_gather(k) || k == Kind::Transpose || k == Kind::Permute;
}

// max|value| of every stream's value and every constant operand, from the interpreter
// (a constant's ROM values: a broadcast repeats them, so they have the operand's range).
struct Ranges {
  std::vector<double> stream;
  std::vector<std::vector<double>> operand;  // constant operands only (streams: 0)
};

// Eight independent maxima, which the compiler vectorizes (one std::max chain it must keep
// in order). NaNs are skipped, as std::max(m, NaN) does.
double max_abs(const Tensor& t) {
  double m[8] = {};
  const size_t n = t.data.size(), whole = n / 8 * 8;
  const double* v = t.data.data();
  for (size_t i = 0; i < whole; i += 8)
    for (size_t j = 0; j < 8; ++j) m[j] = std::fabs(v[i + j]) > m[j] ? std::fabs(v[i + j]) : m[j];
  for (size_t i = whole; i < n; ++i) m[0] = std::fabs(v[i]) > m[0] ? std::fabs(v[i]) : m[0];
  return *std::max_element(m, m + 8);
}

Ranges value_ranges(const dataflow::Design& d, const ir::Bundle& b, const ir::VisitEvaluator& evaluate) {
  std::vector<ir::NodeId> nodes;
  std::unordered_map<ir::NodeId, size_t> slot;
  auto want = [&](ir::NodeId n) {
    if (slot.emplace(n, nodes.size()).second) nodes.push_back(n);
  };
  for (const auto& s : d.streams) want(d.processes[s.producer].node);
  for (const auto& p : d.processes)
    for (const auto& od : p.operands)
      if (od.stream < 0 && !od.splat && od.static_node != ir::kNoNode) want(od.rom_source());
  std::vector<double> range(nodes.size());
  std::mutex mu;  // the evaluator may visit from several threads
  evaluate(b.graph, nodes, b.inputs, b.params, [&](ir::NodeId n, const Tensor& v) {
    double m = max_abs(v);
    std::lock_guard<std::mutex> lock(mu);
    double& r = range[slot.at(n)];
    r = std::max(r, m);
  });
  Ranges r;
  for (const auto& s : d.streams) r.stream.push_back(range[slot.at(d.processes[s.producer].node)]);
  for (const auto& p : d.processes) {
    r.operand.emplace_back();
    for (const auto& od : p.operands) {
      double m = 0;
      if (od.stream < 0 && od.splat) m = std::fabs(*od.splat);
      else if (od.stream < 0 && od.static_node != ir::kNoNode) m = range[slot.at(od.rom_source())];
      r.operand.back().push_back(m);
    }
  }
  return r;
}

}  // namespace

ir::Bundle calibration_bundle(const ir::Bundle& b, double lo, double hi) {
  ir::Bundle cal{b.graph, b.inputs, b.params, {}};
  std::mt19937_64 rng(0);
  std::uniform_real_distribution<double> uniform(lo, hi);
  for (auto& [name, t] : cal.inputs) {
    const size_t d = t.shape.empty() ? 1 : static_cast<size_t>(std::max<int64_t>(t.shape.back(), 1));
    const size_t corners = d <= 16 ? size_t{1} << d : 0;
    for (size_t i = 0; i < t.data.size(); ++i) {
      const size_t row = i / d, col = i % d;
      t.data[i] = row < corners ? (row >> col & 1 ? hi : lo) : uniform(rng);
    }
  }
  return cal;
}

Scaling compute_scaling(const dataflow::Design& d, const ir::Bundle& b, const NumberType& type,
                        int margin_bits, const ir::VisitEvaluator& evaluate) {
  Scaling sc = Scaling::none(d);
  if (type.kind != NumberType::Fixed || d.streams.empty()) return sc;
  const Ranges r = value_ranges(d, b, evaluate ? evaluate : ir::VisitEvaluator(ir::evaluate_visit));

  UnionFind uf(d.streams.size() + 1);
  const size_t pinned = d.streams.size();  // the class of true values (ports)
  for (const auto& p : d.processes) {
    std::vector<dataflow::StreamId> io(p.inputs);
    io.insert(io.end(), p.outputs.begin(), p.outputs.end());
    bool pin = p.kind == Kind::Source || p.kind == Kind::Sink || p.kind == Kind::Custom;
    for (auto s : io) {
      if (pin) uf.unite(static_cast<size_t>(s), pinned);
      else if (moves_data(p.kind)) uf.unite(static_cast<size_t>(s), static_cast<size_t>(io.front()));
    }
  }
  const int kAllZero = 1 << 20;  // a class whose values are all zero: no exponent
  std::unordered_map<size_t, int> class_exp;
  for (size_t s = 0; s < d.streams.size(); ++s) {
    int k = r.stream[s] > 0 ? scale_exponent(r.stream[s], type, margin_bits) : kAllZero;
    auto [it, fresh] = class_exp.emplace(uf.find(s), k);
    if (!fresh) it->second = std::min(it->second, k);
  }
  for (size_t s = 0; s < d.streams.size(); ++s) {
    size_t c = uf.find(s);
    int k = class_exp.at(c);
    sc.stream_exp[s] = c == uf.find(pinned) || k == kAllZero ? 0 : k;
  }
  for (size_t p = 0; p < d.processes.size(); ++p) {
    const auto& proc = d.processes[p];
    bool arithmetic = proc.kind == Kind::Unary || proc.kind == Kind::Binary || dataflow::has_macs(proc.kind);
    if (!arithmetic && !dataflow::is_gather(proc.kind)) continue;  // sources: true values
    for (size_t k = 0; k < proc.operands.size(); ++k) {
      const auto& od = proc.operands[k];
      int& e = sc.operand_exp[p][k];
      if (od.stream >= 0) e = sc.stream_exp[od.stream];
      else if (arithmetic)  // narrow weights hold known values: one bit of headroom keeps their max in range
        e = scale_exponent(r.operand[p][k], type, od.rom_elem_bits > 0 ? kNarrowRomMarginBits : margin_bits);
      else e = sc.stream_exp[proc.outputs.at(0)];  // a constant part of moved data
    }
  }
  return sc;
}

Scaling design_scaling(const dataflow::Design& d, const ir::Bundle& b, const HlsOptions& opt) {
  // A declared input range is sampled at its corners and throughout, so one bit of headroom
  // (2x to 4x) covers what the samples miss; one input set needs three (8x to 16x).
  if (!opt.pow2_scaling) return Scaling::none(d);
  if (opt.input_range)
    return compute_scaling(d, calibration_bundle(b, opt.input_range->first, opt.input_range->second), opt.type,
                           kRangeMarginBits, opt.evaluate);
  return compute_scaling(d, b, opt.type, kBundleMarginBits, opt.evaluate);
}

}  // namespace inrarch::hls
