// The aligned mm engine (inrarch_mm_engine_aligned, docs/rtl.md "The mm engine's pipeline"):
// lanes L that divide K or that K divides, in every form it handles. Five products, each
// lowered at a block and a lane count that put it in a chosen case:
//   y1 = x1 [4, 2] · W1 [2, 9]     constant B, K = 2: L / K elements a cycle, their beat
//                                   slots wrapping (3 slots, 2 elements: slots 0 1 | 2 0 | ..)
//                                   and a row's last cycle ending fewer (9 elements, 2 a cycle);
//   y2 = x2 [3, 12] · W2 [12, 6]   constant B, K = 12: an element over K / L cycles (the
//                                   accumulator), 3 slots a beat;
//   y3 = Wa [2, 3] · relu(x3)      constant A, K = 3;
//   y4 = p [2, 6] · q [6, 4]       both streamed, K = 6;
//   y5 = x5 [3, 8] · W5 [8, 1]     fewer MAC cycles a row than A beats: the MAC cycles read
//                                   the next row and the rest follows (schedule.h).
// Each run is bit-exact with the HLS C simulation under random stalls and cycle-exact
// without (the event graph's latency, every FIFO op at its time), its mm pipelines as deep
// as mm_pipeline_depth(L, K, ..) says (the engine checks D against its stages), and the
// lanes and their alignment are the hand-worked ones below.
#include <fmt/format.h>

#include "dataflow/attributes.h"
#include "rtl_test_util.h"

namespace inrarch::rtl {
namespace {

ir::Bundle five_products() {
  ir::Bundle b{ir::Graph("mm_aligned"), {}, {}, {}};
  ir::Graph& g = b.graph;
  g.add_output("y1", g.mm(g.input("x1", {4, 2}), g.param("w1", {2, 9})));
  g.add_output("y2", g.mm(g.input("x2", {3, 12}), g.param("w2", {12, 6})));
  g.add_output("y3", g.mm(g.param("wa", {2, 3}), g.unary(ir::Op::Relu, g.input("x3", {3, 4}))));
  g.add_output("y4", g.mm(g.input("p", {2, 6}), g.input("q", {6, 4})));
  g.add_output("y5", g.mm(g.input("x5", {3, 8}), g.param("w5", {8, 1})));
  hls::hls_test::fill_bundle(b, 41);
  return b;
}

struct AlignedCase {
  const char* name;
  int64_t block, par;
  std::vector<int64_t> lanes;   // y1..y5's mm, by hand: min(par, bC * K)
  std::vector<bool> aligned;    // L divides K or K divides L
};

void PrintTo(const AlignedCase& c, std::ostream* os) { *os << c.name; }

class RtlMmAligned : public testing::TestWithParam<AlignedCase> {};

TEST_P(RtlMmAligned, BitAndCycleExact) {
  INRARCH_NEED_TOOL("verilator");
  const AlignedCase& ac = GetParam();
  rtl_test::Case c = rtl_test::emit_case(five_products(), std::string("mm_aligned_") + ac.name, ac.block, {}, ac.par);
  std::vector<int64_t> lanes;
  std::vector<bool> aligned;
  for (const auto& p : c.design.processes) {
    if (p.kind != dataflow::Kind::Mm) continue;
    lanes.push_back(p.mm_lanes);
    aligned.push_back(dataflow::mm_lanes_aligned(p.mm_lanes, dataflow::mm_inner(p)));
    EXPECT_EQ(p.mm_depth, dataflow::mm_pipeline_depth(p.mm_lanes, dataflow::mm_inner(p), 32, 32)) << p.name;
  }
  EXPECT_EQ(lanes, ac.lanes);
  EXPECT_EQ(aligned, ac.aligned);
  rtl_test::expect_exact(c);
}

// Blocks are the largest divisors of each output's last dim up to the block: 9 and 6 take 3
// at blocks 3 and 4, 4 takes 2 at block 3 and 4 at block 4; x5's 8 takes 2 and 4 (4 and 2
// A beats a row), y5's 1 takes 1.
INSTANTIATE_TEST_SUITE_P(
    Forms, RtlMmAligned,
    testing::Values(
        // y1: 4 lanes of K = 2, 3 slots: slots wrap, the row's last cycle ends 1; y2: 4 of
        // K = 12, 3 cycles an element; y3, y4: 4 lanes of K = 3 and 6, the prefix engine;
        // y5: 2 MAC cycles a row, 4 A beats.
        AlignedCase{"b3_p4", 3, 4, {4, 4, 4, 4, 4}, {true, true, false, false, true}},
        // y1: 6 lanes, 3 elements a cycle (a beat); y2: 6 of K = 12, 2 cycles an element;
        // y3: 6 lanes of K = 3, 2 elements a cycle into 4 slots; y4: 6 of K = 6; y5: 6 of
        // K = 8 (prefix), 2 MAC cycles for 2 A beats.
        AlignedCase{"b4_p6", 4, 6, {6, 6, 6, 6, 6}, {true, true, true, true, false}},
        // y2: 12 = K; y3: 12 lanes, 4 elements a cycle (a beat); y4: 2 elements a cycle;
        // y5: 8 = K, 1 MAC cycle for 2 A beats.
        AlignedCase{"b4_p12", 4, 12, {6, 12, 12, 12, 8}, {true, true, true, true, true}}),
    [](const testing::TestParamInfo<AlignedCase>& i) { return std::string(i.param.name); });

}  // namespace
}  // namespace inrarch::rtl
