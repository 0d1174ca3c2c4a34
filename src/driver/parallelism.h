// The dataflow stage of the compile flow with the architecture search: choose how far to
// merge the products that share a weight (passes/merge_shared_mm.h) and the parallelism of
// every mm under the part's budget (dataflow/dse.h), lower, put the chosen values on the
// design (dataflow::apply_parallelism, carried from the design searched), size the FIFOs,
// and cost the result (dataflow/resources.h). When the sized FIFOs push a searched design
// over the budget, the search runs again with their cost held back. Without the search
// (plan.dse false) the graph is lowered as it is, with plan.lower's uniform mm_par; with a
// plan (plan.h) the plan's block, merge and parallelism are used and nothing is searched.
// With plan.search_block the search also chooses the stream block (elements per beat):
// candidates 1, 2, 4, ... while a larger one widens some stream, each with its own
// parallelism search under the same budget; the fastest that fits is kept.
// On a large batch of independent rows (driver/rows.h), the search sees the graph at kSearchRows rows and
// the FIFOs are sized and proven on a prefix (dataflow/periodic.h): the cost of this stage
// does not grow with the batch.
#pragma once

#include <functional>
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "dataflow/design.h"
#include "dataflow/fifo_sizing.h"
#include "dataflow/part.h"
#include "dataflow/periodic.h"
#include "dataflow/report.h"
#include "dataflow/resources.h"
#include "driver/plan.h"
#include "ir/graph.h"

namespace inrarch::driver {

struct DataflowPlan {
  dataflow::LowerOptions lower;
  bool dse = true;
  // With dse: choose lower.block as well (docs/resources.md "The search"); else lower.block.
  bool search_block = false;
  int64_t merge = 0;  // products sharing a weight per merged kernel: 0 searched, 1 never merge
  dataflow::Part part;
  dataflow::Budget budget;
  dataflow::Arith arith;
  dataflow::SizingOptions sizing;
  // Rows: analyse a prefix of the batch (dataflow/periodic.h) when the graph's rows are
  // independent and the batch is more than twice rows.first_rows; `exact` resolves every
  // beat of the whole batch instead.
  bool exact = false;
  dataflow::RowOptions rows;
  std::function<void(const std::string&)> progress;
  // Instead of the search: a plan (plan.h, e.g. read from compile --plan FILE), `plan_source`
  // naming it in errors.
  std::optional<Plan> plan;
  std::string plan_source;
};

struct DataflowResult {
  ir::Graph graph;  // the graph the design lowers: g, with shared-weight products merged
  dataflow::Design design;
  dataflow::SizingResult sized;
  dataflow::Analysis analysis;  // at the sized depths, for the whole batch
  dataflow::Floor floor;
  dataflow::ResourceReport resources;  // at the sized depths
  // report.json's sections design, analysis, fifo, resources, floor, dse, as written (the
  // flow reads the typed fields above, never these).
  nlohmann::json report;
  int64_t rows = 0;       // the batch when rows are independent (passes/rebatch.h), else 0
  Plan plan;              // what was compiled, as a plan (OUT/plan.json)
};

DataflowResult build_dataflow(const ir::Graph& g, const DataflowPlan& plan);

}  // namespace inrarch::driver
