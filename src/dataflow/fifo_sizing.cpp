// FIFO sizing algorithms; see fifo_sizing.h. The invariant behind every shortcut: we keep a
// feasible schedule X (write/read times satisfying all edges of the current depths) whose
// largest time is <= bound. If X also satisfies the WAR edges of a smaller depth vector D'
// (i.e. observed_X(s) <= D'[s] for every s; RAW delays only shrink when depths drop to 2),
// then X is feasible for D', so D' has no cycle (every cycle holds a WAR edge of delay 1
// and cannot be satisfied) and its latency, the least feasible schedule, is <= bound.
#include "dataflow/fifo_sizing.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <numeric>
#include <optional>
#include <span>

#include <fmt/format.h>

#include "support/error.h"

namespace inrarch::dataflow {

const char* method_name(FifoMethod m) {
  switch (m) {
    case FifoMethod::None: return "none";
    case FifoMethod::Paper: return "paper";
    case FifoMethod::Min: return "min";
  }
  return "?";
}

FifoMethod method_from_name(const std::string& s) {
  if (s == "none") return FifoMethod::None;
  if (s == "paper") return FifoMethod::Paper;
  if (s == "min") return FifoMethod::Min;
  throw Error("unknown FIFO sizing method '" + s + "' (none, paper, min)");
}

namespace {

using Clock = std::chrono::steady_clock;

struct Ctx {
  EventGraph& eg;
  const SizingOptions& opt;
  SizingResult res;
  Clock::time_point start = Clock::now(), last_note = Clock::now();

  double elapsed() const { return std::chrono::duration<double>(Clock::now() - start).count(); }
  int64_t work = 0;  // FIFO ops of every resolve so far: the deterministic budget's clock
  // The last depths a resolve finished (no deadlock, no abort), and its latency: a history step at
  // exactly these depths knows its latency without another resolve.
  std::vector<int64_t> resolved{};
  int64_t resolved_latency = 0;
  Resolution resolve(const std::vector<int64_t>& d, int64_t abort_above = INT64_MAX) {
    ++res.resolves;
    work += eg.fifo_ops();
    Resolution r = eg.resolve(d, ResolveOptions{abort_above});
    if (!r.deadlock && !r.aborted) resolved = d, resolved_latency = r.latency;
    return r;
  }
  // The history's trail on the current branch (min tries two starts and keeps one): the
  // depths of its last step and which step set each stream.
  struct Trail {
    std::vector<int64_t> depths;
    std::vector<int16_t> set_by;
  } trail{};
  void restore(Trail t) { trail = std::move(t); }
  // Appends a history step for the finite depths d; the streams whose depth differs from the
  // trail's were set by it.
  void step(std::string phase, std::string why, const std::vector<int64_t>& d,
            std::optional<int64_t> latency = std::nullopt) {
    const MemoryReport m = memory(eg.design(), d);
    SizingStep st{std::move(phase), std::move(why), m.fifo_bits, m.bram18k, 0, latency,
                  eg.design().options.rows, res.resolves, elapsed()};
    st.deep_fifos = std::count_if(d.begin(), d.end(), [](int64_t x) { return x > kShiftRegisterDepth; });
    if (!st.latency && d == resolved) st.latency = resolved_latency;
    const auto at = static_cast<int16_t>(res.history.size());
    trail.set_by.resize(d.size(), at);
    for (size_t s = 0; s < d.size(); ++s)
      if (trail.depths.empty() || d[s] != trail.depths[s]) trail.set_by[s] = at;
    trail.depths = d;
    res.history.push_back(std::move(st));
  }
  bool ok(const Resolution& r) const { return !r.deadlock && !r.aborted && r.latency <= res.bound; }
  void say(const std::string& line) const {
    if (opt.progress) opt.progress(fmt::format("fifo {}: {}", method_name(opt.method), line));
  }
  void note(const char* phase, size_t i, size_t n) {
    if (!opt.progress || std::chrono::duration<double>(Clock::now() - last_note).count() < 1.0) return;
    last_note = Clock::now();
    say(fmt::format("{} {}/{}, {} resolves, {:.1f} s", phase, i, n, res.resolves, elapsed()));
  }
  int64_t bits(const std::vector<int64_t>& d, size_t s) const {
    return fifo_bits(eg.design().streams[s], d[s]);
  }
};

// The constrained set resolved to observed depths (the end of both greedy starts).
std::vector<int64_t> resolve_to_observed(Ctx& c, std::vector<int64_t> d) {
  Resolution r = c.resolve(d);
  INRARCH_ASSERT(c.ok(r), "greedy sizing: accepted constraints violate the bound");
  std::vector<int64_t> obs = c.eg.observed_depths();
  for (size_t s = 0; s < d.size(); ++s) d[s] = std::max<int64_t>(kShiftRegisterDepth, obs[s]);
  return d;
}

// Paper's greedy over the streams in `order` (paper: design order); returns the
// constrained set resolved to observed depths.
std::vector<int64_t> greedy(Ctx& c, TimeSnapshot x, const std::vector<size_t>& order) {
  size_t S = c.eg.design().streams.size();
  std::vector<int64_t> d(S, kUnbounded);
  for (size_t i = 0; i < S; ++i) {
    size_t s = order[i];
    c.note("stream", i, S);
    if (c.eg.observed_depth(x, static_cast<StreamId>(s)) <= kShiftRegisterDepth) {  // certified by x
      d[s] = kShiftRegisterDepth;
      ++c.res.certified;
      continue;
    }
    d[s] = kShiftRegisterDepth;
    if (c.ok(c.resolve(d, c.res.bound))) c.eg.swap_snapshot(x);
    else d[s] = kUnbounded;
  }
  return resolve_to_observed(c, std::move(d));
}

// Tries depth 2 on `group` at once (one resolve); a failing group is halved, first half
// first. Streams the feasible schedule x already keeps within 2 need no resolve. Returns
// whether every stream of the group was accepted.
bool try_group(Ctx& c, TimeSnapshot& x, std::vector<int64_t>& d, std::span<const size_t> group) {
  std::vector<size_t> open;
  for (size_t s : group) {
    if (c.eg.observed_depth(x, static_cast<StreamId>(s)) <= kShiftRegisterDepth) d[s] = kShiftRegisterDepth, ++c.res.certified;
    else open.push_back(s);
  }
  if (open.empty()) return true;
  for (size_t s : open) d[s] = kShiftRegisterDepth;
  if (c.ok(c.resolve(d, c.res.bound))) {
    c.eg.swap_snapshot(x);
    return true;
  }
  for (size_t s : open) d[s] = kUnbounded;
  if (open.size() > 1) {
    const size_t half = open.size() / 2;
    try_group(c, x, d, std::span<const size_t>(open).first(half));
    try_group(c, x, d, std::span<const size_t>(open).subspan(half));
  }
  return false;
}

// min's greedy start: the greedy in `order`, tried a group of streams at a time. Each
// accepted group is checked by a resolve with everything accepted before, as in the greedy.
// The group doubles after a success (up to kMaxGreedyGroup) and halves after a failure, so
// long runs of streams that fit cost one resolve per group, and the rejects few more than
// one each. Past greedy_fifo_ops the remaining streams stay unconstrained (a large design's
// certificates and shrinking still size them).
constexpr size_t kMaxGreedyGroup = 64;
// FIFOs up to this deep are tried at the register depth in groups after the certificates
// (many small FIFOs, each a whole BRAM18K pair, are what the unbounded start leaves).
constexpr int64_t kSmallFifoDepth = 16;
std::vector<int64_t> grouped_greedy(Ctx& c, TimeSnapshot x, const std::vector<size_t>& order) {
  size_t S = c.eg.design().streams.size(), size = 1;
  std::vector<int64_t> d(S, kUnbounded);
  const int64_t w0 = c.work;
  std::string spent;
  for (size_t i = 0; i < S;) {
    c.note("stream", i, S);
    if (c.work - w0 > c.opt.greedy_fifo_ops) {
      spent = fmt::format("greedy budget spent at stream {}/{}", i, S);
      c.say(spent);
      break;
    }
    size_t n = std::min(size, S - i);
    bool all = try_group(c, x, d, std::span<const size_t>(order).subspan(i, n));
    i += n;
    size = all ? std::min(2 * size, kMaxGreedyGroup) : std::max<size_t>(1, size / 2);
  }
  d = resolve_to_observed(c, std::move(d));
  c.step("greedy", "greedy from the unbounded schedule, the copies' consumer-side outputs first, in growing "
                   "groups: a stream stays at 2 when the latency keeps within the bound, the rest as observed" +
                       (spent.empty() ? "" : " (" + spent + ")"), d);
  return d;
}

// Shrinks d to what schedule x (null: the last resolve) observes (never below 2 or above d).
bool shrink_to(const Ctx& c, const TimeSnapshot* x, std::vector<int64_t>& d) {
  bool changed = false;
  for (size_t s = 0; s < d.size(); ++s) {
    auto id = static_cast<StreamId>(s);
    int64_t o = std::max<int64_t>(kShiftRegisterDepth, x ? c.eg.observed_depth(*x, id) : c.eg.observed_depth(id));
    if (o < d[s]) d[s] = o, changed = true;
  }
  return changed;
}

int64_t total_bits(const Ctx& c, const std::vector<int64_t>& d) {
  int64_t b = 0;
  for (size_t s = 0; s < d.size(); ++s) b += d[s] == kUnbounded ? INT64_MAX / 1024 : c.bits(d, s);
  return b;
}

// ALAP/ASAP certificate iteration from a feasible depth vector d (<= bound): each round
// shrinks d to what the latest-start and then the earliest schedule observe. `start` names
// the depths it began from in the history.
void certify(Ctx& c, EventGraph& mirror, std::vector<int64_t>& d, const char* start) {
  for (int round = 0; round < 8; ++round) {
    c.note("certificate round", round, 8);
    ++c.res.resolves;
    Resolution m = mirror.resolve(d);
    INRARCH_ASSERT(!m.deadlock, "min sizing: mirrored graph deadlocks");
    TimeSnapshot alap = c.eg.alap_snapshot(mirror, c.res.bound);
    bool changed = shrink_to(c, &alap, d);
    Resolution r = c.resolve(d);
    INRARCH_ASSERT(c.ok(r), "min sizing: ALAP certificate violated");
    if (changed)
      c.step(fmt::format("{} alap {}", start, round + 1),
             "ALAP certificate: the latest-start schedule within the bound is feasible, so the depths it "
             "observes are safe for all streams at once", d);
    const bool asap = shrink_to(c, nullptr, d);
    if (asap)
      c.step(fmt::format("{} asap {}", start, round + 1),
             "ASAP certificate: the earliest schedule of the depths so far is feasible, so the depths it "
             "observes are safe for all streams at once", d);
    if (!changed && !asap) break;
  }
}

// The shrink phase's budget counts resolved FIFO ops, not seconds, so the result does not
// depend on the machine or its load.
bool out_of_time(const Ctx& c, int64_t w0) { return c.work - w0 > c.opt.shrink_fifo_ops; }

// Tries depth 2 for a group of streams at once, halving the group on failure.
void try_twos(Ctx& c, std::vector<int64_t>& d, std::vector<size_t> group, int64_t w0) {
  if (group.empty() || out_of_time(c, w0)) return;
  std::vector<int64_t> keep = d;
  for (size_t s : group) d[s] = kShiftRegisterDepth;
  if (c.ok(c.resolve(d, c.res.bound))) {
    shrink_to(c, nullptr, d);
    return;
  }
  d = keep;
  if (group.size() == 1) return;
  size_t half = group.size() / 2;
  try_twos(c, d, {group.begin(), group.begin() + half}, w0);
  try_twos(c, d, {group.begin() + half, group.end()}, w0);
}

// Greedy shrinking, largest FIFO first: depth 2, else binary search in [3, d) (above 2 a
// deeper FIFO only drops WAR edges: feasibility and latency are monotone there).
void shrink_largest(Ctx& c, std::vector<int64_t>& d, int64_t w0) {
  size_t S = d.size();
  std::vector<size_t> order(S);
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(),
                   [&](size_t a, size_t b) { return c.bits(d, a) > c.bits(d, b); });
  for (size_t i = 0; i < S && !out_of_time(c, w0); ++i) {
    size_t s = order[i];
    c.note("shrink", i, S);
    int64_t lo = kShiftRegisterDepth, hi = d[s];  // invariant: hi feasible; depths < lo known infeasible
    while (lo < hi && !out_of_time(c, w0)) {
      int64_t cand = lo == kShiftRegisterDepth ? kShiftRegisterDepth : lo + (hi - lo) / 2;
      d[s] = cand;
      if (c.ok(c.resolve(d, c.res.bound))) {
        shrink_to(c, nullptr, d);
        hi = d[s];
      } else {
        d[s] = hi;
        lo = cand == kShiftRegisterDepth ? kShiftRegisterDepth + 1 : cand + 1;
      }
    }
  }
}

// The largest depth below d whose FIFO needs fewer BRAM18K (BRAM18K is monotone in depth),
// or d when none does (a shift register).
int64_t below_bram_step(const Stream& st, int64_t d) {
  int64_t w = st.width_bits(), b = fifo_bram18k(w, d);
  if (b == 0) return d;
  int64_t lo = kShiftRegisterDepth, hi = d;  // fifo_bram18k(w, lo) < b == fifo_bram18k(w, hi)
  while (hi - lo > 1) {
    int64_t mid = lo + (hi - lo) / 2;
    (fifo_bram18k(w, mid) < b ? lo : hi) = mid;
  }
  return lo;
}

// BRAM18K pass: FIFOs a little above a BRAM18K step (e.g. depth 1025 = 4 blocks at 32 bits,
// 1024 = 2) try the depth just below it; the smallest relative cuts first, up to a quarter
// of the depth (a deeper cut of a lag buffer rarely fits the bound).
void shrink_bram(Ctx& c, std::vector<int64_t>& d, int64_t w0) {
  const auto& streams = c.eg.design().streams;
  std::vector<std::pair<double, size_t>> cand;
  for (size_t s = 0; s < d.size(); ++s) {
    int64_t to = below_bram_step(streams[s], d[s]);
    double cut = double(d[s] - to) / double(d[s]);
    if (to < d[s] && cut <= 0.25) cand.push_back({cut, s});
  }
  std::sort(cand.begin(), cand.end());
  for (size_t i = 0; i < cand.size() && !out_of_time(c, w0); ++i) {
    size_t s = cand[i].second;
    int64_t keep = d[s];
    d[s] = below_bram_step(streams[s], d[s]);  // d may have shrunk since
    if (d[s] < keep && c.ok(c.resolve(d, c.res.bound))) shrink_to(c, nullptr, d);
    else d[s] = keep;
  }
}

std::vector<size_t> design_order(size_t S) {
  std::vector<size_t> o(S);
  std::iota(o.begin(), o.end(), 0);
  return o;
}

// The greedy's order for min: the copies' consumer-side outputs first (design order among
// them), then the rest. Pinning those at depth 2 leaves a fan-out's lag to the streams in
// front of the copies, where on a chain (Fanout::Chain) it is held once per lag step
// instead of once per consumer; the paper's design order pins the chain links first (the
// unbounded schedule certifies them) and so ends up buffering like a star.
std::vector<size_t> min_order(const Design& d) {
  std::vector<size_t> o = design_order(d.streams.size());
  std::stable_partition(o.begin(), o.end(), [&](size_t s) {
    return d.processes[d.streams[s].producer].kind == Kind::Copy &&
           d.processes[d.streams[s].consumer].kind != Kind::Copy;
  });
  return o;
}

// BRAM18K first (the scarce resource on the FPGA), then bits. Both vectors are finite.
bool cheaper(const Ctx& c, const std::vector<int64_t>& x, const std::vector<int64_t>& y) {
  MemoryReport mx = memory(c.eg.design(), x), my = memory(c.eg.design(), y);
  return mx.bram18k != my.bram18k ? mx.bram18k < my.bram18k : mx.fifo_bits <= my.fifo_bits;
}

std::vector<int64_t> min_depths(Ctx& c, TimeSnapshot peak_times) {
  size_t S = c.eg.design().streams.size();
  EventGraph mirror = c.eg.mirrored();
  std::vector<int64_t> a(S, kUnbounded);
  const Ctx::Trail from_peak = c.trail;
  certify(c, mirror, a, "unbounded");
  const Ctx::Trail from_a = c.trail;
  std::vector<int64_t> b = a;
  if (c.opt.min_greedy_start) {
    c.restore(from_peak);
    b = grouped_greedy(c, std::move(peak_times), min_order(c.eg.design()));
    certify(c, mirror, b, "greedy");
  }
  // Shrinking below never raises BRAM18K (monotone in depth), so the choice here bounds it.
  const bool take_a = cheaper(c, a, b);
  std::vector<int64_t> d = take_a ? a : b;
  if (c.opt.min_greedy_start) {
    if (take_a) c.restore(from_a);
    c.step("start", fmt::format("of the two starts, the one with fewer BRAM18K (then bits): {}",
                                take_a ? "from unbounded" : "the greedy"), d);
  }
  int64_t w0 = c.work;
  std::vector<size_t> small;
  for (size_t s = 0; s < S; ++s)
    if (d[s] > kShiftRegisterDepth && d[s] <= kSmallFifoDepth) small.push_back(s);
  try_twos(c, d, small, w0);
  c.step("small to 2", fmt::format("{} FIFOs of depth 3 to {} tried at 2 in groups (a failing group halved), "
                                   "each try a resolve within the bound", small.size(), kSmallFifoDepth), d);
  shrink_bram(c, d, w0);
  c.step("bram steps", "FIFOs up to 25% above a BRAM18K step tried just below it", d);
  int64_t grouped = total_bits(c, d);
  shrink_largest(c, d, w0);
  c.step("largest", std::string("the largest FIFOs first: depth 2, else a binary search, each try a resolve within "
                                "the bound") + (out_of_time(c, w0) ? " (its budget of FIFO ops spent)" : ""), d);
  c.say(fmt::format("bits (BRAM18K) from unbounded {} ({}), greedy {} ({}), small to 2 + BRAM "
                    "steps {}, shrunk {} ({})", total_bits(c, a), memory(c.eg.design(), a).bram18k,
                    total_bits(c, b), memory(c.eg.design(), b).bram18k, grouped, total_bits(c, d),
                    memory(c.eg.design(), d).bram18k));
  return d;
}

}  // namespace

SizingResult size_fifos(EventGraph& eg, const SizingOptions& opt) {
  Ctx c{eg, opt, {}};
  c.res.method = opt.method;
  c.res.alpha = opt.alpha;
  size_t S = eg.design().streams.size();
  Resolution peak = c.resolve(std::vector<int64_t>(S, kUnbounded));
  TimeSnapshot x = eg.snapshot();
  if (peak.deadlock) {  // a cycle without WAR edges: no depths help
    c.res.deadlock = true;
    c.res.final = peak;
    c.res.depths.assign(S, kShiftRegisterDepth);
    c.res.memory = memory(eg.design(), c.res.depths);
    c.step("peak", "every FIFO unbounded deadlocks (a cycle without WAR edges): no depth helps; all left at 2",
           c.res.depths);
    c.res.set_by = c.trail.set_by;
    return c.res;
  }
  c.res.peak_latency = peak.latency;
  c.res.bound = static_cast<int64_t>(std::floor((1.0 + opt.alpha) * double(peak.latency) + 1e-9));
  c.res.unbounded_observed = eg.observed_depths();
  std::vector<int64_t> observed = c.res.unbounded_observed;
  for (int64_t& o : observed) o = std::max(o, kShiftRegisterDepth);
  c.step("peak", fmt::format("every FIFO unbounded: the peak latency ({} cycles, bound {}), and the depths "
                             "it observes", peak.latency, c.res.bound), observed, peak.latency);
  if (opt.reuse.size() == S && c.ok(c.resolve(opt.reuse, c.res.bound))) {
    c.res.depths = opt.reuse;  // still deadlock-free within the bound: one resolve, no search
    c.res.reused = true;
    c.step("reused", "depths sized earlier for a design with the same streams still hold: one resolve", c.res.depths);
  } else {
    switch (opt.method) {
      case FifoMethod::None:
        c.res.depths.assign(S, kShiftRegisterDepth);
        c.step("none", "every FIFO at the register depth 2, not sized", c.res.depths);
        break;
      case FifoMethod::Paper:
        c.res.depths = greedy(c, std::move(x), design_order(S));
        c.step("paper greedy", "the paper's greedy in design order: a stream stays at 2 when the latency keeps "
                               "within the bound; then every depth as observed", c.res.depths);
        break;
      case FifoMethod::Min: c.res.depths = min_depths(c, std::move(x)); break;
    }
  }
  c.res.final = c.resolve(c.res.depths);
  c.res.deadlock = c.res.final.deadlock;
  c.res.latency = c.res.final.latency;
  if (opt.method != FifoMethod::None)
    INRARCH_ASSERT(c.ok(c.res.final), "FIFO sizing result violates the latency bound");
  c.res.memory = memory(eg.design(), c.res.depths);
  c.res.seconds = c.elapsed();
  c.step("final", c.res.deadlock ? "the result resolved: it deadlocks"
                                 : fmt::format("the result resolved: deadlock-free, latency within the bound {}",
                                               c.res.bound),
         c.res.depths);
  c.res.set_by = c.trail.set_by;
  c.say(fmt::format("done, {} resolves ({} certified), {:.2f} s", c.res.resolves, c.res.certified,
                    c.res.seconds));
  return c.res;
}

}  // namespace inrarch::dataflow
