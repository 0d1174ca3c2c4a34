// The parallelism search (dse.h): balanced designs by target cycles, costed by the resource
// model, the fastest that fits evaluated on the event graph.
#include "dataflow/dse.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <optional>

#include <fmt/format.h>

#include "dataflow/elementwise.h"
#include "dataflow/event_graph.h"
#include "dataflow/resources_detail.h"
#include "dataflow/schedule.h"
#include "dataflow/verify.h"
#include "support/limits.h"

namespace inrarch::dataflow {

int64_t own_cycles(const Design& d, ProcessId p) {
  int64_t cycles = 0;
  for (const Run& r : schedule(d, p).runs) cycles += int64_t(r.count) * r.delay;
  return cycles;
}

void fold_elementwise(Design& d, int64_t target, const Arith& a) {
  for (size_t i = 0; i < d.processes.size(); ++i) {
    const Process& p = d.processes[i];
    if (!is_elementwise(p.kind)) continue;
    const detail::LaneCost lane = detail::lane_cost(p.op, a, d.options.fabric_elementwise_mul);
    const bool worth = lane.dsp > 0 || lane.table_words > 0 || lane.lut > 8 * int64_t{a.bits};
    const Stream& out = d.streams[p.outputs.at(0)];
    const int64_t beats = out.beats(), depth = elementwise_depth(d, p);
    int64_t fold = 1;
    while (worth && fold_fits(out.block, 2 * fold) && folded_cycles(beats, depth, 2 * fold) <= target)
      fold *= 2;
    set_ew_fold(d, ProcessId(i), fold);
  }
}

namespace {

// An mm's own cycles as a function of P: base + (rows - 1) * max(C, reads) + C + its pipeline
// depth at min(P, work) lanes, C = ceil(beats * work / P) (its schedule: a row's MAC cycles
// follow MmCadence and read the next A row, whose `reads` beats take at least one cycle
// each; the last write comes the depth after the last MAC cycle; everything else is
// P-independent), with `beats` the beats of a row of C and `work` = bC * K the MACs of one
// beat. `most` is the most P asked: work, or limits::kMaxParallel where a wide beat of a long
// product has more.
// An mm_reduce's (`reduce` set) are its MmReduceCadence's, and its least P a bisection.
struct MmCost {
  ProcessId process;
  int64_t base, rows, beats, work, most, inner, a_bits, b_bits;  // K, its operands' widths
  int64_t reads;  // a streamed A row's beats (0 for a constant A)
  std::optional<MmReduceCadence> reduce;

  int64_t depth(int64_t par) const { return mm_pipeline_depth(std::min(par, work), inner, a_bits, b_bits); }
  int64_t cycles(int64_t par) const {
    if (reduce) return reduce->cycles(par);
    const int64_t row = MmCadence{work, par}.done(beats);
    return base + (rows - 1) * std::max(row, reads) + row + depth(par);
  }
  // The least P whose cycles are <= target (`most` when the target is below reach).
  int64_t least_par(int64_t target) const {
    if (reduce) {  // cycles do not rise with P
      int64_t lo = 1, hi = most;
      while (lo < hi) {
        const int64_t mid = lo + (hi - lo) / 2;
        if (cycles(mid) <= target) hi = mid;
        else lo = mid + 1;
      }
      return lo;
    }
    // The closed form at the least depth (one lane's) is a lower bound, as the depth only
    // grows with P; from there, the first P that meets the target at its own depth.
    const int64_t per_row = rows > 0 ? (target - base - depth(1)) / rows : 0;
    if (per_row < beats) return most;
    for (int64_t p = std::max<int64_t>(1, (beats * work + per_row - 1) / per_row); p <= most; ++p)
      if (cycles(p) <= target) return p;
    return most;
  }
  // The least P >= p whose lanes are aligned with K (mm_lanes_aligned: the cheaper adder-tree
  // engine), at most `most`; p itself for an mm_reduce or when there is none.
  int64_t aligned_par(int64_t p) const {
    if (reduce) return p;
    for (int64_t q = p; q <= most; ++q)
      if (mm_lanes_aligned(std::min(q, work), inner)) return q;
    return p;
  }
};

std::vector<MmCost> mm_costs(const Design& d) {
  std::vector<MmCost> out;
  Design one = d;
  for (size_t p = 0; p < d.processes.size(); ++p) {
    if (!has_macs(d.processes[p].kind)) continue;
    auto pid = static_cast<ProcessId>(p);
    if (d.processes[p].kind == Kind::MmReduce) {
      const MmReduceCadence cad = mm_reduce_cadence(d, d.processes[p]);
      out.push_back({pid, 0, cad.rows, 1, cad.work, std::min(cad.work, limits::kMaxParallel), 1, d.options.elem_bits,
                     d.options.elem_bits, 0, cad});
      continue;
    }
    set_mm_par(one, pid, 1);
    const Stream& c = d.streams[d.processes[p].outputs.at(0)];
    int64_t K = d.processes[p].operands.at(0).shape.at(1);
    int64_t rows = c.shape.at(0), beats = c.beats() / rows, work = c.block * K;
    const auto [a_bits, b_bits] = mm_operand_bits(d, d.processes[p]);
    const StreamId a = d.processes[p].operands.at(0).stream;
    const int64_t reads = a >= 0 ? K / d.streams[a].block : 0;  // <= beats * work: no row waits at P = 1
    out.push_back({pid, own_cycles(one, pid) - rows * beats * work - mm_pipeline_depth(1, K, a_bits, b_bits), rows,
                   beats, work, std::min(work, limits::kMaxParallel), K, a_bits, b_bits, reads, std::nullopt});
  }
  return out;
}

// Every target some mm hits exactly (its cycles at each P), at or above `lo`, ascending.
std::vector<int64_t> targets(const std::vector<MmCost>& mms, int64_t lo) {
  std::vector<int64_t> t{lo};
  for (const MmCost& m : mms)
    for (int64_t par = 1; par <= m.most; ++par)
      if (m.cycles(par) >= lo) t.push_back(m.cycles(par));
  std::sort(t.begin(), t.end());
  t.erase(std::unique(t.begin(), t.end()), t.end());
  return t;
}

// The balanced design for `target`, on the search's working copy (a candidate: verified
// when the hook is on, verify.h): each mm at the least P that meets it, or where `rounded`
// says so, at the least aligned P from there (more MACs, far fewer registers and LUTs a MAC).
void apply(Design& d, const std::vector<MmCost>& mms, int64_t target, const std::vector<bool>& rounded,
           const DseOptions& o) {
  for (size_t i = 0; i < mms.size(); ++i) {
    const int64_t p = mms[i].least_par(target);
    set_mm_par(d, mms[i].process, rounded[i] ? mms[i].aligned_par(p) : p);
  }
  fold_elementwise(d, target, o.arith);
  if (verify_each()) verify(d, fmt::format("the search's candidate for {} cycles", target));
}

Capacity minus(Capacity c, const Usage& r) {
  return {c.dsp - r.dsp, c.bram18k - r.bram18k, c.uram - r.uram, c.lut - r.lut, c.ff - r.ff};
}

DsePoint cost(const Design& d, int64_t target, const DseOptions& o, const Capacity& cap) {
  ResourceReport r = estimate_unsized(d, o.arith, cap);
  return {target, 0, r.total, r.fits};
}

// The largest share of the budget a design takes, over every resource (1: all of one).
double peak_share(const Usage& u, const Capacity& cap) {
  auto share = [](int64_t use, int64_t have) {
    return use <= 0 ? 0.0 : have <= 0 ? HUGE_VAL : double(use) / double(have);
  };
  return std::max({share(u.dsp, cap.dsp), share(u.bram18k, cap.bram18k), share(u.uram, cap.uram),
                   share(u.lut, cap.lut), share(u.ff, cap.ff)});
}

}  // namespace

int64_t peak_latency(const Design& d) {
  EventGraph eg(d);
  Resolution r = eg.resolve(std::vector<int64_t>(d.streams.size(), kUnbounded));
  return r.deadlock ? -1 : r.latency;
}

namespace {

// The chosen target, then geometric steps up to the slowest design (every mm at P = 1).
std::vector<int64_t> front_targets(int64_t target, int64_t slowest, int points) {
  std::vector<int64_t> front{target};
  if (slowest <= target || points < 1) return front;
  double ratio = std::pow(double(slowest) / double(target), 1.0 / points);
  for (int k = 1; k <= points; ++k) {
    auto t = std::min(slowest, static_cast<int64_t>(std::llround(double(target) * std::pow(ratio, k))));
    if (t > front.back()) front.push_back(t);
  }
  return front;
}

// Which mms of the balanced design for `target` to round up to aligned lanes, so that it
// fits; nullopt if no choice does. Every mm rounded first (the aligned engine's registers
// and LUTs a MAC are far fewer). If that is over the budget and the design with none
// rounded (the fewest DSPs this target allows) is within it in DSPs, some mix may fit: one
// mm at a time goes back to its least P, the one that leaves the design's largest share of
// the budget smallest, until the design fits.
std::optional<std::vector<bool>> rounding_that_fits(Design& work, const std::vector<MmCost>& mms, int64_t target,
                                                    const DseOptions& o, const Capacity& cap, DseResult& res) {
  auto try_rounding = [&](const std::vector<bool>& rounded) {
    apply(work, mms, target, rounded, o);
    ++res.targets_checked;
    return cost(work, target, o, cap);
  };
  std::vector<bool> rounded(mms.size(), true);
  if (try_rounding(rounded).fits) return rounded;
  if (try_rounding(std::vector<bool>(mms.size(), false)).use.dsp > cap.dsp) return std::nullopt;
  for (;;) {
    std::optional<size_t> best;
    DsePoint best_point;
    for (size_t i = 0; i < mms.size(); ++i) {
      const int64_t p = mms[i].least_par(target);
      if (!rounded[i] || mms[i].aligned_par(p) == p) continue;
      rounded[i] = false;
      const DsePoint pt = try_rounding(rounded);
      rounded[i] = true;
      if (!best || (pt.fits && !best_point.fits) ||
          (pt.fits == best_point.fits && peak_share(pt.use, cap) < peak_share(best_point.use, cap))) {
        best = i;
        best_point = pt;
      }
    }
    if (!best) return std::nullopt;
    rounded[*best] = false;
    if (best_point.fits) return rounded;
  }
}

// The fastest target (index into ts) whose balanced design fits, with res.rounded set to
// the mms rounded up to aligned lanes; ts.size() if none.
size_t fastest_fitting(Design& work, const std::vector<MmCost>& mms, const std::vector<int64_t>& ts,
                       const DseOptions& o, const Capacity& cap, DseResult& res, std::vector<bool>& rounded) {
  for (size_t i = 0; i < ts.size(); ++i) {
    if (auto r = rounding_that_fits(work, mms, ts[i], o, cap, res)) {
      rounded = *r;
      return i;
    }
  }
  rounded.assign(mms.size(), false);
  return ts.size();
}

// A mix of rounded and least MACs fits a faster target than every mm rounded, but the
// prefix engine's lanes may still run slower on the event graph: the first target where
// every mm rounded fits is taken instead when its latency is lower.
size_t rounded_if_faster(Design& work, const std::vector<MmCost>& mms, const std::vector<int64_t>& ts, size_t found,
                         const DseOptions& o, const Capacity& cap, DseResult& res, std::vector<bool>& rounded) {
  const std::vector<bool> all(mms.size(), true);
  if (found >= ts.size() || rounded == all) return found;
  for (size_t i = found + 1; i < ts.size(); ++i) {
    apply(work, mms, ts[i], all, o);
    ++res.targets_checked;
    if (!cost(work, ts[i], o, cap).fits) continue;
    const int64_t all_latency = peak_latency(work);
    apply(work, mms, ts[found], rounded, o);
    res.evaluations += 2;
    if (all_latency < 0 || all_latency >= peak_latency(work)) return found;
    rounded = all;
    return i;
  }
  return found;
}

}  // namespace

bool prefer_fabric_mul(const Design& d, const DseOptions& o) {
  bool any = std::any_of(d.processes.begin(), d.processes.end(), [](const Process& p) {
    return is_elementwise(p.kind) && p.op == ir::Op::Mul;
  });
  if (!any) return false;
  Design one = d;
  one.options.fabric_elementwise_mul = true;
  for (size_t p = 0; p < one.processes.size(); ++p)
    if (has_macs(one.processes[p].kind)) set_mm_par(one, ProcessId(p), 1);
  const Capacity cap = capacity(o.part, o.budget);
  ResourceReport r = estimate_unsized(one, o.arith, cap);
  // The LUTs the MACs take if every DSP of the budget became a MAC lane.
  const int64_t mac_luts = cap.dsp / std::max<int64_t>(1, dsp_per_mac(o.arith)) * detail::mac_lane(o.arith).lut;
  return r.total.lut + mac_luts <= cap.lut;
}

DseResult search_parallelism(const Design& d, const DseOptions& o) {
  auto t0 = std::chrono::steady_clock::now();
  auto say = [&](const std::string& s) { if (o.progress) o.progress(s); };
  DseResult res;
  Design work = d;
  res.choice.fabric_elementwise_mul = prefer_fabric_mul(d, o);
  work.options.fabric_elementwise_mul = res.choice.fabric_elementwise_mul;
  fold_elementwise(work, 0, o.arith);  // no fold: every kernel at its fastest
  const std::vector<MmCost> mms = mm_costs(d);
  int64_t slowest = 0;
  for (size_t p = 0; p < work.processes.size(); ++p) {
    if (!has_macs(work.processes[p].kind))
      res.slowest_other = std::max(res.slowest_other, own_cycles(work, static_cast<ProcessId>(p)));
  }
  for (const MmCost& m : mms) slowest = std::max(slowest, m.cycles(1));
  slowest = std::max(slowest, res.slowest_other);
  // No target below what every kernel can reach: the slowest other kernel, and each mm
  // at its full parallelism (one beat a cycle).
  int64_t lo = res.slowest_other;
  for (const MmCost& m : mms) lo = std::max(lo, m.cycles(m.most));
  const Capacity cap = minus(capacity(o.part, o.budget), o.reserve);
  const std::vector<int64_t> ts = targets(mms, lo);
  say(fmt::format("dse: {} mm kernels, {} balanced targets from {} cycles", mms.size(), ts.size(), lo));
  std::vector<bool> rounded;
  size_t found = fastest_fitting(work, mms, ts, o, cap, res, rounded);
  found = rounded_if_faster(work, mms, ts, found, o, cap, res, rounded);
  for (size_t i = 0; i < mms.size(); ++i)
    if (rounded[i]) res.aligned_lanes.push_back(mms[i].process);
  if (!res.aligned_lanes.empty())
    say(fmt::format("dse: {} of {} mm kernels' MACs rounded up to lanes that divide their K or that K divides",
                    res.aligned_lanes.size(), mms.size()));
  res.fits = found < ts.size();
  const int64_t target = res.fits ? ts[found] : slowest;
  for (int64_t t : front_targets(target, slowest, o.front_points)) {
    apply(work, mms, t, rounded, o);
    DsePoint pt = cost(work, t, o, cap);
    pt.latency = peak_latency(work);
    ++res.evaluations;
    res.front.push_back(pt);
    say(fmt::format("dse: target {} cycles: latency {}, {} DSP{}", t, pt.latency, pt.use.dsp,
                    pt.fits ? "" : " (over budget)"));
  }
  apply(work, mms, target, rounded, o);
  for (const MmCost& m : mms) res.choice.mm_par.emplace_back(m.process, work.processes[m.process].mm_par);
  res.choice.ew_fold = parallelism_of(work).ew_fold;
  res.chosen = res.front.front();
  if (!res.fits)
    res.over = estimate_unsized(work, o.arith, cap).over;
  res.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return res;
}

}  // namespace inrarch::dataflow
