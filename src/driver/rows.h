// How a graph is analysed over its batch, and its designs at any number of rows: shared by
// the compile flow (parallelism.h) and `inrarch analyze`, so both lower and analyse alike.
//
// A graph whose rows are independent (passes::graph_rows) is analysed on a prefix of the
// batch (dataflow/periodic.h) when the batch is more than twice the first prefix; otherwise,
// or when asked, every beat is resolved. Its designs at any row count have the same
// processes, streams and blocks: one chain order (computed at `search_rows`) and blocks from
// one sample (LowerOptions::rows).
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>

#include "dataflow/periodic.h"
#include "ir/graph.h"

namespace inrarch::driver {

// Rows the search evaluates designs at: enough for the pipeline to fill and run steadily.
inline constexpr int64_t kSearchRows = 64;

struct RowPlan {
  std::optional<int64_t> rows;  // the batch, when rows are independent
  bool periodic = false;        // analysed on a prefix
  std::string why_exact;        // else why every beat is resolved
  int64_t search_rows = 0;      // rows of the graph the search sees (0: rows not independent)
};

// exact_reason: when not empty, every beat is resolved and this is the reason reported.
RowPlan plan_rows(const ir::Graph& g, const dataflow::RowOptions& ro, const std::string& exact_reason);

// A design pass run on each fresh lowering: the attributes a search or plan chose
// (dataflow/attributes.h).
using DesignPass = std::function<void(dataflow::Design&)>;

// `lo` for g's designs at any row count: chain order fixed when the plan is periodic. With
// `attrs` (the designs' attributes, put on each lowering), the chain order is the one for
// the design with them, periodic or not (dataflow::chain_order: the consumers' lags depend
// on the kernels' MACs).
dataflow::LowerOptions row_lowering(const ir::Graph& g, dataflow::LowerOptions lo, const RowPlan& rp,
                                    const DesignPass& attrs = {});
// The design of g at the batch, and the builder of g's design at any row count (each
// lowering then passed through `after_lower`, when given).
dataflow::Design lower_at_batch(const ir::Graph& g, dataflow::LowerOptions lo, const RowPlan& rp);
dataflow::RowDesignBuilder row_builder(const ir::Graph& g, const dataflow::LowerOptions& lo,
                                       DesignPass after_lower = {});
// The pass that gives another lowering of d's graph d's attributes (its mm MACs and
// multiplier binding, carried by dataflow::carry_parallelism).
DesignPass attributes_of(const dataflow::Design& d);

}  // namespace inrarch::driver
