// The FIFO sizing's history (SizingResult::history, set_by): its last step is the result,
// checked against figures worked out here from the depths (bits, RAMs) and by the stepped
// simulator (latency); min's shrink phases never add memory; every deep FIFO names the
// phase that set it.
#include <gtest/gtest.h>

#include <algorithm>

#include "autodiff/models.h"
#include "dataflow/event_graph.h"
#include "dataflow/fifo_sizing.h"
#include "dataflow/lower.h"
#include "dataflow/periodic.h"
#include "dataflow/simulate.h"
#include "passes/pipeline.h"

namespace inrarch::dataflow {
namespace {

Design insp_design(int64_t rows, int order, LowerOptions lo = {}) {
  autodiff::SirenSpec spec;
  spec.dims = {2, 16, 16, 3};
  spec.batch = rows;
  ir::Bundle b = autodiff::build_insp_bundle(spec, order, false);
  passes::optimize_bundle(b);
  lo.rows = rows;
  return lower(b.graph, lo);
}

// Bits (depth × beat width, summed) and RAM FIFOs of the depths, counted here.
std::pair<int64_t, int64_t> bits_and_deep(const Design& d, const std::vector<int64_t>& depths) {
  int64_t bits = 0, deep = 0;
  for (size_t s = 0; s < depths.size(); ++s) {
    bits += depths[s] * d.streams[s].width_bits();
    deep += depths[s] > 2;
  }
  return {bits, deep};
}

size_t step_named(const SizingResult& r, const std::string& phase) {
  for (size_t i = 0; i < r.history.size(); ++i)
    if (r.history[i].phase == phase) return i;
  return r.history.size();
}

void expect_last_step_is_the_result(const Design& d, const SizingResult& r, int64_t latency) {
  ASSERT_FALSE(r.history.empty());
  const SizingStep& last = r.history.back();
  const auto [bits, deep] = bits_and_deep(d, r.depths);
  EXPECT_EQ(last.bits, bits);
  EXPECT_EQ(last.deep_fifos, deep);
  EXPECT_EQ(last.bram18k, r.memory.bram18k);
  ASSERT_TRUE(last.latency.has_value());
  EXPECT_EQ(*last.latency, latency);
  EXPECT_EQ(last.resolves, r.resolves);
  for (size_t i = 1; i < r.history.size(); ++i) {
    EXPECT_GE(r.history[i].resolves, r.history[i - 1].resolves) << r.history[i].phase;
    EXPECT_GE(r.history[i].seconds, r.history[i - 1].seconds) << r.history[i].phase;
  }
}

// Every stream names a step; a depth other than the unbounded run's was not set by the
// peak; a FIFO deeper than 2 was made so by a phase that chooses depths, not by the
// start's choice, the final resolve or the check on all rows.
void expect_deep_fifos_set_by_a_phase(const SizingResult& r) {
  ASSERT_EQ(r.set_by.size(), r.depths.size());
  for (size_t s = 0; s < r.depths.size(); ++s) {
    ASSERT_GE(r.set_by[s], 0);
    ASSERT_LT(size_t(r.set_by[s]), r.history.size());
    const std::string& phase = r.history[r.set_by[s]].phase;
    // The peak's depths are what the unbounded run observes: another depth came later.
    if (!r.unbounded_observed.empty() && r.depths[s] != std::max<int64_t>(2, r.unbounded_observed[s])) {
      EXPECT_NE(phase, "peak") << s;
    }
    if (r.depths[s] <= 2) continue;
    EXPECT_NE(phase, "final") << s;
    EXPECT_NE(phase, "start") << s;
    EXPECT_NE(phase, "rows") << s;
  }
}

TEST(SizingHistory, MinEndsAtTheResultAndItsShrinkPhasesNeverAddMemory) {
  for (Fanout f : {Fanout::Star, Fanout::Chain}) {
    LowerOptions lo;
    lo.fanout = f;
    const Design d = insp_design(6, 1, lo);
    EventGraph eg(d);
    const SizingResult r = size_fifos(eg, SizingOptions{});
    ASSERT_FALSE(r.deadlock);
    const SimResult sim = simulate(d, eg.programs(), r.depths);
    ASSERT_FALSE(sim.deadlock);
    expect_last_step_is_the_result(d, r, sim.latency);
    expect_deep_fifos_set_by_a_phase(r);
    EXPECT_EQ(r.history.front().phase, "peak");
    ASSERT_TRUE(r.history.front().latency.has_value());
    EXPECT_EQ(*r.history.front().latency, r.peak_latency);
    // The shrink phases run from the chosen start to the largest-first shrink, in order.
    const size_t start = step_named(r, "start"), largest = step_named(r, "largest");
    ASSERT_LT(start, largest);
    EXPECT_EQ(r.history[start + 1].phase, "small to 2");
    EXPECT_EQ(r.history[start + 2].phase, "bram steps");
    for (size_t i = start + 1; i <= largest; ++i) {
      EXPECT_LE(r.history[i].bits, r.history[i - 1].bits) << r.history[i].phase;
      EXPECT_LE(r.history[i].bram18k, r.history[i - 1].bram18k) << r.history[i].phase;
    }
    EXPECT_EQ(r.history[largest].bits, r.history.back().bits);
    EXPECT_LT(step_named(r, "unbounded alap 1"), start);
    EXPECT_LT(step_named(r, "greedy"), start);
  }
}

TEST(SizingHistory, PaperNoneAndReusedHaveTheirOwnPhases) {
  const Design d = insp_design(6, 1);
  EventGraph eg(d);
  SizingOptions o;
  o.method = FifoMethod::Paper;
  const SizingResult paper = size_fifos(eg, o);
  ASSERT_EQ(paper.history.size(), 3u);
  EXPECT_EQ(paper.history[1].phase, "paper greedy");
  expect_last_step_is_the_result(d, paper, simulate(d, eg.programs(), paper.depths).latency);
  expect_deep_fifos_set_by_a_phase(paper);

  o.method = FifoMethod::Min;
  o.reuse = paper.depths;
  const SizingResult reused = size_fifos(eg, o);
  ASSERT_TRUE(reused.reused);
  ASSERT_EQ(reused.history.size(), 3u);
  EXPECT_EQ(reused.history[1].phase, "reused");
  EXPECT_EQ(reused.history.back().bits, paper.history.back().bits);

  o.method = FifoMethod::None;
  o.reuse.clear();
  const SizingResult none = size_fifos(eg, o);
  ASSERT_TRUE(none.deadlock);  // all at 2 deadlocks this design
  ASSERT_EQ(none.history.size(), 3u);
  EXPECT_EQ(none.history[1].phase, "none");
  EXPECT_EQ(none.history.back().deep_fifos, 0);
  EXPECT_FALSE(none.history.back().latency.has_value());  // a deadlock has none
}

// On a prefix of the rows, the history ends with the check on all of them: its latency is
// the whole batch's, resolved here in full.
TEST(SizingHistory, APrefixEndsWithTheCheckOnAllRows) {
  const int64_t rows = 200;
  LowerOptions lo;
  lo.mm_par = 4;  // kernels whose rows repeat soon: a period on a short prefix
  auto build = [&lo](int64_t r) { return insp_design(r, 1, lo); };
  const RowSizing rs = size_fifos_rows(build, rows, SizingOptions{});
  ASSERT_FALSE(rs.sized.deadlock);
  ASSERT_FALSE(rs.final.exact) << rs.final.note;
  ASSERT_FALSE(rs.peak.exact) << rs.peak.note;
  const Design full = build(rows);
  EventGraph eg(full);
  const Resolution r = eg.resolve(rs.sized.depths);
  ASSERT_FALSE(r.deadlock);
  const SizingStep& last = rs.sized.history.back();
  EXPECT_EQ(last.phase, "rows");
  EXPECT_EQ(last.rows, rows);
  ASSERT_TRUE(last.latency.has_value());
  EXPECT_EQ(*last.latency, r.latency);
  EXPECT_EQ(last.bits, bits_and_deep(full, rs.sized.depths).first);
  EXPECT_EQ(last.bram18k, rs.sized.memory.bram18k);
  EXPECT_LT(rs.sized.history.front().rows, rows);  // the phases ran on the prefix
  expect_deep_fifos_set_by_a_phase(rs.sized);
}

}  // namespace
}  // namespace inrarch::dataflow
