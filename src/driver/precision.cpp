#include "driver/precision.h"

#include <fmt/format.h>

#include "dataflow/lower.h"
#include "support/error.h"

namespace inrarch::driver {

namespace {

// Widths where the DSPs per multiply step down (18: one DSP48E2, 27: two) and two between.
constexpr int kWidths[] = {18, 20, 24, 27};

}  // namespace

PrecisionChoice choose_precision(const ir::Bundle& b, const hls::NumberType& widest, double max_error,
                                 const hls::SweepOptions& sweep, const std::filesystem::path& work,
                                 const std::function<void(const std::string&)>& progress) {
  if (widest.kind != hls::NumberType::Fixed)
    throw Error("--max-error picks a fixed-point width: --type must be fixed<W,I>, not " + widest.name());
  std::vector<hls::NumberType> types;
  for (int w : kWidths)
    if (w < widest.width && w > widest.int_bits) types.push_back({hls::NumberType::Fixed, w, widest.int_bits});
  types.push_back(widest);
  const dataflow::Design d = dataflow::lower(b.graph);
  PrecisionChoice c{widest, {{"max_error", max_error}, {"tried", nlohmann::json::array()}}};
  hls::SweepOptions so = sweep;
  std::string errors;
  for (size_t i = 0; i < types.size(); ++i) {  // narrowest first: stop at the first within the bound
    const hls::NumberType& t = types[i];
    if (progress) progress(fmt::format("precision: C-simulating {} ({} of at most {})", t.name(), i + 1, types.size()));
    hls::SweepRow row = hls::precision_sweep(d, b, {t}, work, so).at(0);
    // The C simulation's own fixed-point criterion (tb_util.h): the scaled error.
    bool pass = row.completed && row.max_scaled_error >= 0 && row.max_scaled_error <= max_error;
    c.report["tried"].push_back({{"type", t.name()}, {"max_abs_error", row.max_abs_error},
                                 {"max_rel_error", row.max_rel_error}, {"max_scaled_error", row.max_scaled_error},
                                 {"pass", pass}});
    errors += fmt::format("{}{}: {:.3g}", errors.empty() ? "" : ", ", t.name(), row.max_scaled_error);
    if (!pass) continue;
    c.type = t;
    c.report["chosen"] = t.name();
    std::filesystem::remove_all(work);
    return c;
  }
  std::filesystem::remove_all(work);
  throw Error(fmt::format("no fixed-point width up to {} meets --max-error {:g} (max scaled error {})",
                          widest.name(), max_error, errors));
}

}  // namespace inrarch::driver
