// The default derivative construction (derivative_mode.h): counted, not assumed, so a model
// or order where reverse mode is cheaper keeps it.
#include "driver/derivative_mode.h"

#include "dataflow/lower.h"
#include "dataflow/resources.h"
#include "passes/pipeline.h"

namespace inrarch::driver {

namespace {

int64_t multiplies(const autodiff::SirenSpec& spec, int order, autodiff::DerivativeMode mode) {
  ir::Bundle b = autodiff::build_insp_bundle(spec, order, false, mode);
  passes::optimize_bundle(b);
  return dataflow::count_multiplies(dataflow::lower(b.graph));
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
