// The RTL matrix product with a constant A and a streamed B (inrarch_mm_rom_a at one MAC; more
// in rtl_mm_streamed_test.cpp), and
// the paper's Fig. 5 (W · x beside cos(x), joined by a mul) in RTL. Each mm run is bit-exact
// with the HLS C simulation under random stalls and without, every process performs its
// schedule's steps in order, and without stalls the run takes the event graph's latency with
// every FIFO op at its time. Fig. 5 hangs at depth 2 (the event graph's deadlock) and, at the
// sized depths, completes bit-exact in the event graph's latency.
#include "rtl_test_util.h"

namespace inrarch::rtl {
namespace {

using ir::Op;

// W [rows, K] · x [K, N], then (two layers) V [3, rows] · relu(that).
ir::Bundle rom_a(int64_t rows, int64_t K, int64_t N, bool two_layers, double x_scale = 1e-2) {
  ir::Bundle b{ir::Graph("mm_rom_a"), {}, {}, {}};
  ir::Graph& g = b.graph;
  ir::NodeId y = g.mm(g.param("w", {rows, K}), g.input("x", {K, N}));
  if (two_layers) y = g.mm(g.param("v", {3, rows}), g.unary(Op::Relu, y));
  g.add_output("y", y);
  hls::hls_test::fill_bundle(b, 17);
  for (double& v : b.inputs.at("x").data) v *= x_scale;
  return b;
}

// Every mm of the case has a constant A and a streamed B.
void expect_rom_a(const rtl_test::Case& c, int mms) {
  int n = 0;
  for (const auto& p : c.design.processes)
    if (p.kind == dataflow::Kind::Mm) {
      EXPECT_LT(p.operands.at(0).stream, 0) << p.name;
      EXPECT_GE(p.operands.at(1).stream, 0) << p.name;
      ++n;
    }
  EXPECT_EQ(n, mms);
}

struct RomACase {
  const char* name;
  int64_t rows, K, N, block;
  bool two_layers;
};

void PrintTo(const RomACase& c, std::ostream* os) { *os << c.name; }

class RtlMmRomA : public testing::TestWithParam<RomACase> {};

TEST_P(RtlMmRomA, BitExactAndOnSchedule) {
  INRARCH_NEED_TOOL("verilator");
  const RomACase& rc = GetParam();
  rtl_test::Case c = rtl_test::emit_case(rom_a(rc.rows, rc.K, rc.N, rc.two_layers), std::string("rom_a_") + rc.name,
                                         rc.block);
  expect_rom_a(c, rc.two_layers ? 2 : 1);
  rtl_test::expect_exact(c);
}

INSTANTIATE_TEST_SUITE_P(
    Shapes, RtlMmRomA,
    testing::Values(RomACase{"b1", 6, 5, 4, 1, false},         // an element a beat
                    RomACase{"b2", 6, 5, 4, 2, false},         // B and C in beats of 2
                    RomACase{"b4", 6, 5, 4, 4, false},         // a row of B in one beat
                    RomACase{"k1_one_beat", 3, 1, 4, 4, false},  // all of B in one beat, K = 1
                    RomACase{"two_layers", 6, 5, 4, 2, true}),   // rom_a into rom_a through relu
    [](const testing::TestParamInfo<RomACase>& i) { return std::string(i.param.name); });

// Exponents chosen for inputs in [-0.01, 0.01], inputs up to 1, and W's row i scaled by 4^i:
// the later rows' sums saturate in fit<T>, so from the first of them on the beats carry the
// sticky flag (the early ones do not). Bit-exact (flags included) under stalls and without,
// on schedule, in the event graph's cycles.
TEST(RtlMmRomASaturation, StickyFlagAsTheHlsKernel) {
  INRARCH_NEED_TOOL("verilator");
  hls::HlsOptions ho;
  ho.input_range = std::pair(-0.01, 0.01);
  ir::Bundle b = rom_a(6, 5, 4, false, 1.0);
  for (size_t at = 0; at < b.params.at("w").data.size(); ++at) b.params.at("w").data[at] *= double(1 << (2 * (at / 5)));
  rtl_test::Case c = rtl_test::emit_case(std::move(b), "rom_a_sat", 2, ho);
  const auto [flagged, beats] = rtl_test::expect_exact_flagged(c);
  EXPECT_GT(flagged, 0);
  EXPECT_LT(flagged, beats);
}

// The paper's Fig. 5: x feeds mm (W · x reads all of x before it writes) and cos; mul joins
// them. With 25 elements at depth 2 the event graph deadlocks (the copy cannot write cos's
// full FIFO, so mm never gets the rest of x; the 18-step cos holds 22 of them).
ir::Bundle fig5(int64_t n) {
  ir::Bundle b{ir::Graph("fig5"), {}, {}, {}};
  ir::Graph& g = b.graph;
  ir::NodeId x = g.input("x", {n, 1});
  g.add_output("y", g.binary(Op::Mul, g.mm(g.param("w", {n, n}), x), g.unary(Op::Cos, x)));
  hls::hls_test::fill_bundle(b, 5);
  return b;
}

TEST(RtlFig5, HangsAtDepthTwoAndCompletesAtTheSizedDepths) {
  INRARCH_NEED_TOOL("verilator");
  rtl_test::expect_hang_at_depth_two(fig5(25), "fig5");

  rtl_test::Case sized = rtl_test::emit_case(fig5(25), "fig5_sized");
  EXPECT_FALSE(dataflow::EventGraph(sized.design).resolve(sized.design.depths()).deadlock);
  RtlRunOptions ro;
  ro.lint = false;
  const RtlRun ok = run_rtl(sized.design, sized.dir / "rtl", ro);
  EXPECT_FALSE(ok.hang()) << to_json(ok).dump();
  rtl_test::expect_exact(sized);  // bit-exact, on schedule, the event graph's latency
}

}  // namespace
}  // namespace inrarch::rtl
