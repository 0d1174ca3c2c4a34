// Property test: the event graph and the cycle-stepped simulator are two implementations of
// one timing semantics and must agree exactly — deadlock verdict, latency, observed depths
// and the steps each process fired — on random designs with random depths.
#include <gtest/gtest.h>

#include <random>

#include "dataflow/event_graph.h"
#include "dataflow/lower.h"
#include "dataflow/simulate.h"

namespace inrarch::dataflow {
namespace {

// Random processes with random interleavings of their FIFO ops, grouped into random steps.
// Such programs can even deadlock with unbounded FIFOs (a read-before-write cycle).
Design random_custom(std::mt19937& rng) {
  auto pick = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
  Design d;
  int P = pick(2, 6), S = pick(1, 8);
  for (int p = 0; p < P; ++p) {
    Process pr;
    pr.name = "p" + std::to_string(p);
    d.add_process(pr);
  }
  for (int s = 0; s < S; ++s) {
    int a = pick(0, P - 1), b = pick(0, P - 2);
    if (b >= a) ++b;
    d.add_stream(Stream{"s" + std::to_string(s), a, b, 0, {pick(1, 6)}, 1, 2, 32});
  }
  for (int p = 0; p < P; ++p) {
    std::vector<std::pair<StreamId, bool>> pending;  // (stream, write) with beats left
    std::vector<int64_t> left(S);
    for (int s = 0; s < S; ++s) left[s] = d.streams[s].beats();
    std::vector<FifoOp> seq;
    std::vector<StreamId> mine;
    for (StreamId s : d.processes[p].inputs) mine.push_back(s);
    for (StreamId s : d.processes[p].outputs) mine.push_back(s);
    while (!mine.empty()) {
      size_t k = pick(0, int(mine.size()) - 1);
      StreamId s = mine[k];
      seq.push_back({s, d.streams[s].producer == p});
      if (--left[s] == 0) mine.erase(mine.begin() + k);
    }
    auto& steps = d.processes[p].custom_steps;
    for (const FifoOp& op : seq) {
      bool clash = false;
      if (!steps.empty())
        for (const auto& o : steps.back().ops) clash = clash || o.stream == op.stream;
      if (steps.empty() || clash || pick(0, 1) == 0) steps.push_back({pick(1, 3), {}});
      steps.back().ops.push_back(op);
    }
  }
  return d;
}

std::vector<int64_t> random_depths(const Design& d, std::mt19937& rng) {
  std::vector<int64_t> out;
  for (size_t s = 0; s < d.streams.size(); ++s) {
    int k = std::uniform_int_distribution<int>(0, 5)(rng);
    out.push_back(k == 5 ? kUnbounded : k + 1);
  }
  return out;
}

// Compares both implementations; returns whether the case deadlocked.
bool expect_agree(const Design& d, const std::vector<int64_t>& depths, const std::string& what) {
  EventGraph eg(d);
  Resolution r = eg.resolve(depths);
  SimResult s = simulate(d, eg.programs(), depths);
  EXPECT_FALSE(s.timed_out) << what;
  EXPECT_EQ(r.deadlock, s.deadlock) << what;
  EXPECT_EQ(r.latency, s.latency) << what;
  EXPECT_EQ(eg.steps_done(), s.steps_done) << what;
  EXPECT_EQ(eg.observed_depths(), s.observed) << what;
  if (r.deadlock) {
    EXPECT_FALSE(r.cycle.empty()) << what;
  }
  return r.deadlock;
}

TEST(Agreement, RandomCustomDesigns) {
  std::mt19937 rng(12345);
  int deadlocks = 0;
  for (int i = 0; i < 1500; ++i) {
    Design d = random_custom(rng);
    deadlocks += expect_agree(d, random_depths(d, rng), "custom case " + std::to_string(i));
    if (HasFailure()) return;
  }
  EXPECT_GT(deadlocks, 100);  // the property covers deadlocking designs too
  EXPECT_LT(deadlocks, 1400);
}

// Random small graphs over every kernel kind, lowered, with random depths.
ir::Graph random_graph(std::mt19937& rng) {
  auto pick = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
  ir::Graph g;
  int64_t r = pick(1, 4), c = pick(1, 4);
  std::vector<ir::NodeId> pool{g.input("x", {r, c})};
  if (pick(0, 1)) pool.push_back(g.input("z", {r, c}));
  auto any = [&] { return pool[pick(0, int(pool.size()) - 1)]; };
  int n_ops = pick(1, 8);
  for (int i = 0; i < n_ops; ++i) {
    ir::NodeId a = any(), b = any(), v;
    switch (pick(0, 9)) {
      case 0: v = g.unary(ir::Op::Sin, a); break;
      case 1: v = g.binary(ir::Op::Mul, a, b); break;
      case 2: v = g.binary(ir::Op::Add, a, g.constant(2.0, {r, c})); break;
      case 3: v = g.mm(a, g.param("w" + std::to_string(i), {c, c})); break;
      case 4: v = g.mm(a, g.mm(g.transpose(a), b)); break;
      case 5: v = g.expand(g.sum(a, {1}, true), {r, c}); break;
      case 6: v = g.expand(g.unsqueeze(g.select(a, 1, pick(0, int(c) - 1)), 1), {r, c}); break;
      case 7: {
        int64_t start = pick(0, int(c));
        v = g.slice(g.cat({a, b}, 1), 1, start, start + c);
        break;
      }
      case 8: v = g.expand(g.sum(a, {0}, true), {r, c}); break;
      default: v = g.binary(ir::Op::Sub, a, g.transpose(g.transpose(b))); break;
    }
    pool.push_back(v);
  }
  int outs = pick(1, 3);
  for (int k = 0; k < outs; ++k) g.add_output("y" + std::to_string(k), any());
  return g;
}

TEST(Agreement, RandomLoweredGraphs) {
  std::mt19937 rng(777);
  int deadlocks = 0;
  for (int i = 0; i < 400; ++i) {
    ir::Graph g = random_graph(rng);
    LowerOptions opt;
    opt.block = std::uniform_int_distribution<int>(1, 2)(rng);
    opt.mm_par = std::uniform_int_distribution<int>(1, 3)(rng);
    opt.fanout = i % 2 ? Fanout::Star : Fanout::Chain;  // the default and the paper's
    Design d = lower(g, opt);
    deadlocks += expect_agree(d, random_depths(d, rng), "graph case " + std::to_string(i));
    if (HasFailure()) return;
  }
  EXPECT_GT(deadlocks, 10);
}

}  // namespace
}  // namespace inrarch::dataflow
