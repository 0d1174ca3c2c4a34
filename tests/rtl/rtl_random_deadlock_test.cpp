// Property test of the RTL against the event graph, on random small designs at random FIFO
// depths: the RTL hangs exactly when EventGraph::resolve(depths) deadlocks, and otherwise
// gives the HLS C simulation's bits with every FIFO op at its event-graph time, ending in
// the event graph's latency, to its last FIFO op.
// RtlDeadlock shows this for one hand-made design; here the designs come from a seeded
// generator over the kinds the RTL backend has (docs/rtl.md), lowered with random MACs per
// mm and fan-out at block 2 (so streams of odd last dims carry one element a beat, the
// others two, and gathers join the two), and their depths mix
// the sized ones with 1 and 2, so that buffering kernels (mm rows, a streamed B, transposes
// and permutes, column sums, gathers) beside a branch that rejoins them deadlock.
//
// The generated top hard-codes its depths, so each case is one Verilator build (most of
// its time). `make test` runs kDefaultDesigns; INRARCH_RTL_RANDOM_DESIGNS=N (read when the
// tests are listed) runs N, e.g. by hand:
//   INRARCH_RTL_RANDOM_DESIGNS=40 build/inrarch_tests --gtest_filter='*RtlRandom*'
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <array>
#include <cstdlib>
#include <fstream>
#include <random>
#include <set>

#include "rtl_test_util.h"

namespace inrarch::rtl {
namespace {

namespace fs = std::filesystem;
using ir::Op;

constexpr int kDefaultDesigns = 6;

int design_count() {
  const char* v = std::getenv("INRARCH_RTL_RANDOM_DESIGNS");
  return v && std::atoi(v) > 0 ? std::atoi(v) : kDefaultDesigns;
}

int pick(std::mt19937& rng, int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); }

// One op on values of shape [r, c] from the pool, giving [r, c] again. As the dataflow
// agreement test's generator, with the transcendental ops, div and log on operands kept off
// zero, every mm variant (streamed or constant A, streamed or constant B), a rank-3
// permute, a cat with a constant and a reshape.
ir::NodeId random_op(ir::Graph& g, std::mt19937& rng, ir::NodeId a, ir::NodeId b, int i, int64_t r, int64_t c,
                     int op = -1) {
  switch (op >= 0 ? op : pick(rng, 0, 15)) {
    case 12: return g.mm(g.mm(a, g.transpose(b)), a);  // [r, r] · [r, c], both streamed
    case 13: return g.mm(g.param("u" + std::to_string(i), {r, r}), a);
    case 14: return g.reshape(g.permute(g.reshape(a, {r, 1, c}), {2, 0, 1}), {r, c});
    case 15: {
      const int64_t start = pick(rng, 0, int(c));
      return g.slice(g.cat({g.constant(0.25, {r, c}), a}, 1), 1, start, start + c);
    }
    case 0: {
      static constexpr Op kUnary[] = {Op::Sin, Op::Cos, Op::Exp, Op::Tanh, Op::Neg, Op::Relu};
      return g.unary(kUnary[pick(rng, 0, 5)], a);
    }
    case 1: return g.binary(std::array{Op::Add, Op::Sub, Op::Mul}[pick(rng, 0, 2)], a, b);
    case 2: return g.binary(Op::Add, a, g.constant(2.0, {r, c}));
    case 3: return g.mm(a, g.param("w" + std::to_string(i), {c, c}));
    case 4: return g.binary(Op::Sub, a, g.transpose(g.transpose(b)));
    case 5: return g.expand(g.sum(a, {1}, true), {r, c});  // row sums
    case 6: return g.expand(g.sum(a, {0}, true), {r, c});  // column sums: the whole input first
    case 7: return g.expand(g.unsqueeze(g.select(a, 1, pick(rng, 0, int(c) - 1)), 1), {r, c});
    case 8: {
      const int64_t start = pick(rng, 0, int(c));
      return g.slice(g.cat({a, b}, 1), 1, start, start + c);
    }
    case 9: return g.binary(Op::Div, a, g.binary(Op::Add, g.binary(Op::Mul, b, b), g.constant(1.0, {r, c})));
    case 10: return g.unary(Op::Log, g.binary(Op::Add, g.binary(Op::Mul, a, a), g.constant(0.5, {r, c})));
    default: return g.reshape(g.reshape(a, {r * c}), {r, c});
  }
}

// The ops of the newer modules (a streamed B, a constant A, a permute, a cat with a
// constant, a constant B), one of which design i starts with, so that a few designs cover
// them all.
constexpr int kFeatureOps[] = {12, 13, 14, 15, 3};

// Design `index`'s graph. `rejoin`: the last value also goes through a kernel that holds all
// of it (a double transpose or column sums) and meets itself again, which deadlocks at a
// shallow depth on the direct branch; the cases that aim at a deadlock need one such structure.
ir::Graph random_graph(std::mt19937& rng, int index, bool rejoin) {
  ir::Graph g("random");
  const int64_t r = pick(rng, 2, 4), c = pick(rng, 2, 4);
  std::vector<ir::NodeId> pool{g.input("x", {r, c})};
  if (pick(rng, 0, 1)) pool.push_back(g.input("z", {r, c}));
  auto any = [&] { return pool[pick(rng, 0, int(pool.size()) - 1)]; };
  const int n_ops = pick(rng, 2, 5);
  for (int i = 0; i < n_ops; ++i) {
    const ir::NodeId a = any(), b = any();
    pool.push_back(random_op(g, rng, a, b, i, r, c, i == 0 ? kFeatureOps[index % std::size(kFeatureOps)] : -1));
  }
  if (rejoin) {
    const ir::NodeId v = pool.back();
    const ir::NodeId held = pick(rng, 0, 1) ? g.transpose(g.transpose(v)) : g.expand(g.sum(v, {0}, true), {r, c});
    pool.push_back(g.binary(Op::Sub, v, held));
  }
  // The last op always reaches an output, so the design is not only copies.
  g.add_output("y0", pool.back());
  if (pick(rng, 0, 1)) g.add_output("y1", any());
  if (pick(rng, 0, 3) == 0) g.add_output("yc", g.constant(0.75, {r, c}));  // played from a ROM
  return g;
}

// Each stream keeps its sized depth or gets 1 or 2, half the time each.
std::vector<int64_t> draw_depths(const std::vector<int64_t>& sized, std::mt19937& rng) {
  std::vector<int64_t> v = sized;
  for (int64_t& d : v)
    if (pick(rng, 0, 1)) d = pick(rng, 1, 2);
  return v;
}

struct RandomCase {
  ir::Bundle bundle;
  dataflow::Design design;  // at the drawn depths
  bool deadlock = false;
  int64_t latency = -1;     // the event graph's; -1 when it deadlocks
  std::string what;         // for failure messages
};

// Case i, from its own seed (so it does not depend on the count). Odd cases aim at a
// deadlock, even ones at a completion: depths are drawn until the event graph's verdict is
// the aim (a design that cannot deadlock keeps its last draw), so both outcomes occur.
RandomCase random_case(int i) {
  std::mt19937 rng(20261130u + 7919u * unsigned(i));
  RandomCase c{ir::Bundle{random_graph(rng, i, i % 2 == 1), {}, {}, {}}, {}, false, -1, ""};
  hls::hls_test::fill_bundle(c.bundle, uint64_t(i) + 1);
  dataflow::LowerOptions lo;
  lo.mm_par = pick(rng, 1, 3);
  lo.block = 2;  // one beat is 2 elements where the last dim is even, 1 where it is odd
  lo.fanout = pick(rng, 0, 1) ? dataflow::Fanout::Star : dataflow::Fanout::Chain;
  c.design = dataflow::lower(c.bundle.graph, lo);
  hls::hls_test::size_design(c.design);
  const std::vector<int64_t> sized = c.design.depths();
  dataflow::EventGraph eg(c.design);
  std::vector<int64_t> depths;
  dataflow::Resolution res;
  for (int t = 0; t < 64; ++t) {
    depths = draw_depths(sized, rng);
    res = eg.resolve(depths);
    if (res.deadlock == (i % 2 == 1)) break;
  }
  c.design.set_depths(depths);
  c.deadlock = res.deadlock;
  c.latency = res.deadlock ? -1 : res.latency;
  c.what = fmt::format("case {}: {} processes, {} streams, mm_par {}, block {}, depths [{}] (sized [{}]): {}", i,
                       c.design.processes.size(), c.design.streams.size(), lo.mm_par, lo.block, fmt::join(depths, " "),
                       fmt::join(sized, " "), c.deadlock ? "deadlock" : fmt::format("latency {}", c.latency));
  return c;
}

// The features of a design that the newer RTL modules serve, for the set's coverage.
std::set<std::string> features(const dataflow::Design& d) {
  std::set<std::string> f;
  for (const dataflow::Process& p : d.processes) {
    const auto streamed = [&](size_t k) { return p.operands.at(k).stream >= 0; };
    if (p.kind == dataflow::Kind::Mm) f.insert(!streamed(0) ? "mm constant A" : streamed(1) ? "mm streamed B" : "mm constant B");
    if (p.kind == dataflow::Kind::Permute) f.insert("permute");
    if (p.kind == dataflow::Kind::Source && p.op != ir::Op::Input) f.insert("constant output");
    if (!dataflow::is_gather(p.kind)) continue;
    for (size_t k = 0; k < p.operands.size(); ++k)
      if (!streamed(k)) f.insert("gather constant");
      else if (d.streams[p.operands[k].stream].block != d.streams[p.outputs.at(0)].block) f.insert("gather blocks");
  }
  return f;
}

// The property needs both outcomes, or it would pass with a backend that always (or never)
// hangs. Event graph only: no tool runs here.
TEST(RtlRandomDesigns, TheSetHasDeadlocksAndCompletions) {
  int deadlocks = 0, off_sized = 0;
  std::set<std::string> covered;
  for (int i = 0; i < design_count(); ++i) {
    const RandomCase c = random_case(i);
    deadlocks += c.deadlock;
    for (const std::string& f : features(c.design)) covered.insert(f);
    dataflow::Design sized = c.design;
    hls::hls_test::size_design(sized);
    off_sized += !c.deadlock && sized.depths() != c.design.depths();
  }
  EXPECT_GE(deadlocks, 2);
  EXPECT_GE(design_count() - deadlocks, 2);
  EXPECT_GE(off_sized, 1);  // some completion is at depths other than the sized ones
  if (design_count() >= kDefaultDesigns) {
    EXPECT_EQ(fmt::format("{}", fmt::join(covered, ", ")),
              "constant output, gather blocks, gather constant, mm constant A, mm constant B, mm streamed B, permute");
  }
}

// The last output beat's time in the event graph at the design's depths: its sinks' last
// reads (a sink puts a beat on its port in the step that reads it).
int64_t last_output_time(const dataflow::Design& d, dataflow::EventGraph& eg) {
  int64_t t = -1;
  for (const dataflow::Process& p : d.processes)
    if (p.kind == dataflow::Kind::Sink) t = std::max<int64_t>(t, eg.read_times(p.inputs.at(0)).back());
  return t;
}

// The run's FIFO ops (out/trace.txt) against the event graph: per stream, the writes and the
// reads are the event graph's, all of them, at its times (the testbench runs past the last
// output beat until every op is done: a gather may read unneeded input beats after it).
// "" when equal.
std::string trace_mismatch(const dataflow::Design& d, dataflow::EventGraph& eg, const fs::path& trace) {
  std::vector<std::vector<int64_t>> got[2] = {std::vector<std::vector<int64_t>>(d.streams.size()),
                                              std::vector<std::vector<int64_t>>(d.streams.size())};
  std::ifstream in(trace);
  int64_t cycle, s;
  char rw;
  while (in >> cycle >> s >> rw) got[rw == 'w'].at(s).push_back(cycle);
  for (size_t s = 0; s < d.streams.size(); ++s)
    for (int w : {0, 1}) {
      std::vector<int64_t> want;
      for (uint32_t t : w ? eg.write_times(dataflow::StreamId(s)) : eg.read_times(dataflow::StreamId(s)))
        want.push_back(t);
      if (got[w][s] != want)
        return fmt::format("{} {}: RTL at [{}], event graph at [{}]", d.streams[s].name, w ? "writes" : "reads",
                           fmt::join(got[w][s], " "), fmt::join(want, " "));
    }
  return "";
}

class RtlRandomDeadlock : public testing::TestWithParam<int> {};

TEST_P(RtlRandomDeadlock, HangsExactlyWhenTheEventGraphDeadlocks) {
  INRARCH_NEED_TOOL("verilator");
  RandomCase c = random_case(GetParam());
  SCOPED_TRACE(c.what);
  const fs::path dir = hls::hls_test::out_dir("rtl_random_" + std::to_string(GetParam()));
  hls::HlsOptions ho;
  hls::emit_hls(c.design, c.bundle, ho, dir / "hls");
  emit_rtl(c.design, c.bundle, driver::rtl_options(c.design, c.bundle, ho), dir / "rtl");
  RtlRunOptions ro;
  ro.lint = false;  // the fixed kernels' lint is RtlKernels'; the time goes to the build
  const RtlRun r = run_rtl(c.design, dir / "rtl", ro);
  SCOPED_TRACE(to_json(r).dump());
  ASSERT_TRUE(r.error.empty());
  EXPECT_EQ(r.hang(), c.deadlock);
  EXPECT_EQ(r.model_latency, c.latency);
  if (c.deadlock) return;
  // Saturated outputs are allowed (the C simulation saturates alike); the bits must agree.
  EXPECT_TRUE(r.bit_exact());
  dataflow::EventGraph eg(c.design);
  eg.resolve(c.design.depths());
  const int64_t last_out = last_output_time(c.design, eg);
  EXPECT_EQ(r.verilator->first_in, 1);
  EXPECT_EQ(r.verilator->last_out, last_out);
  EXPECT_EQ(r.model_cycles, last_out);
  EXPECT_EQ(trace_mismatch(c.design, eg, dir / "rtl" / "out" / "trace.txt"), "");
  // cycles span the first input beat to the last output beat; the last FIFO op, which may be a
  // gather's read of an unneeded beat after it, is the event graph's latency.
  EXPECT_EQ(r.cycles(), last_out);
  EXPECT_EQ(r.verilator->last_op, c.latency);
  EXPECT_TRUE(r.cycle_exact);
  EXPECT_TRUE(r.trace->pass);
}

INSTANTIATE_TEST_SUITE_P(Seeded, RtlRandomDeadlock, testing::Range(0, design_count()));

}  // namespace
}  // namespace inrarch::rtl
