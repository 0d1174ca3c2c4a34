// The default derivative construction (derivative_mode.h): counted, not assumed, so a model
// or order where reverse mode is cheaper keeps it.
#include "driver/derivative_mode.h"

#include <fmt/format.h>

#include "dataflow/lower.h"
#include "dataflow/resources.h"
#include "driver/rows.h"
#include "passes/pipeline.h"
#include "support/error.h"

namespace inrarch::driver {

namespace {

int64_t multiplies_at(autodiff::SirenSpec spec, int64_t rows, int order, autodiff::DerivativeMode mode) {
  spec.batch = rows;
  ir::Bundle b = autodiff::build_insp_bundle(spec, order, false, mode);
  passes::optimize_bundle(b);
  return dataflow::count_multiplies(dataflow::lower(b.graph));
}

// Every multiply of the graph works on a row-major operand or on a derived param, so the
// count is affine in the batch: counted at R and 2R rows, it is exact at any batch, and the
// cost of counting does not grow with it (docs/taylor.md "Default mode").
int64_t multiplies(const autodiff::SirenSpec& spec, int order, autodiff::DerivativeMode mode) {
  constexpr int64_t R = kSearchRows;
  if (spec.batch <= 2 * R) return multiplies_at(spec, spec.batch, order, mode);
  const int64_t at_r = multiplies_at(spec, R, order, mode);
  const int64_t more = multiplies_at(spec, 2 * R, order, mode) - at_r;  // R rows' worth
  if (more < 0 || more % R != 0)
    throw Error(fmt::format("mode choice: {} multiplies at {} rows, {} at {}: not a count per row",
                            at_r, R, at_r + more, 2 * R));
  return at_r + (spec.batch - R) * (more / R);
}

}  // namespace

nlohmann::json ModeChoice::json() const {
  return {{"rule", "fewer multiplies"}, {"reverse_multiplies", reverse_multiplies},
          {"taylor_multiplies", taylor_multiplies}};
}

ModeChoice choose_insp_mode(const std::string& name, const autodiff::SirenSpec& spec, int order) {
  ModeChoice c;
  if (name != "auto") {
    c.mode = autodiff::mode_from_name(name);
    return c;
  }
  c.chosen = true;
  c.reverse_multiplies = multiplies(spec, order, autodiff::DerivativeMode::Reverse);
  c.taylor_multiplies = multiplies(spec, order, autodiff::DerivativeMode::Taylor);
  if (c.taylor_multiplies < c.reverse_multiplies) c.mode = autodiff::DerivativeMode::Taylor;
  return c;
}

}  // namespace inrarch::driver
