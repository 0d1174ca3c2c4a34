// The default derivative construction (derivative_mode.h): counted, not assumed, so a model
// or order where reverse mode is cheaper keeps it.
#include "driver/derivative_mode.h"

#include <fmt/format.h>

#include <functional>

#include "dataflow/lower.h"
#include "dataflow/resources.h"
#include "driver/rows.h"
#include "ir/interpreter.h"
#include "passes/pipeline.h"
#include "passes/rebatch.h"
#include "support/error.h"

namespace inrarch::driver {

namespace {

using autodiff::DerivativeMode;
using CountAt = std::function<int64_t(int64_t rows)>;

int64_t lowered_multiplies(ir::Bundle b) {
  passes::optimize_bundle(b);
  return dataflow::count_multiplies(dataflow::lower(b.graph));
}

// Every multiply of the graph works on a row-major operand or on a derived param, so the
// count is affine in the batch: counted at R and 2R rows, it is exact at any batch, and the
// cost of counting does not grow with it (docs/taylor.md "Default mode").
int64_t multiplies(int64_t batch, const CountAt& count_at) {
  constexpr int64_t R = kSearchRows;
  if (batch <= 2 * R) return count_at(batch);
  const int64_t at_r = count_at(R);
  const int64_t more = count_at(2 * R) - at_r;  // R rows' worth
  if (more < 0 || more % R != 0)
    throw Error(fmt::format("mode choice: {} multiplies at {} rows, {} at {}: not a count per row",
                            at_r, R, at_r + more, 2 * R));
  return at_r + (batch - R) * (more / R);
}

ModeChoice choose(const std::string& name, const std::function<int64_t(DerivativeMode)>& count) {
  ModeChoice c;
  if (name != "auto") {
    c.mode = autodiff::mode_from_name(name);
    return c;
  }
  c.chosen = true;
  c.reverse_multiplies = count(DerivativeMode::Reverse);
  c.taylor_multiplies = count(DerivativeMode::Taylor);
  if (c.taylor_multiplies < c.reverse_multiplies) c.mode = DerivativeMode::Taylor;
  return c;
}

ir::Graph derivative_graph(const ir::Graph& primal, const autodiff::TaylorSpec& spec, DerivativeMode mode) {
  return mode == DerivativeMode::Taylor ? autodiff::taylor(primal, spec) : autodiff::nested_reverse(primal, spec);
}

}  // namespace

nlohmann::json ModeChoice::json() const {
  return {{"rule", "fewer multiplies"}, {"reverse_multiplies", reverse_multiplies},
          {"taylor_multiplies", taylor_multiplies}};
}

ModeChoice choose_insp_mode(const std::string& name, const autodiff::SirenSpec& spec, int order) {
  return choose(name, [&](DerivativeMode mode) {
    return multiplies(spec.batch, [&](int64_t rows) {
      autodiff::SirenSpec at = spec;
      at.batch = rows;
      return lowered_multiplies(autodiff::build_insp_bundle(at, order, false, mode));
    });
  });
}

ModeChoice choose_bundle_mode(const std::string& name, const ir::Bundle& primal, const autodiff::TaylorSpec& spec) {
  std::string why;
  const std::optional<int64_t> batch = passes::graph_rows(primal.graph, &why);
  if (!batch) throw Error("mode choice: the rows of the graph are not independent samples: " + why);
  return choose(name, [&](DerivativeMode mode) {
    return multiplies(*batch, [&](int64_t rows) {
      const ir::Graph g = rows == *batch ? primal.graph : passes::rebatch(primal.graph, rows);
      return lowered_multiplies({derivative_graph(g, spec, mode), passes::first_rows(primal.inputs, *batch, rows),
                                 primal.params, {}});
    });
  });
}

ir::Bundle derive_in_mode(const ir::Bundle& primal, const autodiff::TaylorSpec& spec, DerivativeMode mode,
                          bool with_reference) {
  if (mode == DerivativeMode::Taylor) return autodiff::derive_bundle(primal, spec, with_reference);
  ir::Bundle b{autodiff::nested_reverse(primal.graph, spec), primal.inputs, primal.params, {}};
  if (!with_reference) return b;
  const ir::Graph taylor = autodiff::taylor(primal.graph, spec);
  std::vector<ir::Tensor> values = ir::evaluate(taylor, primal.inputs, primal.params);
  for (size_t i = 0; i < values.size(); ++i) b.reference[taylor.outputs()[i].name] = std::move(values[i]);
  return b;
}

}  // namespace inrarch::driver
