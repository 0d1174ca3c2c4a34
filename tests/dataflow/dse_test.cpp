// The parallelism search: budgets that bind, balance (no P a kernel cannot use), and
// determinism.
#include <algorithm>

#include <gtest/gtest.h>

#include "autodiff/models.h"
#include "dataflow/dse.h"
#include "dataflow/lower.h"
#include "dataflow/verify.h"
#include "passes/pipeline.h"
#include "support/limits.h"

namespace inrarch::dataflow {
namespace {

Design insp(int order, int64_t batch, int64_t width) {
  autodiff::SirenSpec spec;
  spec.dims = {2, width, width, width, 3};
  spec.batch = batch;
  ir::Bundle b = autodiff::build_insp_bundle(spec, order, false);
  passes::optimize_bundle(b);
  Design d = lower(b.graph);
  verify(d, "lower");
  return d;
}

// The search's choice put on the design it was made on (the design pass).
Design with_par(Design d, const Parallelism& par) {
  apply_parallelism(d, par);
  verify(d, "apply_parallelism");
  return d;
}

DseOptions options(const std::string& budget) {
  DseOptions o;
  o.part = find_part("u50");
  o.budget = parse_budget(budget);
  return o;
}

TEST(Dse, EveryKernelGetsTheLeastParallelismForTheTarget) {
  Design d = insp(1, 8, 64);
  DseResult r = search_parallelism(d, options(""));
  ASSERT_TRUE(r.fits);
  Design chosen = with_par(d, r.choice);
  const int64_t target = r.chosen.target_cycles;
  EXPECT_GE(target, r.slowest_other);
  int wide = 0;
  for (size_t p = 0; p < chosen.processes.size(); ++p) {
    Process& proc = chosen.processes[p];
    if (proc.kind != Kind::Mm) continue;
    auto pid = static_cast<ProcessId>(p);
    EXPECT_LE(own_cycles(chosen, pid), target) << proc.name;
    if (proc.mm_par == 1) continue;
    ++wide;
    EXPECT_EQ(proc.mm_lanes, proc.mm_par) << proc.name;  // the search asks no more than work
    // One MAC less (with aligned lanes: the next aligned count below) and the kernel falls
    // behind the target: none wasted.
    const int64_t par = proc.mm_par, K = mm_inner(proc);
    int64_t less = par - 1;
    const bool rounded = std::find(r.aligned_lanes.begin(), r.aligned_lanes.end(), pid) != r.aligned_lanes.end();
    while (rounded && less > 0 && !mm_lanes_aligned(less, K)) --less;
    if (less == 0) continue;
    set_mm_par(chosen, pid, less);
    EXPECT_GT(own_cycles(chosen, pid), target) << proc.name;
    set_mm_par(chosen, pid, par);
  }
  EXPECT_GT(wide, 0);
  // The mm with K = 2 (first layer) needs at most 2 MACs, however much budget is left.
  for (const Process& p : chosen.processes) {
    if (p.kind == Kind::Mm && p.operands[0].shape.at(1) == 2) {
      EXPECT_LE(p.mm_par, 2) << p.name;
    }
  }
}

TEST(Dse, TightBudgetGivesASlowerDesignWithinIt) {
  Design d = insp(1, 8, 64);
  DseResult roomy = search_parallelism(d, options(""));
  DseResult tight = search_parallelism(d, options("dsp=0.05"));
  ASSERT_TRUE(roomy.fits);
  ASSERT_TRUE(tight.fits);
  const Capacity cap = capacity(find_part("u50"), parse_budget("dsp=0.05"));  // 297 DSP
  EXPECT_LE(tight.chosen.use.dsp, cap.dsp);
  EXPECT_GT(roomy.chosen.use.dsp, cap.dsp);
  EXPECT_GT(tight.chosen.target_cycles, roomy.chosen.target_cycles);
  EXPECT_GT(tight.chosen.latency, roomy.chosen.latency);
  // A budget nothing fits: reported, every mm at P = 1.
  DseResult none = search_parallelism(d, options("dsp=0.0002"));
  EXPECT_FALSE(none.fits);
  EXPECT_EQ(none.over, "dsp");
  for (const auto& [pid, par] : none.choice.mm_par) EXPECT_EQ(par, 1) << d.processes[pid].name;
}

// Where every mm rounded up to aligned lanes is over the DSP budget, the search leaves some
// at their least P (the prefix engine) and rounds the rest: the design fits, and rounding
// the others up too would put it over.
TEST(Dse, MixesRoundedAndLeastLanesWhereAllRoundedIsOver) {
  Design d = insp(1, 8, 64);
  const char* budget = "dsp=0.12";
  DseResult r = search_parallelism(d, options(budget));
  ASSERT_TRUE(r.fits);
  Design chosen = with_par(d, r.choice);
  int rounded = 0, least = 0;
  for (size_t p = 0; p < chosen.processes.size(); ++p) {
    Process& proc = chosen.processes[p];
    if (proc.kind != Kind::Mm) continue;
    const int64_t K = mm_inner(proc);
    if (std::find(r.aligned_lanes.begin(), r.aligned_lanes.end(), ProcessId(p)) != r.aligned_lanes.end()) {
      EXPECT_TRUE(mm_lanes_aligned(proc.mm_lanes, K)) << proc.name;
      ++rounded;
      continue;
    }
    int64_t up = proc.mm_par;
    while (up < proc.mm_par * 4 && !mm_lanes_aligned(up, K)) ++up;
    if (up == proc.mm_par) continue;
    ++least;
    set_mm_par(chosen, ProcessId(p), up);
  }
  const Capacity cap = capacity(find_part("u50"), parse_budget(budget));
  EXPECT_LE(r.chosen.use.dsp, cap.dsp);
  EXPECT_GT(rounded, 0);
  EXPECT_GT(least, 0);
  EXPECT_FALSE(estimate_unsized(chosen, Arith{}, cap).fits);
}

TEST(Dse, FrontIsEvaluatedOnTheEventGraphAndSlowsDown) {
  Design d = insp(1, 8, 64);
  DseResult r = search_parallelism(d, options(""));
  ASSERT_GE(r.front.size(), 3u);
  EXPECT_EQ(r.evaluations, static_cast<int64_t>(r.front.size()));
  for (size_t i = 1; i < r.front.size(); ++i) {
    EXPECT_GT(r.front[i].target_cycles, r.front[i - 1].target_cycles);
    EXPECT_LE(r.front[i].use.dsp, r.front[i - 1].use.dsp);
  }
  // The slowest point is every mm at P = 1.
  Design one = d;
  one.options.fabric_elementwise_mul = r.choice.fabric_elementwise_mul;
  for (size_t p = 0; p < one.processes.size(); ++p)
    if (has_macs(one.processes[p].kind)) set_mm_par(one, ProcessId(p), 1);
  const Capacity cap = capacity(find_part("u50"), parse_budget(""));
  EXPECT_EQ(r.front.back().use.dsp, estimate_unsized(one, Arith{}, cap).total.dsp);
  EXPECT_GT(r.front.back().latency, 4 * r.front.front().latency);
}

// Elementwise multipliers go to LUTs when the LUT budget holds them and the MACs (DSPs then serve
// the mm kernels), and stay on DSPs when LUTs are short.
TEST(Dse, FabricMultipliersOnlyWhenLutsAreAmple) {
  Design d = insp(1, 8, 64);
  DseResult roomy = search_parallelism(d, options(""));
  EXPECT_TRUE(roomy.choice.fabric_elementwise_mul);
  EXPECT_TRUE(prefer_fabric_mul(d, options("")));
  EXPECT_FALSE(prefer_fabric_mul(d, options("lut=0.01")));
  EXPECT_FALSE(search_parallelism(d, options("lut=0.01")).choice.fabric_elementwise_mul);
  // No elementwise multiply, nothing to move.
  ir::Graph g;
  g.add_output("y", g.unary(ir::Op::Sin, g.input("x", {4, 4})));
  EXPECT_FALSE(prefer_fabric_mul(lower(g), options("")));
}

// A beat of 4 elements of a product over K = 20,000 is 80,000 MACs of work, past the most
// MACs an mm may be asked for (limits::kMaxParallel): the search's fastest targets ask at
// most that (asking the work itself was refused by set_mm_par), and the budget then binds.
TEST(Dse, MacsOfAWideBeatStopAtTheLimit) {
  ir::Graph g;
  g.add_output("y", g.mm(g.input("x", {2, 20000}), g.param("w", {20000, 4})));
  LowerOptions o;
  o.block = 4;
  const Design d = lower(g, o);
  DseResult r;
  ASSERT_NO_THROW(r = search_parallelism(d, options("")));
  ASSERT_TRUE(r.fits);
  ASSERT_EQ(r.choice.mm_par.size(), 1u);
  EXPECT_GT(r.choice.mm_par[0].second, 1);
  EXPECT_LE(r.choice.mm_par[0].second, limits::kMaxParallel);
  EXPECT_LE(r.chosen.use.dsp, capacity(find_part("u50"), parse_budget("")).dsp);
  with_par(d, r.choice);  // verified
}

// fold_elementwise: sin and mul (a table, DSPs) over 16 beats of 8 fold as far as the target
// lets them, 1 + (beats - 1 + steps) * C cycles: sin (18 stages) at C = 8 takes 1 + (15 + 4) * 8
// = 153, at 4 1 + (15 + 6) * 4 = 85; mul (7) at 8 1 + (15 + 2) * 8 = 137. The add (cheap
// lanes) never folds; own_cycles (the schedule) agrees with the closed form.
TEST(Dse, ElementwiseKernelsFoldToTheTargetsPace) {
  ir::Graph g;
  const ir::NodeId x = g.input("x", {16, 8});
  const ir::NodeId sin = g.unary(ir::Op::Sin, x);
  const ir::NodeId mul = g.binary(ir::Op::Mul, x, g.input("z", {16, 8}));
  g.add_output("y", g.binary(ir::Op::Add, sin, mul));
  LowerOptions lo;
  lo.block = 8;
  Design d = lower(g, lo);
  const Arith fx{Arith::Fixed, 32};
  auto folds = [&](int64_t target) {
    fold_elementwise(d, target, fx);
    verify(d, "fold_elementwise");
    std::vector<int64_t> out;
    for (const char* name : {"sin_1", "mul_3", "add_4"}) out.push_back(d.processes.at(d.find_process(name)).ew_fold);
    return out;
  };
  EXPECT_EQ(folds(153), (std::vector<int64_t>{8, 8, 1}));
  EXPECT_EQ(folds(152), (std::vector<int64_t>{4, 8, 1}));
  EXPECT_EQ(folds(136), (std::vector<int64_t>{4, 4, 1}));
  EXPECT_EQ(folds(10), (std::vector<int64_t>{1, 1, 1}));
  for (ProcessId p : {d.find_process("sin_1"), d.find_process("mul_3")}) {
    set_ew_fold(d, p, 8);
    EXPECT_EQ(own_cycles(d, p), d.processes[p].op == ir::Op::Sin ? 153 : 137);
  }
}

TEST(Dse, Deterministic) {
  Design d = insp(1, 8, 64);
  DseResult a = search_parallelism(d, options("dsp=0.1"));
  DseResult b = search_parallelism(d, options("dsp=0.1"));
  EXPECT_EQ(a.choice, b.choice);
  ASSERT_EQ(a.front.size(), b.front.size());
  for (size_t i = 0; i < a.front.size(); ++i) {
    EXPECT_EQ(a.front[i].latency, b.front[i].latency);
    EXPECT_EQ(a.front[i].use.dsp, b.front[i].use.dsp);
  }
}

}  // namespace
}  // namespace inrarch::dataflow
