// FIFO sizing for B rows on a prefix (periodic.h): the prefix's event graph is what
// size_fifos searches, the periodic analysis is what proves and times the result.
#include <cmath>

#include <fmt/format.h>

#include "dataflow/memory.h"
#include "dataflow/periodic.h"

namespace inrarch::dataflow {

namespace {

// Sizing results are about the graph they ran on; restate the latencies for B rows.
void restate_for_rows(RowSizing& r, int64_t bound) {
  r.sized.peak_latency = r.peak.latency;
  r.sized.bound = bound;
  r.sized.latency = r.final.latency;
  r.sized.deadlock = r.final.deadlock;
  r.sized.final = r.final.resolution;
}

}  // namespace

RowSizing size_fifos_rows(const RowDesignBuilder& build, int64_t rows, const SizingOptions& opt,
                          const RowOptions& ropt) {
  RowSizing out;
  out.peak = analyze_peak(build, rows, ropt);
  if (out.peak.exact) {  // few rows: the full graph is the prefix
    EventGraph eg(build(rows));
    out.sized = size_fifos(eg, opt);
    out.attempts = 1;
    out.final = analyze_rows(build, rows, out.sized.depths, ropt);
    out.peak.latency = out.sized.peak_latency;
    restate_for_rows(out, out.sized.bound);
    return out;
  }
  const int64_t k = out.peak.rows_analysed;
  const auto bound = static_cast<int64_t>(std::floor((1.0 + opt.alpha) * double(out.peak.latency) + 1e-9));
  RowOptions at_k = ropt;
  at_k.first_rows = k;
  EventGraph eg(build(k));
  SizingOptions o = opt;
  for (; out.attempts < 3; ++out.attempts, o.alpha /= 4, o.reuse.clear()) {
    out.sized = size_fifos(eg, o);
    if (out.sized.deadlock) continue;
    out.final = analyze_rows(build, rows, out.sized.depths, at_k);
    if (!out.final.deadlock && out.final.latency <= bound) {
      ++out.attempts;
      restate_for_rows(out, bound);
      out.sized.alpha = opt.alpha;
      return out;
    }
    if (opt.progress)
      opt.progress(fmt::format("fifo: {} rows take {} cycles at these depths, over the bound {}; "
                               "sizing again with alpha {}", rows, out.final.latency, bound, o.alpha / 4));
  }
  // The depths the peak was analysed at meet the bound by definition.
  std::vector<int64_t> depths = out.peak.observed_depths;
  for (int64_t& d : depths) d = std::max(d, kShiftRegisterDepth);
  out.final = analyze_rows(build, rows, depths, at_k);
  out.sized.depths = depths;
  out.sized.alpha = opt.alpha;
  out.sized.memory = memory(eg.design(), depths);
  restate_for_rows(out, bound);
  return out;
}

}  // namespace inrarch::dataflow
