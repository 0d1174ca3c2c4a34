// The pipelined mm engine (inrarch_mm_engine, D = mm_depth stages) at L = 1, 3, 8 and 32
// lanes with K = 37 (no L divides it: elements straddle cycles and, at L = 32, up to two
// end in one), and at L = 6, 8, 32 with K = 24 (lanes and K share a factor: the pruned
// prefix tree), in all three forms: a constant B (inrarch_mm_rom_b), both operands streamed
// (inrarch_mm) and a constant A (inrarch_mm_rom_a, K = 3: above L = 1, below the others).
// Each run is bit-exact with the HLS C simulation (which writes each beat D cycles after its
// MAC cycle, mm.h's delay line) under random stalls and without, every process performs its
// schedule's steps in order, and without stalls the run takes the event graph's latency with
// every FIFO op at its time.
#include <fmt/format.h>

#include "dataflow/attributes.h"
#include "rtl_test_util.h"

namespace inrarch::rtl {
namespace {

ir::Bundle three_forms(int64_t K) {
  ir::Bundle b{ir::Graph("mm_pipe"), {}, {}, {}};
  ir::Graph& g = b.graph;
  ir::NodeId y = g.mm(g.input("x", {3, K}), g.param("w", {K, 3}));  // constant B
  g.add_output("y", y);
  g.add_output("z", g.mm(g.param("wa", {2, 3}), g.unary(ir::Op::Relu, y)));  // constant A
  g.add_output("u", g.mm(g.input("p", {2, K}), g.input("q", {K, 2})));   // both streamed
  hls::hls_test::fill_bundle(b, 23);
  return b;
}

// (lanes, K): K = 37 shares no factor with the lanes (G = 1, the whole prefix tree); K = 24
// does (G = gcd(L, K) = 8, 6, 24: only the group ends' tree is built, inrarch_mm_half).
class RtlMmPipeline : public testing::TestWithParam<std::pair<int64_t, int64_t>> {};

TEST_P(RtlMmPipeline, BitAndCycleExact) {
  INRARCH_NEED_TOOL("verilator");
  const auto [par, K] = GetParam();
  rtl_test::Case c = rtl_test::emit_case(three_forms(K), fmt::format("mm_pipe_l{}_k{}", par, K), 1, {}, par);
  int mms = 0;
  for (const auto& p : c.design.processes) {
    if (p.kind != dataflow::Kind::Mm) continue;
    ++mms;
    EXPECT_EQ(p.mm_lanes, std::min(par, dataflow::mm_beat_work(c.design, p))) << p.name;
    EXPECT_EQ(p.mm_depth, dataflow::mm_pipeline_depth(p.mm_lanes, dataflow::mm_inner(p), 32, 32)) << p.name;
  }
  EXPECT_EQ(mms, 3);
  rtl_test::expect_exact(c);
}

INSTANTIATE_TEST_SUITE_P(Lanes, RtlMmPipeline,
                         testing::Values(std::pair<int64_t, int64_t>{1, 37}, std::pair<int64_t, int64_t>{3, 37},
                                         std::pair<int64_t, int64_t>{8, 37}, std::pair<int64_t, int64_t>{32, 37},
                                         std::pair<int64_t, int64_t>{8, 24}, std::pair<int64_t, int64_t>{6, 24},
                                         std::pair<int64_t, int64_t>{32, 24}),
                         [](const testing::TestParamInfo<std::pair<int64_t, int64_t>>& i) {
                           return fmt::format("l{}_k{}", i.param.first, i.param.second);
                         });

}  // namespace
}  // namespace inrarch::rtl
