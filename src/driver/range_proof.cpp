// range_proof (range_proof.h).
#include "driver/range_proof.h"

#include <algorithm>
#include <cmath>
#include <optional>

#include "passes/rebatch.h"
#include "passes/value_bounds.h"
#include "support/error.h"

namespace inrarch::driver {

namespace {

// The box split into n^D cells, D the input columns together, one cell a row: its max over
// the rows bounds the box, and each cell's intervals are narrow enough that a sine of one
// varies over a fraction of its period. Inputs must be [rows, d]; n = 0 when they are not.
passes::InputBox cells(const ir::Graph& g, int64_t rows, double lo, double hi, int64_t* n) {
  passes::InputBox box = passes::uniform_box(g, lo, hi);
  int64_t dims = 0;
  for (const auto& [name, iv] : box) {
    if (iv.lo.shape.size() != 2 || iv.lo.shape[0] != rows) return *n = 0, box;
    dims += iv.lo.shape[1];
  }
  *n = dims > 0 ? std::max<int64_t>(1, int64_t(std::floor(std::pow(double(rows), 1.0 / double(dims)) + 1e-9))) : 0;
  const double h = (hi - lo) / double(std::max<int64_t>(*n, 1));
  int64_t stride = 1;  // of the current column in the row's cell number
  for (auto& [name, iv] : box)
    for (int64_t col = 0; col < iv.lo.shape[1]; ++col, stride *= *n)
      for (int64_t r = 0; r < rows; ++r) {
        const int64_t at = (r / stride) % *n;
        iv.lo.data[r * iv.lo.shape[1] + col] = lo + double(at) * h;
        iv.hi.data[r * iv.lo.shape[1] + col] = at + 1 == *n ? hi : lo + double(at + 1) * h;
      }
  return box;
}

// The bounds of the stream nodes. A row-independent graph is bounded on kCells rows, a
// cell of the box each (rebatch keeps the node ids of a graph without dead nodes); any
// other on the whole box at once.
constexpr int64_t kCells = 1024;

std::vector<double> stream_bounds(const dataflow::Design& d, const ir::Bundle& b, double lo, double hi,
                                  int64_t* cells_per_dim) {
  std::vector<ir::NodeId> nodes;
  for (const dataflow::Stream& s : d.streams) nodes.push_back(d.processes[s.producer].node);
  *cells_per_dim = 1;
  const std::optional<int64_t> rows = passes::graph_rows(b.graph);
  if (rows && *rows > 1) {
    std::optional<ir::Graph> split;
    try {
      split = passes::rebatch(b.graph, kCells);
    } catch (const Error&) {  // resizing merged two nodes: bound the whole box at once
    }
    int64_t n = 0;
    passes::InputBox box = split ? cells(*split, kCells, lo, hi, &n) : passes::InputBox{};
    if (split && split->size() == b.graph.size() && n > 0) {
      *cells_per_dim = n;
      return passes::magnitude_bounds(*split, nodes, box, b.params);
    }
  }
  return passes::magnitude_bounds(b.graph, nodes, passes::uniform_box(b.graph, lo, hi), b.params);
}

}  // namespace

nlohmann::json range_proof(const dataflow::Design& d, const ir::Bundle& b, const hls::HlsOptions& ho,
                           const hls::Scaling& sc) {
  if (ho.type.kind != hls::NumberType::Fixed || !ho.input_range)
    throw Error("range proof: needs a fixed-point type and an input range");
  const auto [lo, hi] = *ho.input_range;
  int64_t cells_per_dim = 1;
  const std::vector<double> bound = stream_bounds(d, b, lo, hi, &cells_per_dim);
  struct Headroom {
    size_t stream;
    double bound, limit, bits;
  };
  std::vector<Headroom> all;
  int proven = 0, unbounded = 0;
  for (size_t s = 0; s < d.streams.size(); ++s) {
    const double limit = std::ldexp(1.0, ho.type.int_bits - 1 - sc.stream_exp[s]);
    const double bits = bound[s] > 0 ? std::log2(limit / bound[s]) : 64.0;
    proven += bound[s] < limit;
    unbounded += std::isinf(bound[s]);
    all.push_back({s, bound[s], limit, bits});
  }
  std::stable_sort(all.begin(), all.end(), [](const Headroom& a, const Headroom& b) { return a.bits < b.bits; });
  nlohmann::json tightest = nlohmann::json::array();
  for (size_t i = 0; i < std::min<size_t>(5, all.size()); ++i) {
    const Headroom& h = all[i];
    const bool finite = std::isfinite(h.bound);
    tightest.push_back({{"stream", d.streams[h.stream].name},
                        {"bound", finite ? nlohmann::json(h.bound) : nlohmann::json("unbounded")},
                        {"limit", h.limit},
                        {"headroom_bits", finite ? nlohmann::json(std::round(h.bits * 100) / 100) : nullptr}});
  }
  return {{"box", {lo, hi}},          {"method", "interval"}, {"cells_per_dim", cells_per_dim},
          {"streams", d.streams.size()}, {"proven", proven},     {"unbounded", unbounded},
          {"tightest", tightest}};
}

}  // namespace inrarch::driver
