// Periodic analysis (periodic.h has the argument). The prefix's programs are expanded to
// steps once: at k rows they are small, and step-by-step comparison is what the argument
// needs (the k and k+1 programs agree up to an inserted row body).
#include "dataflow/periodic.h"

#include <algorithm>
#include <memory>

#include <fmt/format.h>

#include "support/error.h"

namespace inrarch::dataflow {

namespace {

struct StepView {
  uint32_t delay;
  const FifoOp* ops;
  uint32_t count;
  bool operator==(const StepView& o) const {
    return delay == o.delay && count == o.count && std::equal(ops, ops + count, o.ops);
  }
};

std::vector<StepView> step_views(const Program& prog) {
  std::vector<StepView> out;
  out.reserve(prog.steps());
  for (const Run& r : prog.runs)
    for (uint32_t i = 0; i < r.count; ++i) out.push_back({r.delay, prog.ops.data() + r.op_begin, r.op_count});
  return out;
}

int64_t common_head(const std::vector<StepView>& a, const std::vector<StepView>& b) {
  size_t n = 0;
  while (n < a.size() && n < b.size() && a[n] == b[n]) ++n;
  return static_cast<int64_t>(n);
}

int64_t common_tail(const std::vector<StepView>& a, const std::vector<StepView>& b) {
  size_t n = 0;
  while (n < a.size() && n < b.size() && a[a.size() - 1 - n] == b[b.size() - 1 - n]) ++n;
  return static_cast<int64_t>(n);
}

bool same_structure(const Design& a, const Design& b) {
  if (a.processes.size() != b.processes.size() || a.streams.size() != b.streams.size()) return false;
  for (size_t i = 0; i < a.processes.size(); ++i)
    if (a.processes[i].name != b.processes[i].name) return false;
  for (size_t i = 0; i < a.streams.size(); ++i)
    if (a.streams[i].name != b.streams[i].name) return false;
  return true;
}

// Beats with a time <= t in an increasing list of times.
int64_t count_upto(std::span<const uint32_t> times, int64_t t) {
  if (t < 0) return 0;
  return std::upper_bound(times.begin(), times.end(), static_cast<uint64_t>(t),
                          [](uint64_t v, uint32_t x) { return v < x; }) - times.begin();
}

// The state of a resolved run at cycle t (periodic.h): compared shifted by one row.
struct State {
  std::vector<int64_t> steps, age, written, read, recent;
};

}  // namespace

RowPrefix::RowPrefix(const RowDesignBuilder& build, int64_t k) : build_(build), k_(k) {
  INRARCH_ASSERT(k >= 1, "row prefix needs a row");
  Design dk = build(k);
  std::vector<Program> pk = schedule_all(dk);
  size_t P = dk.processes.size();
  max_delay_.resize(P);
  steps_.resize(P);
  for (size_t p = 0; p < P; ++p) {
    steps_[p] = pk[p].steps();
    int64_t d = 1;
    for (const Run& r : pk[p].runs) d = std::max<int64_t>(d, r.delay);
    max_delay_[p] = d;
  }
  eg_ = std::make_unique<EventGraph>(std::move(dk), std::move(pk));
  const Growth& row = growth(1);
  // Any stream with beats in every row marks rows; a source's keeps the cuts near row starts.
  const Design& d = eg_->design();
  for (const Process& p : d.processes)
    if (p.kind == Kind::Source && clock_stream_ < 0 && row.beats[p.outputs.at(0)] > 0)
      clock_stream_ = p.outputs[0];
  for (size_t s = 0; s < d.streams.size() && clock_stream_ < 0; ++s)
    if (row.beats[s] > 0) clock_stream_ = static_cast<StreamId>(s);
}

const RowPrefix::Growth& RowPrefix::growth(int64_t m) const {
  if (growth_.size() <= size_t(m)) growth_.resize(m + 1);
  if (growth_[m]) return *growth_[m];
  const Design& dk = eg_->design();
  Design dm = build_(k_ + m);
  if (!same_structure(dk, dm))
    throw Error(fmt::format("periodic analysis: the design at {} and {} rows has other processes or streams", k_,
                            k_ + m));
  std::vector<Program> pm = schedule_all(dm);
  auto g = std::make_unique<Growth>();
  for (size_t p = 0; p < dk.processes.size(); ++p) {
    std::vector<StepView> a = step_views(eg_->programs()[p]), b = step_views(pm[p]);
    g->steps.push_back(int64_t(b.size()) - int64_t(a.size()));
    g->head.push_back(common_head(a, b));
    g->tail.push_back(common_tail(a, b));
  }
  for (size_t s = 0; s < dk.streams.size(); ++s) g->beats.push_back(dm.streams[s].beats() - dk.streams[s].beats());
  growth_[m] = std::move(g);
  return *growth_[m];
}

bool RowPrefix::programs_repeat(const std::vector<int64_t>& s1, const std::vector<int64_t>& s2, int64_t m) const {
  const Growth& g = growth(m);
  for (size_t p = 0; p < s1.size(); ++p)
    if (s2[p] - s1[p] != g.steps[p] || s2[p] > g.head[p] || steps_[p] - s1[p] > g.tail[p]) return false;
  return true;
}

namespace {

// Step times of every process from the resolved beat times: a step fires at the time of
// any of its ops (the first), and a process's n-th access to a stream is beat n.
std::vector<std::vector<uint32_t>> step_times(const EventGraph& eg) {
  const Design& d = eg.design();
  std::vector<int64_t> wn(d.streams.size()), rn(d.streams.size());
  std::vector<std::vector<uint32_t>> out(d.processes.size());
  for (size_t p = 0; p < d.processes.size(); ++p) {
    const Program& prog = eg.programs()[p];
    for (const Run& r : prog.runs) {
      const FifoOp* ops = prog.ops.data() + r.op_begin;
      for (uint32_t i = 0; i < r.count; ++i) {
        const FifoOp& first = ops[0];
        out[p].push_back(first.write ? eg.write_times(first.stream)[wn[first.stream]]
                                     : eg.read_times(first.stream)[rn[first.stream]]);
        for (uint32_t j = 0; j < r.op_count; ++j) ++(ops[j].write ? wn : rn)[ops[j].stream];
      }
    }
  }
  return out;
}

State state_at(const EventGraph& eg, const std::vector<std::vector<uint32_t>>& times,
               const std::vector<int64_t>& max_delay, int64_t t) {
  State st;
  for (size_t p = 0; p < times.size(); ++p) {
    int64_t n = count_upto(times[p], t);
    st.steps.push_back(n);
    st.age.push_back(std::min(max_delay[p], n ? t - int64_t(times[p][n - 1]) : t));
  }
  for (size_t s = 0; s < eg.design().streams.size(); ++s) {
    auto w = eg.write_times(static_cast<StreamId>(s));
    int64_t w0 = count_upto(w, t), w1 = count_upto(w, t - 1), w2 = count_upto(w, t - 2);
    st.written.push_back(w0);
    st.read.push_back(count_upto(eg.read_times(static_cast<StreamId>(s)), t));
    st.recent.push_back((w0 - w1) * 2 + (w1 - w2));
  }
  return st;
}

}  // namespace

std::optional<Period> RowPrefix::period(int64_t rows) const {
  if (clock_stream_ < 0) return std::nullopt;
  const EventGraph& eg = *eg_;
  auto clock = eg.write_times(clock_stream_);
  const Growth& row = growth(1);
  const int64_t b = row.beats[clock_stream_];
  if (int64_t(clock.size()) != k_ * b) return std::nullopt;  // not a complete resolve
  std::vector<std::vector<uint32_t>> times = step_times(eg);
  // The state shifted by m rows, by the per-row counts; the programs are checked after.
  auto shifted = [&](const State& x, const State& y, int64_t m) {
    for (size_t p = 0; p < x.steps.size(); ++p)
      if (y.steps[p] - x.steps[p] != m * row.steps[p] || x.age[p] != y.age[p]) return false;
    for (size_t s = 0; s < x.written.size(); ++s)
      if (y.written[s] - x.written[s] != m * row.beats[s] || y.read[s] - x.read[s] != m * row.beats[s] ||
          x.recent[s] != y.recent[s])
        return false;
    return true;
  };
  std::vector<State> at_row(k_);  // at each row's start, from row 1
  for (int64_t r = 1; r < k_; ++r) at_row[r] = state_at(eg, times, max_delay_, clock[r * b]);
  std::optional<Period> misaligned;
  for (int64_t r = 1; r + 1 < k_; ++r)
    for (int64_t m = 1; m <= kMaxPeriodRows && r + m < k_; ++m) {
      if (misaligned && (rows - k_) % m != 0) continue;
      if (!shifted(at_row[r], at_row[r + m], m) || !programs_repeat(at_row[r].steps, at_row[r + m].steps, m))
        continue;
      Period per{clock[(r + m) * b] - clock[r * b], m, r, clock[r * b], clock[(r + m) * b]};
      if ((rows - k_) % m == 0) return per;
      misaligned = per;
    }
  return misaligned;
}

bool RowPrefix::deadlock_carries_over(const Resolution& r) const {
  if (!r.deadlock || r.cycle.empty()) return false;
  for (const BlockedOp& b : r.cycle)
    if (b.step + growth(1).steps[b.process] > growth(1).head[b.process]) return false;
  return true;
}

namespace {

RowAnalysis exact_rows(const RowDesignBuilder& build, int64_t rows, const std::vector<int64_t>& depths,
                       const RowOptions& opt, std::string note) {
  Design d = build(rows);
  int64_t beats = 0;
  for (const Stream& s : d.streams) beats += s.beats();
  if (beats > opt.exact_beats_limit)
    throw Error(fmt::format("periodic analysis: {}; the full analysis of {} rows would resolve "
                            "{} beats (limit {})", note, rows, beats, opt.exact_beats_limit));
  EventGraph eg(d);
  RowAnalysis a;
  a.exact = true;
  a.rows = a.rows_analysed = rows;
  a.events = eg.events();
  a.fifo_ops = eg.fifo_ops();
  a.resolution = eg.resolve(depths);
  a.deadlock = a.resolution.deadlock;
  a.latency = a.fill = a.resolution.latency;
  if (!a.deadlock) a.observed_depths = eg.observed_depths();
  a.note = std::move(note);
  return a;
}

}  // namespace

std::string closed_form(int64_t fill, int64_t rows, int64_t period, int64_t period_rows) {
  if (period_rows == 1) return fmt::format("{} + ({} - 1) x {}", fill, rows, period);
  return fmt::format("{} + floor(({} - 1) / {}) x {}", fill, rows, period_rows, period);
}

int64_t first_prefix_rows(const RowOptions& opt) { return std::max<int64_t>(opt.first_rows, 3); }

namespace {

// B rows from a prefix resolved at `depths`, when it proves them: a repeating state, or a
// deadlock that larger row counts share. A state that repeats every m rows, m not dividing
// B - k, sets `realign` to the prefix whose B - k it divides.
std::optional<RowAnalysis> conclude(RowPrefix& pre, int64_t rows, const std::vector<int64_t>& depths,
                                    int64_t* realign = nullptr) {
  Resolution res = pre.graph().resolve(depths);
  RowAnalysis a;
  a.rows = rows;
  a.rows_analysed = pre.rows();
  a.events = pre.graph().events();
  a.fifo_ops = pre.graph().fifo_ops();
  if (res.deadlock) {
    if (!pre.deadlock_carries_over(res)) return std::nullopt;
    a.deadlock = true;
    a.latency = res.latency;
    a.resolution = std::move(res);
    return a;
  }
  std::optional<Period> per = pre.period(rows);
  if (!per) return std::nullopt;
  const int64_t k = pre.rows(), m = per->rows;
  if ((rows - k) % m != 0) {
    if (realign) *realign = k + (rows - k) % m;
    return std::nullopt;
  }
  a.period = per->cycles;
  a.period_rows = m;
  a.fill = res.latency - (k - 1) / m * per->cycles;
  a.latency = a.fill + (rows - 1) / m * per->cycles;
  a.observed_depths = pre.graph().observed_depths();
  a.resolution = std::move(res);
  a.resolution.latency = a.latency;
  return a;
}

// Prefixes of k, 2k, ... rows (the first one given, when it is), then the whole batch.
RowAnalysis analyze_from(const RowDesignBuilder& build, int64_t rows, const std::vector<int64_t>& depths,
                         const RowOptions& opt, std::unique_ptr<RowPrefix> first) {
  int64_t k = first ? first->rows() : first_prefix_rows(opt);
  for (; 2 * k <= rows; k *= 2) {
    std::unique_ptr<RowPrefix> pre = first ? std::move(first) : std::make_unique<RowPrefix>(build, k);
    int64_t realign = 0;
    if (std::optional<RowAnalysis> a = conclude(*pre, rows, depths, &realign)) return *a;
    if (realign == 0) continue;
    RowPrefix aligned(build, realign);
    if (std::optional<RowAnalysis> a = conclude(aligned, rows, depths)) return *a;
  }
  std::string note = k == first_prefix_rows(opt) ? fmt::format("{} rows: fewer than twice the first prefix", rows)
                                            : fmt::format("no repeating state within {} rows", k / 2);
  return exact_rows(build, rows, depths, opt, std::move(note));
}

}  // namespace

RowAnalysis analyze_rows(const RowDesignBuilder& build, int64_t rows,
                         const std::vector<int64_t>& depths, const RowOptions& opt) {
  if (rows < 1) throw Error("periodic analysis: rows must be >= 1");
  return analyze_from(build, rows, depths, opt, nullptr);
}

namespace {

// Whether `depths` keep the unbounded pace on `rows` rows: no deadlock and no later finish.
bool keeps_unbounded_pace(const RowDesignBuilder& build, int64_t rows, const std::vector<int64_t>& depths) {
  EventGraph eg(build(rows));
  const Resolution at = eg.resolve(depths);
  return !at.deadlock && at.latency <= eg.resolve(std::vector<int64_t>(depths.size(), kUnbounded)).latency;
}

}  // namespace

RowAnalysis analyze_peak(const RowDesignBuilder& build, int64_t rows, const RowOptions& opt) {
  // The depths a k-row unbounded run observes; longer prefixes are tried at the same
  // depths, which throttle the sources to their steady fill. Where one branch of a fork
  // lags the other by more than k rows, the short branch must hold more than k rows: the
  // k-row depths slow (or deadlock) 2k rows, and those of 2k rows are tried instead.
  for (int64_t k = first_prefix_rows(opt); 2 * k <= rows; k *= 2) {
    auto pre = std::make_unique<RowPrefix>(build, k);
    Resolution r = pre->graph().resolve(std::vector<int64_t>(pre->design().streams.size(), kUnbounded));
    if (r.deadlock) throw Error("periodic analysis: the design deadlocks with unbounded FIFOs");
    std::vector<int64_t> depths = pre->graph().observed_depths();
    for (int64_t& d : depths) d = std::max(d, kShiftRegisterDepth);
    if (!keeps_unbounded_pace(build, std::min(2 * k, rows), depths)) continue;
    RowOptions from = opt;
    from.first_rows = k;
    RowAnalysis a = analyze_from(build, rows, depths, from, std::move(pre));
    if (!a.deadlock) return a;
  }
  // Few rows, or no prefix's depths hold the batch: the peak at unbounded depths.
  Design d = build(rows);
  return analyze_rows(build, rows, std::vector<int64_t>(d.streams.size(), kUnbounded), opt);
}

}  // namespace inrarch::dataflow
