// Threaded C simulation: the paper's Fig. 5 design (x feeds mm's streamed B and cos; mul
// joins them) deadlocks with every FIFO at depth 2 for n > 5. The threaded driver must
// report that deadlock (who waits on what) and end, not hang; with the sized depths it
// must complete and match the reference.
#include "hls_test_util.h"

namespace inrarch::hls {
namespace {

using hls_test::out_dir;

ir::Bundle fig5_bundle(int64_t n) {
  ir::Bundle b;
  ir::Graph& g = b.graph;
  ir::NodeId x = g.input("x", {n, 1});
  ir::NodeId w = g.param("w", {n, n});
  ir::NodeId m = g.mm(w, x);
  ir::NodeId c = g.unary(ir::Op::Cos, x);
  g.add_output("y", g.binary(ir::Op::Mul, m, c));
  hls_test::fill_bundle(b);
  return b;
}

TEST(HlsThreaded, Fig5DeadlockIsReportedAtDepth2) {
  ir::Bundle b = fig5_bundle(25);  // more than the 22 beats the depth-2 cos branch holds
  dataflow::Design d = dataflow::lower(b.graph);  // every depth 2
  HlsOptions opt;
  fs::path dir = out_dir("fig5_depth2");
  emit_hls(d, b, opt, dir);
  SimOptions sim;
  sim.sequential = sim.trace = false;  // unbounded sequential csim cannot deadlock
  sim.budget_s = 120;
  const SimVerdicts v = run_simulations(d, dir, opt, sim);
  std::printf("%s\n", to_json(v).dump(2).c_str());
  ASSERT_TRUE((v.threaded->status == SimRun::Status::Deadlock));
  EXPECT_FALSE(v.threaded->pass());
  // The cycle: copy blocked writing cos's input, cos writing mul's, mul reading mm's.
  std::string waits = to_json(v)["threaded"]["waits"].dump();  // as report.json lists them
  EXPECT_NE(waits.find("\"copy_in_x\""), std::string::npos) << waits;
  EXPECT_NE(waits.find("write s_copy_in_x__cos_3"), std::string::npos) << waits;
  EXPECT_NE(waits.find("\"mul_4\""), std::string::npos) << waits;
  EXPECT_NE(waits.find("read s_mm_2__mul_4"), std::string::npos) << waits;
}

TEST(HlsThreaded, Fig5CompletesAtSizedDepths) {
  ir::Bundle b = fig5_bundle(25);  // more than the 22 beats the depth-2 cos branch holds
  dataflow::Design d = dataflow::lower(b.graph);
  hls_test::size_design(d);
  HlsOptions opt;
  fs::path dir = out_dir("fig5_sized");
  emit_hls(d, b, opt, dir);
  SimOptions sim;
  sim.budget_s = 120;
  const SimVerdicts v = run_simulations(d, dir, opt, sim);
  std::printf("%s\n", to_json(v).dump(2).c_str());
  EXPECT_FALSE((v.threaded->status == SimRun::Status::Deadlock));
  EXPECT_TRUE(v.threaded->pass());
  EXPECT_TRUE(v.csim->pass());
  EXPECT_TRUE(v.trace->pass) << to_json(*v.trace).dump();  // mm with a ROM A
}

}  // namespace
}  // namespace inrarch::hls
