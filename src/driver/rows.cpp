// Row plans and row-count-independent lowering (rows.h).
#include "driver/rows.h"

#include <algorithm>
#include <memory>

#include <fmt/format.h>

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

LowerOptions row_lowering(const ir::Graph& g, LowerOptions lo, const RowPlan& rp) {
  if (rp.periodic && lo.fanout == Fanout::Chain) {
    LowerOptions at = lo;
    at.rows = rp.search_rows;
    lo.chain_order = std::make_shared<ChainOrder>(chain_order(passes::rebatch(g, rp.search_rows), at));
  }
  return lo;
}

Design lower_at_batch(const ir::Graph& g, LowerOptions lo, const RowPlan& rp) {
  lo.rows = rp.rows.value_or(0);
  return lower(g, lo);
}

RowDesignBuilder row_builder(const ir::Graph& g, const LowerOptions& lo) {
  return [&g, lo](int64_t rows) {
    LowerOptions at = lo;
    at.rows = rows;
    return lower(passes::rebatch(g, rows), at);
  };
}

}  // namespace inrarch::driver
