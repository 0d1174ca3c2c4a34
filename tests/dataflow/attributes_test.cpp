// Design attributes (dataflow/attributes.h): the lane rule applied by set_mm_par alone, the
// search's choice put on an existing design (apply_parallelism) instead of a re-lowering,
// carried to other lowerings of the same graph, and names only at the edge.
#include <gtest/gtest.h>

#include "autodiff/models.h"
#include "dataflow/attributes.h"
#include "dataflow/dse.h"
#include "dataflow/event_graph.h"
#include "dataflow/lower.h"
#include "dataflow/verify.h"
#include "passes/pipeline.h"
#include "passes/rebatch.h"

namespace inrarch::dataflow {
namespace {

// x [8,2] · W1 [2,6] -> relu -> · W2 [6,3]: K = 2 and K = 6.
ir::Graph two_layers(int64_t rows = 8) {
  ir::Graph g;
  ir::NodeId h = g.unary(ir::Op::Relu, g.mm(g.input("x", {rows, 2}), g.param("w1", {2, 6})));
  g.add_output("y", g.mm(h, g.param("w2", {6, 3})));
  return g;
}

std::vector<ProcessId> mms(const Design& d) {
  std::vector<ProcessId> v;
  for (size_t i = 0; i < d.processes.size(); ++i)
    if (d.processes[i].kind == Kind::Mm) v.push_back(ProcessId(i));
  return v;
}

void expect_error(const std::function<void()>& f, const std::string& part) {
  try {
    f();
    ADD_FAILURE() << "no error; expected one with '" << part << "'";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find(part), std::string::npos) << e.what();
  }
}

TEST(Attributes, TheLaneRuleIsSetMmPar) {
  LowerOptions o;
  o.block = 2;
  Design d = lower(two_layers(), o);
  const auto m = mms(d);
  ASSERT_EQ(m.size(), 2u);
  // Output blocks 2 and 1 (the last dims 6 and 3): beats of 2*2 = 4 and 1*6 = 6 products.
  EXPECT_EQ(mm_beat_work(d, d.processes[m[0]]), 4);
  EXPECT_EQ(mm_beat_work(d, d.processes[m[1]]), 6);
  set_mm_par(d, m[0], 7);
  set_mm_par(d, m[1], 5);
  EXPECT_EQ(d.processes[m[0]].mm_par, 7);
  EXPECT_EQ(d.processes[m[0]].mm_lanes, 4);  // capped
  EXPECT_EQ(d.processes[m[1]].mm_lanes, 5);  // as asked
  verify(d);
  expect_error([&] { set_mm_par(d, 0, 2); }, "set_mm_par: process in_x is a source, not an mm");
  expect_error([&] { set_mm_par(d, m[0], 0); }, "mm_par 0 of " + d.processes[m[0]].name);
}

// The uniform lowering and the pass agree: lower(mm_par P) == apply_parallelism(lower(1), P).
TEST(Attributes, ApplyParallelismIsTheUniformLowering) {
  LowerOptions o;
  o.mm_par = 5;
  const Design uniform = lower(two_layers(), o);
  Design d = lower(two_layers());
  Parallelism p;
  for (ProcessId id : mms(d)) p.mm_par.emplace_back(id, 5);
  apply_parallelism(d, p);
  for (ProcessId id : mms(d)) {
    EXPECT_EQ(d.processes[id].mm_par, uniform.processes[id].mm_par);
    EXPECT_EQ(d.processes[id].mm_lanes, uniform.processes[id].mm_lanes);
  }
  EventGraph a(d), b(uniform);
  EXPECT_EQ(a.resolve(d.depths()).latency, b.resolve(uniform.depths()).latency);
  EXPECT_EQ(parallelism_of(d).mm_par, p.mm_par);
}

TEST(Attributes, ApplyParallelismRefusesWhatIsNotAChoice) {
  Design d = lower(two_layers());
  const auto m = mms(d);
  expect_error([&] { apply_parallelism(d, Parallelism{{{m[0], 2}, {m[0], 3}}, false, {}}); },
               "process " + d.processes[m[0]].name + " is listed twice");
  expect_error([&] { apply_parallelism(d, Parallelism{{{99, 2}}, false, {}}); }, "no process 99");
  expect_error([&] { apply_parallelism(d, Parallelism{{{m[1], 1 << 20}}, false, {}}); },
               "mm_par 1048576 of " + d.processes[m[1]].name);
}

// The search's result, keyed by the star design it searched at 8 rows, put on the chain
// design at 32 rows: the same kernels by position, each with its MACs.
TEST(Attributes, CarriedToAnotherLoweringOfTheGraph) {
  ir::Graph g = two_layers(32);
  LowerOptions star;
  star.fanout = Fanout::Star;
  star.rows = 8;
  const Design searched = lower(passes::rebatch(g, 8), star);
  DseResult r = search_parallelism(searched, DseOptions{});
  LowerOptions chain;
  chain.rows = 32;
  Design d = lower(g, chain);
  apply_parallelism(d, carry_parallelism(r.choice, searched, d));
  EXPECT_EQ(parallelism_names(d, parallelism_of(d)), parallelism_names(searched, r.choice));
  EXPECT_EQ(d.options.fabric_elementwise_mul, r.choice.fabric_elementwise_mul);
  // Another graph: refused, naming the kernels.
  ir::Graph other;
  other.add_output("y", other.mm(other.input("x", {4, 2}), other.param("w", {2, 2})));
  const Design o = lower(other);
  expect_error([&] { carry_parallelism(r.choice, searched, o); }, "2 mm kernels, then 1");
}

TEST(Attributes, NamesOnlyAtTheEdge) {
  Design d = lower(two_layers());
  const auto m = mms(d);
  const std::string a = d.processes[m[0]].name, b = d.processes[m[1]].name;
  Parallelism p = parallelism_by_name(d, {{a, 2}, {b, 3}}, "plan.json");
  EXPECT_EQ(p.mm_par, (std::vector<std::pair<ProcessId, int64_t>>{{m[0], 2}, {m[1], 3}}));
  EXPECT_EQ(parallelism_names(d, p), (std::map<std::string, int64_t>{{a, 2}, {b, 3}}));
  expect_error([&] { parallelism_by_name(d, {{"mm_77", 2}}, "plan.json"); },
               "plan.json: 'mm_77' is not an mm kernel of the design (its mm kernels: " + a + ", " + b + ")");
  std::string relu;
  for (const Process& pr : d.processes)
    if (pr.kind == Kind::Unary) relu = pr.name;
  ASSERT_FALSE(relu.empty());
  expect_error([&] { parallelism_by_name(d, {{relu, 2}}, "plan.json"); }, "'" + relu + "' is not an mm kernel");
  expect_error([&] { parallelism_by_name(d, {{a, 0}}, "plan.json"); }, "plan.json: mm_par 0 of " + a);
}

}  // namespace
}  // namespace inrarch::dataflow
