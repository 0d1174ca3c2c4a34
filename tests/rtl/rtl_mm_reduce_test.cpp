// The RTL batch reduction (inrarch_mm_reduce, the HLS mm_reduce<L>): c = xᵀ·y with x [5, 4]
// and y [5, 6] streamed by rows, behind a sin so its reads can stall, at lanes that make the
// rows MAC-bound (L = 1, 5: W = 24, 5 cycles a row) and read-bound (L = 24 at block 1: W = 1
// < S = 6), blocks 1 and 2. Each run is bit-exact with the HLS C simulation under random
// stalls (lint clean) and without, follows the schedule, and without stalls takes the event
// graph's latency.
#include "rtl_test_util.h"

namespace inrarch::rtl {
namespace {

ir::Bundle reduction() {
  ir::Bundle bd{ir::Graph("mm_reduce"), {}, {}, {}};
  ir::Graph& g = bd.graph;
  ir::NodeId x = g.unary(ir::Op::Sin, g.input("x", {5, 4}));
  g.add_output("c", g.mm(g.transpose(x), g.input("y", {5, 6})));
  hls::hls_test::fill_bundle(bd, 31);
  return bd;
}

TEST(RtlMmReduce, BitAndCycleExactAtEveryCadence) {
  INRARCH_NEED_TOOL("verilator");
  for (auto [block, par] : {std::pair<int64_t, int64_t>{1, 1}, {1, 24}, {2, 5}}) {
    SCOPED_TRACE("block " + std::to_string(block) + " par " + std::to_string(par));
    rtl_test::Case c = rtl_test::emit_case(reduction(), "mm_reduce_" + std::to_string(block) + "_" +
                                                            std::to_string(par), block, {}, par);
    const dataflow::Process& p = c.design.processes[c.design.find_process("mm_4")];
    ASSERT_EQ(p.kind, dataflow::Kind::MmReduce);
    EXPECT_EQ(p.mm_lanes, par);
    rtl_test::expect_exact(c);
  }
}

}  // namespace
}  // namespace inrarch::rtl
