// The periodic analysis against the full resolve: on random row-periodic designs (many of
// which deadlock) and on INSP, the analysis of a prefix must give the full run's deadlock
// verdict, latency and observed depths exactly.
#include <gtest/gtest.h>

#include <random>

#include <fmt/format.h>

#include "autodiff/models.h"
#include "dataflow/lower.h"
#include "dataflow/memory.h"
#include "dataflow/periodic.h"
#include "passes/pipeline.h"

namespace inrarch::dataflow {
namespace {

// A random design whose processes run a per-row program: a random interleaving of one
// row's ops on each of its streams, grouped into random steps with random delays. Each
// stream has a lag of 0 or 1 rows at its process: a lag-1 stream's ops of row r + 1 share
// the body with the lag-0 streams' ops of row r (as an mm reads the next A row while it
// writes the current C row), so programs are head + body x (rows - 1) + tail.
struct RandomRowDesign {
  struct PatStep {
    int delay;
    std::vector<std::pair<StreamId, bool>> ops;  // (stream, write)
  };
  struct Stream_ {
    int producer, consumer, beats_per_row;
  };
  std::vector<Stream_> streams;
  std::vector<std::vector<PatStep>> body;  // per process
  std::vector<std::vector<bool>> lag;      // per process, per stream (of that process)
  int procs = 0;

  explicit RandomRowDesign(std::mt19937& rng) {
    auto pick = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
    procs = pick(2, 5);
    int S = pick(1, 6);
    for (int s = 0; s < S; ++s) {
      int a = pick(0, procs - 1), b = pick(0, procs - 2);
      if (b >= a) ++b;
      streams.push_back({a, b, pick(1, 3)});
    }
    body.resize(procs);
    lag.assign(procs, std::vector<bool>(S, false));
    for (int p = 0; p < procs; ++p) {
      std::vector<std::pair<StreamId, bool>> seq;
      for (int s = 0; s < S; ++s)
        for (int side = 0; side < 2; ++side) {
          bool write = side == 0;
          if ((write ? streams[s].producer : streams[s].consumer) != p) continue;
          lag[p][s] = pick(0, 2) == 0;
          for (int n = 0; n < streams[s].beats_per_row; ++n) seq.push_back({s, write});
        }
      std::shuffle(seq.begin(), seq.end(), rng);
      for (const auto& op : seq) {
        bool clash = false;
        if (!body[p].empty())
          for (const auto& o : body[p].back().ops) clash = clash || o.first == op.first;
        if (body[p].empty() || clash || pick(0, 1) == 0) body[p].push_back({pick(1, 3), {}});
        body[p].back().ops.push_back(op);
      }
    }
  }

  Design at(int64_t rows) const {
    Design d;
    for (int p = 0; p < procs; ++p) {
      Process pr;
      pr.name = "p" + std::to_string(p);
      d.add_process(pr);
    }
    for (size_t s = 0; s < streams.size(); ++s)
      d.add_stream(Stream{"s" + std::to_string(s), streams[s].producer, streams[s].consumer, 0,
                          {rows * streams[s].beats_per_row}, 1, 2, 32});
    for (int p = 0; p < procs; ++p) {
      auto emit = [&](bool keep_lag0, bool keep_lag1) {
        for (const PatStep& ps : body[p]) {
          Step st{ps.delay, {}};
          for (auto [s, w] : ps.ops)
            if (lag[p][s] ? keep_lag1 : keep_lag0) st.ops.push_back({s, w});
          if (!st.ops.empty()) d.processes[p].custom_steps.push_back(st);
        }
      };
      emit(false, true);  // head: the lag-1 streams' first row
      for (int64_t r = 0; r + 1 < rows; ++r) emit(true, true);
      emit(true, false);  // tail: the lag-0 streams' last row
    }
    return d;
  }
};

// A few of these designs repeat only every two rows: a loop between two processes holds
// as many beats as its FIFOs, which may be two rows' worth, so its cycle mean is a half.
// The row counts are odd and even, so a two-row period is taken on a prefix of either parity.
TEST(Periodic, RandomRowDesignsAgreeWithTheFullResolve) {
  int periodic = 0, deadlocks = 0, exact = 0, multi_row = 0, realigned = 0;
  for (uint32_t seed = 0; seed < 4000; ++seed) {
    std::mt19937 rng(seed);
    RandomRowDesign rd(rng);
    int64_t rows = std::uniform_int_distribution<int>(8, 80)(rng);
    std::vector<int64_t> depths;
    for (size_t s = 0; s < rd.streams.size(); ++s) {
      int k = std::uniform_int_distribution<int>(0, 6)(rng);
      depths.push_back(k == 6 ? kUnbounded : k + 1);
    }
    RowOptions opt;
    opt.first_rows = 3;
    RowAnalysis a = analyze_rows([&](int64_t r) { return rd.at(r); }, rows, depths, opt);
    Design full = rd.at(rows);
    EventGraph eg(full);
    Resolution r = eg.resolve(depths);
    SCOPED_TRACE("seed " + std::to_string(seed));
    ASSERT_EQ(a.deadlock, r.deadlock);
    if (a.exact) ++exact;
    if (r.deadlock) {
      ++deadlocks;
      continue;
    }
    if (!a.exact) ++periodic;
    if (!a.exact && a.period_rows > 1) ++multi_row;
    // Not a doubling of the first prefix: the prefix was moved to divide B - k by m.
    if (!a.exact && (a.rows_analysed % 3 != 0 || ((a.rows_analysed / 3) & (a.rows_analysed / 3 - 1)) != 0))
      ++realigned;
    EXPECT_EQ(a.latency, r.latency);
    EXPECT_EQ(a.fill + (rows - 1) / a.period_rows * a.period, r.latency);
    EXPECT_EQ(a.observed_depths, eg.observed_depths());
  }
  // The generator must exercise every outcome.
  EXPECT_GT(periodic, 1000);
  EXPECT_GT(deadlocks, 200);
  EXPECT_GE(multi_row, 2);
  EXPECT_GE(realigned, 1);
  RecordProperty("periodic", periodic);
  RecordProperty("multi_row", multi_row);
  RecordProperty("realigned", realigned);
  RecordProperty("exact", exact);
}

// A design whose program is not the k-row program with one row inserted: when the row
// count is odd, the sink waits 100 cycles at row 3. The programs at k and k + 1 rows
// differ there for every k, so no one-row period may extrapolate (from 16 rows to 41 it
// would miss the wait). Rows of one parity are per-row programs of two rows, so the
// analysis may use a two-row period on a prefix of B's parity, or fall back to the full run.
TEST(Periodic, ProgramsThatAreNotPerRowAreNotExtrapolated) {
  auto at = [](int64_t rows) {
    Design d;
    for (const char* name : {"src", "sink"}) {
      Process p;
      p.name = name;
      d.add_process(p);
    }
    StreamId s = d.add_stream(Stream{"s", 0, 1, 0, {rows}, 1, 2, 32});
    for (int64_t r = 0; r < rows; ++r) {
      d.processes[0].custom_steps.push_back({1, {{s, true}}});
      d.processes[1].custom_steps.push_back({rows % 2 == 1 && r == 3 ? 100 : 2, {{s, false}}});
    }
    return d;
  };
  for (int64_t rows : {40, 41}) {
    std::vector<int64_t> depths{2};
    RowAnalysis a = analyze_rows(at, rows, depths);
    Design full = at(rows);
    EventGraph eg(full);
    SCOPED_TRACE(rows);
    EXPECT_EQ(a.latency, eg.resolve(depths).latency);
    EXPECT_TRUE(a.exact || (a.period_rows % 2 == 0 && a.rows_analysed % 2 == rows % 2)) << a.period_rows;
  }
}

// A fork whose long branch is a chain of 40 one-cycle stages: at a row a cycle it holds
// about 40 rows in flight, so the short branch must hold as many. The depths a 16-row
// unbounded run observes hold only 16 there, and 200 rows at them run at 16 rows per
// chain latency; the peak must be the unbounded pace all the same.
TEST(Periodic, PeakKeepsPaceWhereOneBranchLagsMoreThanThePrefix) {
  constexpr int kChain = 40;
  auto at = [](int64_t rows) {
    Design d;
    auto proc = [&](std::string name) {
      Process p;
      p.name = std::move(name);
      return d.add_process(p);
    };
    auto stream = [&](int from, int to) {
      return d.add_stream(Stream{fmt::format("s{}", d.streams.size()), from, to, 0, {rows}, 1, 2, 32});
    };
    const int src = proc("src"), fork = proc("fork"), join = proc("join");
    const StreamId in = stream(src, fork), shortcut = stream(fork, join);
    StreamId lane = -1;
    int prev = fork;
    std::vector<std::pair<int, std::vector<FifoOp>>> body{{src, {{in, true}}}};
    for (int c = 0; c < kChain; ++c) {
      const int stage = proc(fmt::format("stage{}", c));
      const StreamId next = stream(prev, stage);
      if (prev == fork) body.push_back({fork, {{in, false}, {shortcut, true}, {next, true}}});
      else body.push_back({prev, {{lane, false}, {next, true}}});
      prev = stage, lane = next;
    }
    body.push_back({prev, {{lane, false}, {stream(prev, join), true}}});
    body.push_back({join, {{shortcut, false}, {StreamId(d.streams.size() - 1), false}}});
    for (int64_t r = 0; r < rows; ++r)
      for (const auto& [p, ops] : body) d.processes[p].custom_steps.push_back({1, ops});
    return d;
  };
  const int64_t rows = 200;
  Design full = at(rows);
  EventGraph eg(full);
  const int64_t peak = eg.resolve(std::vector<int64_t>(full.streams.size(), kUnbounded)).latency;
  ASSERT_LT(peak, rows + 3 * kChain);  // a row a cycle
  RowAnalysis a = analyze_peak(at, rows);
  EXPECT_FALSE(a.deadlock);
  EXPECT_LE(a.latency, peak);
  EXPECT_GE(a.latency, peak - 2);
}

Design insp_design(int64_t rows, int order, int64_t mm_par, int64_t block = 1,
                   autodiff::DerivativeMode mode = autodiff::DerivativeMode::Reverse) {
  autodiff::SirenSpec spec;
  spec.dims = {2, 16, 16, 3};
  spec.batch = rows;
  ir::Bundle b = autodiff::build_insp_bundle(spec, order, false, mode);
  passes::optimize_bundle(b);
  LowerOptions lo;
  lo.mm_par = mm_par;
  lo.block = block;
  lo.rows = rows;  // rank-1 outputs [rows] get the same block at every row count
  return lower(b.graph, lo);
}

TEST(Periodic, InspPrefixGivesTheFullRunExactly) {
  for (auto mode : {autodiff::DerivativeMode::Reverse, autodiff::DerivativeMode::Taylor})
  for (int order : {1, 2})
    for (auto [par, block] : {std::pair<int64_t, int64_t>{1, 1}, {4, 1}, {4, 4}}) {
      auto build = [&](int64_t r) { return insp_design(r, order, par, block, mode); };
      // Taylor mode's FIFOs 40 deep fill a fraction of a beat a row: 256 rows to settle.
      const int64_t rows = 600;
      Design full = build(rows);
      EventGraph eg(full);
      std::vector<int64_t> unbounded(full.streams.size(), kUnbounded);
      int64_t peak = eg.resolve(unbounded).latency;
      // The peak is analysed at the depths k rows observe: register FIFOs (1-cycle reads)
      // where the unbounded run needs at most 2, so it may sit a few cycles under.
      RowAnalysis ap = analyze_peak(build, rows);
      EXPECT_FALSE(ap.exact);
      EXPECT_LE(ap.latency, peak);
      EXPECT_GE(ap.latency, peak - peak / 1000);
      for (int64_t depth : {int64_t(2), int64_t(3), int64_t(40)}) {
        std::vector<int64_t> depths(full.streams.size(), depth);
        Resolution r = eg.resolve(depths);
        RowAnalysis a = analyze_rows(build, rows, depths);
        SCOPED_TRACE(fmt::format("{} order {} par {} block {} depth {}", autodiff::mode_name(mode), order, par,
                                 block, depth));
        ASSERT_EQ(a.deadlock, r.deadlock);
        if (r.deadlock) continue;
        EXPECT_FALSE(a.exact) << a.note;
        EXPECT_LT(a.rows_analysed, rows);
        EXPECT_EQ(a.latency, r.latency);
        EXPECT_EQ(a.observed_depths, eg.observed_depths());
      }
    }
}

// Sizing on the prefix: the depths must hold over the whole batch (a full resolve), with the
// closed-form latency, within (1 + alpha) of the peak.
TEST(Periodic, RowSizingIsSafeOnTheWholeBatch) {
  for (int order : {1, 2}) {
    auto build = [&](int64_t r) { return insp_design(r, order, 4); };
    const int64_t rows = 200;
    SizingOptions so;
    RowSizing rs = size_fifos_rows(build, rows, so);
    ASSERT_FALSE(rs.sized.deadlock);
    EXPECT_FALSE(rs.final.exact) << rs.final.note;
    EXPECT_LT(rs.final.rows_analysed, rows / 2);
    Design full = build(rows);
    EventGraph eg(full);
    Resolution r = eg.resolve(rs.sized.depths);
    ASSERT_FALSE(r.deadlock);
    EXPECT_EQ(r.latency, rs.sized.latency);
    EXPECT_LE(rs.sized.latency, rs.sized.bound);
    int64_t peak = eg.resolve(std::vector<int64_t>(full.streams.size(), kUnbounded)).latency;
    EXPECT_LE(rs.sized.latency, peak + peak / 100 + 1);
    // Sizing found something smaller than what the unbounded run holds.
    EXPECT_LT(rs.sized.memory.fifo_bits, memory(full, rs.peak.observed_depths).fifo_bits);
  }
}


}  // namespace
}  // namespace inrarch::dataflow
