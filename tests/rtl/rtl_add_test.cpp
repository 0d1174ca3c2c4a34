// The x + y example end to end: PyTorch's docs/mlir.md graph (forward(x, y) = x + y on
// [1, 3, 10, 10]) lowered, sized and emitted as RTL; its Verilator run equals the HLS C
// simulation bit for bit, takes the event graph's latency to the cycle, and performs every
// FIFO op at the event graph's time. Every module is clean under verilator -Wall and
// accepted by Icarus and Yosys.
#include "rtl_test_util.h"

namespace inrarch::rtl {
namespace {

ir::Bundle add_bundle() {
  ir::Bundle b{ir::Graph("add"), {}, {}, {}};
  ir::NodeId x = b.graph.input("x", {1, 3, 10, 10}), y = b.graph.input("y", {1, 3, 10, 10});
  b.graph.add_output("out", b.graph.binary(ir::Op::Add, x, y));
  hls::hls_test::fill_bundle(b, 2);
  return b;
}

// One emission for the tests below (the Verilator build is most of their time).
class RtlAdd : public ::testing::Test {
 protected:
  static void SetUpTestSuite() { c_ = new rtl_test::Case(rtl_test::emit_case(add_bundle(), "add")); }
  static void TearDownTestSuite() { delete c_; }
  static rtl_test::Case* c_;
};
rtl_test::Case* RtlAdd::c_ = nullptr;

TEST_F(RtlAdd, BitExactAndCycleExactWithVerilator) {
  INRARCH_NEED_TOOL("verilator");
  const rtl_test::Case& c = *c_;
  RtlRunOptions ro;
  ro.other_tools = rtl_test::have("iverilog") && rtl_test::have("yosys");
  const RtlRun r = run_rtl(c.design, c.dir / "rtl", ro);
  SCOPED_TRACE(to_json(r).dump());
  EXPECT_TRUE(r.pass);
  EXPECT_FALSE(r.hang());
  EXPECT_TRUE(r.bit_exact());
  EXPECT_EQ(r.lint, "clean");
  if (ro.other_tools) {
    EXPECT_EQ(r.iverilog, "accepted");
    EXPECT_EQ(r.yosys, "accepted");
    // Icarus simulates the same RTL to the same bits in the same cycles.
    EXPECT_FALSE(r.icarus->run->hang);
    EXPECT_EQ(r.icarus->run->bit_exact, std::optional<bool>(true));
    EXPECT_EQ(r.icarus->run->cycles, r.cycles());
  }
  // The latency of the event graph, resolved here on its own.
  dataflow::EventGraph eg(c.design);
  const int64_t latency = eg.resolve(c.design.depths()).latency;
  EXPECT_EQ(r.model_cycles, latency);
  EXPECT_EQ(r.cycles(), latency);
  EXPECT_EQ(r.verilator->first_in, 1);
  EXPECT_TRUE(r.trace->pass);
  EXPECT_EQ(r.trace->ops_checked, 6 * 300);  // 3 streams, written and read
}

// Yosys synthesizes the top: at least the FIFOs' registers (3 streams x 2 beats x 33 bits)
// are flip-flops, and an adder needs no DSP.
TEST_F(RtlAdd, YosysSynthesizesTheTop) {
  INRARCH_NEED_TOOL("yosys");
  nlohmann::json s = synthesize(c_->dir / "rtl");
  SCOPED_TRACE(s.dump());
  EXPECT_GE(s["ff"].get<int64_t>(), 3 * 2 * 33);
  EXPECT_GT(s["lut"].get<int64_t>(), 0);
  EXPECT_EQ(s["dsp"].get<int64_t>(), 0);
  EXPECT_EQ(s["bram18k"].get<int64_t>(), 0);
}

// An output never ready: no FIFO op for the watchdog's span is a hang, not a wait forever.
TEST_F(RtlAdd, WatchdogReportsAHang) {
  INRARCH_NEED_TOOL("verilator");
  const rtl_test::Case& c = *c_;
  RtlRunOptions ro;
  ro.lint = false;
  ro.stall_out = 1;
  const RtlRun r = run_rtl(c.design, c.dir / "rtl", ro);
  SCOPED_TRACE(to_json(r).dump());
  EXPECT_TRUE(r.hang());
  EXPECT_FALSE(r.pass);
  EXPECT_FALSE(r.bit_exact());
}

}  // namespace
}  // namespace inrarch::rtl
