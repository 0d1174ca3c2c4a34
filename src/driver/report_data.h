// The data of the HTML report that report.json does not hold: the design's processes and
// streams, and what they do over time, from the event graph resolved at the design's
// depths (dataflow/activity.h). `compile` writes it as OUT/activity.json; `analyze
// --report` builds it in memory. Its size is bounded: the run in at most `bins` bins, the
// occupancy of a few streams.
//
// When the analysis ran on a prefix of the rows (report.json's analysis.rows_analysed,
// dataflow/periodic.h), the times are those of the prefix: the same design lowered at that
// many rows, resolved at the same depths; every state of the whole batch's run is one the
// prefix passes through.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "dataflow/design.h"
#include "dataflow/fifo_sizing.h"
#include "dataflow/report.h"
#include "ir/graph.h"

namespace inrarch::driver {

inline constexpr const char* kActivityFile = "activity.json";

struct ReportDataOptions {
  int64_t bins = 200;          // the run's cycles in at most this many bins
  size_t occupancy_streams = 8;  // the deepest streams (and those on a deadlock cycle)
  // Paper's greedy (the "paper" depth column) is run when the resolved graph has at most
  // this many FIFO ops: a fraction of a second (INSP order 1), not the seconds of order 2.
  int64_t paper_fifo_ops = 2'000'000;
};

// What the data file needs of the analysis and the FIFO sizing.
struct ReportInputs {
  std::optional<int64_t> rows;           // the batch (none: rows not independent)
  std::optional<int64_t> rows_analysed;  // set when the analysis ran on a prefix of the rows
  double alpha = dataflow::SizingOptions{}.alpha;  // fifo.alpha: of the paper's greedy column
  std::vector<std::string> set_by;       // per stream, the sizing phase that last set its depth
};

// The compile flow's: from its typed analysis and sizing.
ReportInputs report_inputs(const dataflow::Design& d, const dataflow::Analysis& a, const dataflow::SizingResult& s);
// `inrarch report` and `analyze --report`'s: from report.json or analyze's JSON, of which
// `analysis` (exact, rows, rows_analysed) and `fifo` (alpha, set_by) are read.
ReportInputs report_inputs(const dataflow::Design& d, const nlohmann::json& sections);

// `g`: the graph the design lowers (its rows rebuilt for a prefix). Keys: docs/report_html.md.
nlohmann::json report_data(const ir::Graph& g, const dataflow::Design& d, const ReportInputs& in,
                           const ReportDataOptions& opt = {});

// report_data written to out_dir/activity.json.
void write_report_data(const std::filesystem::path& out_dir, const ir::Graph& g, const dataflow::Design& d,
                       const ReportInputs& in);

}  // namespace inrarch::driver
