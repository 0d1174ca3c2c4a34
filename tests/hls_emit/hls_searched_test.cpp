// The designs the search chooses are the designs that simulate: INSP order 1 at width 64
// through the compile flow's dataflow stage (parallelism search, weight-sharing merge,
// FIFO sizing), emitted and run in all three modes.
#include "driver/parallelism.h"
#include "hls_test_util.h"

namespace inrarch::hls {
namespace {

using hls_test::out_dir;

struct Searched {
  ir::Bundle bundle;
  driver::DataflowResult r;
};

Searched searched_insp(int64_t merge) {
  autodiff::SirenSpec spec;
  spec.dims = {2, 64, 64, 64, 64, 3};
  spec.batch = 8;
  Searched s{autodiff::build_insp_bundle(spec, 1, false), {ir::Graph(), {}, {}, {}, {}, {}, {}, 0, {}}};
  passes::optimize_bundle(s.bundle);
  driver::DataflowPlan plan;
  plan.part = dataflow::find_part("u50");
  plan.merge = merge;
  s.r = driver::build_dataflow(s.bundle.graph, plan);
  s.bundle.graph = s.r.graph;
  return s;
}

SimVerdicts simulate(const Searched& s, const std::string& name) {
  HlsOptions opt;
  fs::path dir = out_dir(name);
  emit_hls(s.r.design, s.bundle, opt, dir);
  return run_simulations(s.r.design, dir, opt);
}

void expect_pass(const SimVerdicts& v) {
  EXPECT_TRUE(v.csim->pass()) << to_json(v).dump();
  EXPECT_LE(v.csim->max_abs_error.value(), 1e-3);
  EXPECT_TRUE(v.threaded->pass()) << to_json(v).dump();
  EXPECT_TRUE(v.trace->pass) << to_json(*v.trace).dump();
}

int64_t widest_mm(const dataflow::Design& d) {
  int64_t p = 0;
  for (const auto& proc : d.processes)
    if (proc.kind == dataflow::Kind::Mm) p = std::max(p, proc.mm_par);
  return p;
}

TEST(HlsSearched, InspOrder1Width64AtTheSearchedParallelism) {
  Searched s = searched_insp(1);
  ASSERT_TRUE(s.r.report["resources"]["fits"].get<bool>());
  EXPECT_GT(widest_mm(s.r.design), 8);  // the search did raise it
  expect_pass(simulate(s, "searched"));
}

// Four groups of three products share their weights: cat / reshape / select kernels
// around one mm per weight.
TEST(HlsSearched, InspOrder1Width64WithMergedProducts) {
  Searched s = searched_insp(4);
  EXPECT_EQ(s.r.report["dse"]["merge_max_group"], 4);
  int cats = 0;
  for (const auto& p : s.r.design.processes) cats += p.op == ir::Op::Cat;
  EXPECT_EQ(cats, 4);
  expect_pass(simulate(s, "merged"));
}

}  // namespace
}  // namespace inrarch::hls
