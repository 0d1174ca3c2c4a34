// Deadlock in RTL: a value read by an mm (which reads a whole A row before it writes) and,
// beside it, by the add that also takes the mm's result. At depth 2 the event graph has a
// cycle: the copy cannot write the add's full FIFO, so the mm never gets its row. The RTL
// then hangs, and the testbench's watchdog says so; at the sized depths it completes in
// the event graph's latency.
#include "rtl_test_util.h"

namespace inrarch::rtl {
namespace fs = std::filesystem;
namespace {

ir::Bundle fork_bundle() {
  ir::Bundle b{ir::Graph("fork"), {}, {}, {}};
  ir::NodeId x = b.graph.input("x", {4, 8});
  b.graph.add_output("y", b.graph.binary(ir::Op::Add, b.graph.mm(x, b.graph.param("w", {8, 8})), x));
  hls::hls_test::fill_bundle(b, 13);
  return b;
}

TEST(RtlDeadlock, HangsExactlyWhenTheEventGraphDeadlocks) {
  INRARCH_NEED_TOOL("verilator");
  rtl_test::expect_hang_at_depth_two(fork_bundle(), "deadlock");  // every FIFO at depth 2
  RtlRunOptions ro;
  ro.lint = false;

  rtl_test::Case sized = rtl_test::emit_case(fork_bundle(), "fork_sized");  // paper's sizing
  const RtlRun ok = run_rtl(sized.design, sized.dir / "rtl", ro);
  EXPECT_FALSE(ok.hang()) << to_json(ok).dump();
  EXPECT_TRUE(ok.pass) << to_json(ok).dump();
  EXPECT_EQ(ok.cycles(), ok.model_cycles) << to_json(ok).dump();
}

}  // namespace
}  // namespace inrarch::rtl
