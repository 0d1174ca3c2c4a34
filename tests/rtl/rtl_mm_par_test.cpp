// The RTL matrix product with P parallel MACs (inrarch_mm_rom_b, L = min(P, BC*K) lanes):
// two layers mm(relu(mm(x, W1) + b1), W2) at several P and blocks, among them P not
// dividing K (an element's products straddle cycles), P dividing K (one lane finishes
// elements), P above K (two elements finish in a cycle) and P at or past the cap BC*K (a
// beat a cycle). Each run is bit-exact with the HLS C simulation (which sums with P MACs)
// under random stalls and without, every process performs its schedule's steps in order,
// and without stalls the run takes the event graph's latency with every FIFO op at its time.

#include "backend/rtl/rtl_detail.h"
#include "dataflow/schedule.h"
#include "rtl_test_util.h"

namespace inrarch::rtl {
namespace {

using ir::Op;

// x [6, 5] · W1 [5, 4] (+ a bias row, relu) · W2 [4, 6]: K = 5 and 4, scaled streams.
ir::Bundle two_layers(double x_scale) {
  ir::Bundle b{ir::Graph("mm_par"), {}, {}, {}};
  ir::Graph& g = b.graph;
  ir::NodeId y = g.mm(g.input("x", {6, 5}), g.param("w1", {5, 4}));
  g.add_output("y", y);
  ir::NodeId h = g.binary(Op::Add, y, g.expand(g.param("b1", {1, 4}), {6, 4}));
  g.add_output("z", g.mm(g.unary(Op::Relu, h), g.param("w2", {4, 6})));
  hls::hls_test::fill_bundle(b, 11);
  for (double& v : b.inputs.at("x").data) v *= x_scale;
  return b;
}

// The case lowered with `par` MACs per mm, sized, its HLS project and RTL emitted.
rtl_test::Case emit_par(ir::Bundle b, const std::string& name, int64_t block, int64_t par,
                        const hls::HlsOptions& ho = {}) {
  return rtl_test::emit_case(std::move(b), "mm_par_" + name, block, ho, par);
}

// The lanes each mm of c got (the stored min(P, BC*K)), in design order.
std::vector<int64_t> lanes(const rtl_test::Case& c) {
  std::vector<int64_t> l;
  for (const auto& p : c.design.processes)
    if (p.kind == dataflow::Kind::Mm) l.push_back(p.mm_lanes);
  return l;
}

struct ParCase {
  const char* name;
  int64_t block, par;
  std::vector<int64_t> lanes;  // of the two mm (K = 5, then K = 4)
};

void PrintTo(const ParCase& c, std::ostream* os) { *os << c.name; }

class RtlMmPar : public testing::TestWithParam<ParCase> {};

TEST_P(RtlMmPar, BitExactAndOnSchedule) {
  INRARCH_NEED_TOOL("verilator");
  const ParCase& pc = GetParam();
  rtl_test::Case c = emit_par(two_layers(1e-2), pc.name, pc.block, pc.par);
  EXPECT_EQ(lanes(c), pc.lanes);
  rtl_test::expect_exact(c);
}

// Blocks per stream are the largest divisors of the last dim up to the block: at block 2 the
// first mm writes beats of 2 (BC*K = 10), the second 2 (BC*K = 8).
INSTANTIATE_TEST_SUITE_P(
    Lanes, RtlMmPar,
    testing::Values(ParCase{"p2_b1", 1, 2, {2, 2}},      // 2 does not divide 5; divides 4
                    ParCase{"p3_b1", 1, 3, {3, 3}},      // divides neither
                    ParCase{"p3_b2", 2, 3, {3, 3}},      // elements straddle beats too
                    ParCase{"p7_b2", 2, 7, {7, 7}},      // more than K: two elements a cycle
                    ParCase{"p4_b2", 2, 4, {4, 4}},      // divides 4: one lane finishes
                    ParCase{"cap_b2", 2, 64, {10, 8}},   // past BC*K: a beat a cycle
                    ParCase{"cap_b1", 1, 5, {5, 4}},     // at K and past it: an element a cycle
                    ParCase{"p3_b5", 5, 3, {3, 3}}),     // an A row in one beat (blocks 5 and 4)
    [](const testing::TestParamInfo<ParCase>& i) { return std::string(i.param.name); });

// Exponents chosen for inputs in [-0.01, 0.01], inputs up to 1: sums that saturate in
// fit<T>, so lanes set the beats' sticky flags (a beat gets those of the lanes up to its
// last element, the next beat the rest). Bit-exact (flags included) under stalls and
// without, on schedule, in the event graph's cycles; some beats carry the flag.
TEST(RtlMmParSaturation, FlagsOfTheLanesBeforeTheWrite) {
  INRARCH_NEED_TOOL("verilator");
  hls::HlsOptions ho;
  ho.input_range = std::pair(-0.01, 0.01);
  rtl_test::Case c = emit_par(two_layers(1.0), "sat", 2, 7, ho);
  const auto [flagged, beats] = rtl_test::expect_exact_flagged(c);
  EXPECT_GT(flagged, 0);
  EXPECT_LT(flagged, beats);
}

}  // namespace
}  // namespace inrarch::rtl
