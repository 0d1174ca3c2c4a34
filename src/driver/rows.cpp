// Row plans and row-count-independent lowering (rows.h).
#include "driver/rows.h"

#include <algorithm>
#include <memory>

#include <fmt/format.h>

#include "dataflow/attributes.h"
#include "dataflow/lower.h"
#include "passes/rebatch.h"

namespace inrarch::driver {

using namespace dataflow;

RowPlan plan_rows(const ir::Graph& g, const RowOptions& ro, const std::string& exact_reason) {
  RowPlan r;
  std::string why;
  r.rows = passes::graph_rows(g, &why);
  if (!exact_reason.empty()) r.why_exact = exact_reason;
  else if (!r.rows) r.why_exact = why;
  else if (*r.rows <= 2 * first_prefix_rows(ro)) r.why_exact = fmt::format("{} rows: analysed whole", *r.rows);
  else r.periodic = true;
  r.search_rows = r.periodic ? std::min(*r.rows, kSearchRows) : r.rows.value_or(0);
  return r;
}

LowerOptions row_lowering(const ir::Graph& g, LowerOptions lo, const RowPlan& rp, const DesignPass& attrs) {
  if (lo.fanout != Fanout::Chain) return lo;
  LowerOptions at = lo;
  if (rp.periodic) {
    at.rows = rp.search_rows;
    lo.chain_order = std::make_shared<ChainOrder>(chain_order(passes::rebatch(g, rp.search_rows), at, attrs));
  } else if (attrs) {  // what lower_at_batch's lower() would choose, for the design with attrs
    at.rows = rp.rows.value_or(0);
    lo.chain_order = std::make_shared<ChainOrder>(chain_order(g, at, attrs));
  }
  return lo;
}

Design lower_at_batch(const ir::Graph& g, LowerOptions lo, const RowPlan& rp) {
  lo.rows = rp.rows.value_or(0);
  return lower(g, lo);
}

RowDesignBuilder row_builder(const ir::Graph& g, const LowerOptions& lo, DesignPass after_lower) {
  return [&g, lo, after_lower = std::move(after_lower)](int64_t rows) {
    LowerOptions at = lo;
    at.rows = rows;
    Design d = lower(passes::rebatch(g, rows), at);
    if (after_lower) after_lower(d);
    return d;
  };
}

DesignPass attributes_of(const Design& d) {
  auto from = std::make_shared<const Design>(d);
  return [from, par = parallelism_of(d)](Design& to) { apply_parallelism(to, carry_parallelism(par, *from, to)); };
}

}  // namespace inrarch::driver
