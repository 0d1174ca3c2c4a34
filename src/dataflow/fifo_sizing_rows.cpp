// FIFO sizing for B rows on a prefix (periodic.h): the prefix's event graph is what
// size_fifos searches, the periodic analysis is what proves and times the result.
#include <cmath>
#include <memory>

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

// Few rows (or no period): the whole batch is the prefix.
RowSizing size_whole(const RowDesignBuilder& build, int64_t rows, const SizingOptions& opt,
                     const RowOptions& ropt, RowSizing out) {
  EventGraph eg(build(rows));
  out.sized = size_fifos(eg, opt);
  out.attempts = 1;
  out.final = analyze_rows(build, rows, out.sized.depths, ropt);
  out.peak.latency = out.sized.peak_latency;
  restate_for_rows(out, out.sized.bound);
  return out;
}

}  // namespace

RowSizing size_fifos_rows(const RowDesignBuilder& build, int64_t rows, const SizingOptions& opt,
                          const RowOptions& ropt) {
  RowSizing out;
  out.peak = analyze_peak(build, rows, ropt);
  if (out.peak.exact) return size_whole(build, rows, opt, ropt, std::move(out));
  const auto bound = static_cast<int64_t>(std::floor((1.0 + opt.alpha) * double(out.peak.latency) + 1e-9));
  // Sizing costs what its prefix costs: try the shortest prefix first (its depths usually
  // hold the steady state too), then the one the peak needed, then with less slack.
  const int64_t k = out.peak.rows_analysed;
  const int64_t shortest = std::min(k, first_prefix_rows(ropt));
  struct Attempt {
    int64_t rows;
    double alpha;
  };
  std::vector<Attempt> attempts;
  if (shortest < k) attempts.push_back({shortest, opt.alpha});
  for (double a = opt.alpha; attempts.size() < 4; a /= 4) attempts.push_back({k, a});
  std::unique_ptr<EventGraph> eg;
  int64_t eg_rows = 0;
  for (const Attempt& at : attempts) {
    if (at.rows != eg_rows) {
      eg = std::make_unique<EventGraph>(build(at.rows));
      eg_rows = at.rows;
    }
    SizingOptions o = opt;
    o.alpha = at.alpha;
    if (out.attempts > 0) o.reuse.clear();
    ++out.attempts;
    out.sized = size_fifos(*eg, o);
    if (out.sized.deadlock) continue;
    RowOptions from = ropt;
    from.first_rows = at.rows;
    out.final = analyze_rows(build, rows, out.sized.depths, from);
    if (!out.final.deadlock && out.final.latency <= bound) {
      restate_for_rows(out, bound);
      out.sized.alpha = opt.alpha;
      return out;
    }
    if (opt.progress)
      opt.progress(fmt::format("fifo: sized on {} rows, {} rows take {} cycles, over the bound {}; sizing again",
                               at.rows, rows, out.final.latency, bound));
  }
  // The depths the peak was analysed at meet the bound by definition.
  std::vector<int64_t> depths = out.peak.observed_depths;
  for (int64_t& d : depths) d = std::max(d, kShiftRegisterDepth);
  RowOptions at_k = ropt;
  at_k.first_rows = k;
  out.final = analyze_rows(build, rows, depths, at_k);
  out.sized.depths = depths;
  out.sized.alpha = opt.alpha;
  out.sized.memory = memory(eg->design(), depths);
  restate_for_rows(out, bound);
  return out;
}

}  // namespace inrarch::dataflow
