// FIFO sizing for B rows on a prefix (periodic.h): the prefix's event graph is what
// size_fifos searches, the periodic analysis is what proves and times the result.
#include <chrono>
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

// The sizing's history over every attempt on a prefix (SizingResult::history).
struct History {
  std::vector<SizingStep> steps;
  std::chrono::steady_clock::time_point start = std::chrono::steady_clock::now();
  double seconds() const {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  }
};

// Puts attempt s's steps after the earlier attempts' (resolves and seconds counted on from
// theirs, `began` seconds in) and adds a "rows" step: its depths analysed on all the rows.
// s.history becomes the whole history and s.set_by points into it.
void add_attempt(History& h, SizingResult& s, double began, const RowAnalysis& all, const std::string& why) {
  const auto offset = static_cast<int16_t>(h.steps.size());
  const int64_t resolves = h.steps.empty() ? 0 : h.steps.back().resolves;
  for (SizingStep st : s.history) {
    st.resolves += resolves, st.seconds += began;
    h.steps.push_back(std::move(st));
  }
  for (int16_t& at : s.set_by) at = static_cast<int16_t>(at + offset);
  SizingStep check = h.steps.back();
  check.phase = "rows";
  check.why = why;
  check.rows = all.rows;
  check.latency = all.deadlock ? std::nullopt : std::optional<int64_t>(all.latency);
  check.seconds = h.seconds();
  h.steps.push_back(std::move(check));
  s.history = h.steps;
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
  History history;
  for (const Attempt& at : attempts) {
    if (at.rows != eg_rows) {
      eg = std::make_unique<EventGraph>(build(at.rows));
      eg_rows = at.rows;
    }
    SizingOptions o = opt;
    o.alpha = at.alpha;
    if (out.attempts > 0) o.reuse.clear();
    ++out.attempts;
    const double began = history.seconds();
    out.sized = size_fifos(*eg, o);
    if (out.sized.deadlock) continue;
    RowOptions from = ropt;
    from.first_rows = at.rows;
    out.final = analyze_rows(build, rows, out.sized.depths, from);
    const bool holds = !out.final.deadlock && out.final.latency <= bound;
    add_attempt(history, out.sized, began, out.final,
                holds ? fmt::format("the depths sized on {} rows, analysed on all {}: latency = fill + ({} - 1) x "
                                    "period, within the bound {}", at.rows, rows, rows, bound)
                      : fmt::format("the depths sized on {} rows, analysed on all {}: over the bound {}; sized again",
                                    at.rows, rows, bound));
    if (holds) {
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
  out.sized.set_by.assign(depths.size(), static_cast<int16_t>(history.steps.size()));
  SizingStep step{"peak depths", "no sizing held on all the rows: the depths the peak's analysis observed (within "
                  "the bound by definition)", out.sized.memory.fifo_bits, out.sized.memory.bram18k, 0, std::nullopt,
                  rows, history.steps.empty() ? 0 : history.steps.back().resolves, history.seconds()};
  for (int64_t d : depths) step.deep_fifos += d > kShiftRegisterDepth;
  if (!out.final.deadlock) step.latency = out.final.latency;
  history.steps.push_back(std::move(step));
  out.sized.history = std::move(history.steps);
  restate_for_rows(out, bound);
  return out;
}

}  // namespace inrarch::dataflow
