#include "driver/precision.h"

#include <fmt/format.h>

#include <algorithm>
#include <tuple>

#include "dataflow/lower.h"
#include "dataflow/resources.h"
#include "support/error.h"

namespace inrarch::driver {

namespace {

// Widths where the DSPs per multiply step down (18: one DSP48E2, 27: two) and two between.
constexpr int kWidths[] = {18, 20, 24, 27};
// The weights' width that makes a product with a stream of up to 27 bits one DSP48E2.
constexpr int kOneDspWeightBits = 18;

std::string candidate_name(const hls::NumberType& t, int weight_bits) {
  return weight_bits > 0 ? fmt::format("{} (weights {} bits)", t.name(), weight_bits) : t.name();
}

}  // namespace

std::vector<std::pair<hls::NumberType, int>> precision_candidates(const hls::NumberType& widest, int weight_bits) {
  std::vector<hls::NumberType> types;
  for (int w : kWidths)
    if (w < widest.width && w > widest.int_bits) types.push_back({hls::NumberType::Fixed, w, widest.int_bits});
  types.push_back(widest);
  std::vector<std::pair<hls::NumberType, int>> out;
  for (const hls::NumberType& t : types) {
    const int narrow = weight_bits > 0 ? weight_bits : kOneDspWeightBits;
    if (narrow < t.width && narrow > t.int_bits) out.push_back({t, narrow});
    if (weight_bits == 0 || weight_bits >= t.width) out.push_back({t, 0});
  }
  auto cost = [](const std::pair<hls::NumberType, int>& c) {
    const int w = c.first.width, wb = c.second > 0 ? c.second : w;
    return std::tuple(dataflow::dsp_for_product(w, wb), dataflow::dsp_for_product(w, w), w, wb);
  };
  std::stable_sort(out.begin(), out.end(), [&](const auto& x, const auto& y) { return cost(x) < cost(y); });
  return out;
}

PrecisionChoice choose_precision(const ir::Bundle& b, const hls::NumberType& widest, int weight_bits,
                                 double max_error, const hls::SweepOptions& sweep, const std::filesystem::path& work,
                                 const std::function<void(const std::string&)>& progress) {
  if (widest.kind != hls::NumberType::Fixed)
    throw Error("--max-error picks a fixed-point width: --type must be fixed<W,I>, not " + widest.name());
  const auto candidates = precision_candidates(widest, weight_bits);
  PrecisionChoice c{widest, 0, {{"max_error", max_error}, {"tried", nlohmann::json::array()}}};
  hls::SweepOptions so = sweep;
  std::string errors;
  for (size_t i = 0; i < candidates.size(); ++i) {  // cheapest first: stop at the first within the bound
    const auto& [t, wb] = candidates[i];
    const std::string name = candidate_name(t, wb);
    if (progress) progress(fmt::format("precision: C-simulating {} ({} of at most {})", name, i + 1, candidates.size()));
    dataflow::LowerOptions lo;
    lo.elem_bits = t.width;
    lo.weight_bits = wb;
    const dataflow::Design d = dataflow::lower(b.graph, lo);
    hls::SweepRow row = hls::precision_sweep(d, b, {t}, work, so).at(0);
    // The C simulation's own fixed-point criterion (tb_util.h): the scaled error.
    bool pass = row.completed && row.max_scaled_error >= 0 && row.max_scaled_error <= max_error;
    c.report["tried"].push_back({{"type", t.name()}, {"weight_bits", wb > 0 ? wb : t.width},
                                 {"dsp_per_mac", dataflow::dsp_for_product(t.width, wb > 0 ? wb : t.width)},
                                 {"max_abs_error", row.max_abs_error}, {"max_rel_error", row.max_rel_error},
                                 {"max_scaled_error", row.max_scaled_error}, {"pass", pass}});
    errors += fmt::format("{}{}: {:.3g}", errors.empty() ? "" : ", ", name, row.max_scaled_error);
    if (!pass) continue;
    c.type = t;
    c.weight_bits = wb;
    c.report["chosen"] = t.name();
    c.report["weight_bits"] = wb > 0 ? wb : t.width;
    std::filesystem::remove_all(work);
    return c;
  }
  std::filesystem::remove_all(work);
  throw Error(fmt::format("no fixed-point width up to {} meets --max-error {:g} (max scaled error {})",
                          widest.name(), max_error, errors));
}

}  // namespace inrarch::driver
