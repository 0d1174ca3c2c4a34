// The RTL matrix products with a streamed B at any number of MACs: inrarch_mm (A and B
// streamed, the HLS mm<P>) and inrarch_mm_rom_a (a constant A, mm_rom_a<P>). One design
// holds four products: y = a · b and z = y · c (both streamed; z's A comes from another mm),
// v = W · x and q = W1 · x1 (constant A; q's B is one beat at block 4, so a row of C can take
// one MAC cycle, right after B's last beat). Each case lowers it at one mm_par and block and
// checks the lanes the top gives each product (min(P, BC*K), worked out by hand below); each
// run is bit-exact with the HLS C simulation under random stalls (lint clean) and without,
// every process performs its schedule's steps in order, and without stalls the run takes the
// event graph's latency with every FIFO op at its time.
#include <regex>
#include <sstream>

#include "rtl_test_util.h"

namespace inrarch::rtl {
namespace {

// a [3, 6] · b [6, 4] (K = 6: more A reads a row than C writes, a tail), y · c [4, 8] (K = 4:
// fewer), W [6, 5] · x [5, 4] (K = 5), W1 [2, 1] · x1 [1, 4] (K = 1).
ir::Bundle products() {
  ir::Bundle bd{ir::Graph("mm_streamed"), {}, {}, {}};
  ir::Graph& g = bd.graph;
  ir::NodeId y = g.mm(g.input("a", {3, 6}), g.input("b", {6, 4}));
  g.add_output("y", y);
  g.add_output("z", g.mm(y, g.input("c", {4, 8})));
  g.add_output("v", g.mm(g.param("w", {6, 5}), g.input("x", {5, 4})));
  g.add_output("q", g.mm(g.param("w1", {2, 1}), g.input("x1", {1, 4})));
  hls::hls_test::fill_bundle(bd, 23);
  return bd;
}

rtl_test::Case emit_at(ir::Bundle b, const std::string& name, int64_t block, int64_t par) {
  return rtl_test::emit_case(std::move(b), "mm_streamed_" + name, block, {}, par);
}

// Each mm instance of the emitted top as "<module> L=<lanes>", keyed by its output's shape.
std::map<std::string, std::string> instances(const rtl_test::Case& c) {
  std::ifstream in(c.dir / "rtl" / "inrarch_top.sv");
  std::stringstream text;
  text << in.rdbuf();
  const std::string top = text.str();
  std::map<std::string, std::string> found;
  const std::regex inst(R"((inrarch_mm\w*) #\(([^;]*?)\) u_(\w+) \()");
  for (auto it = std::sregex_iterator(top.begin(), top.end(), inst); it != std::sregex_iterator(); ++it) {
    std::smatch lanes;
    const std::string params = (*it)[2];
    if (!std::regex_search(params, lanes, std::regex(R"(\.L\((\d+)\))"))) continue;
    for (const auto& p : c.design.processes)
      if (p.name == (*it)[3].str()) {
        const auto& s = c.design.streams[p.outputs.at(0)].shape;
        found[std::to_string(s.at(0)) + "x" + std::to_string(s.at(1))] = (*it)[1].str() + " L=" + lanes[1].str();
      }
  }
  return found;
}

// The C simulation's beats of an output port that carry the flag, and all its beats.
std::pair<int, int> flagged(const rtl_test::Case& c, const std::string& port) {
  std::ifstream in(c.dir / "rtl" / "csim" / (port + ".txt"));
  int flags = 0, beats = 0;
  for (std::string line; std::getline(in, line); ++beats) flags += line.rfind("1 ", 0) == 0;
  return {flags, beats};
}

struct MmCase {
  const char* name;
  int64_t block, par;
  int64_t y, z, v, q;  // lanes: min(P, BC*K) with K = 6, 4, 5, 1
  bool other_tools = false;
};

// Icarus and Yosys accept the modules, and Icarus runs the design to the same bits in the same
// cycles (the Verilator model already built).
void expect_other_tools(const rtl_test::Case& c) {
  if (!rtl_test::have("iverilog") || !rtl_test::have("yosys")) GTEST_SKIP() << "no iverilog or yosys";
  RtlRunOptions ro;
  ro.lint = false;
  ro.other_tools = true;
  const RtlRun r = run_rtl(c.design, c.dir / "rtl", ro);
  SCOPED_TRACE(to_json(r).dump());
  EXPECT_TRUE(r.pass);
  EXPECT_EQ(r.iverilog, "accepted");
  EXPECT_EQ(r.yosys, "accepted");
  EXPECT_FALSE(r.icarus->run->hang);
  EXPECT_EQ(r.icarus->run->bit_exact, std::optional<bool>(true));
  EXPECT_EQ(r.icarus->run->cycles, r.cycles());
}

void PrintTo(const MmCase& c, std::ostream* os) { *os << c.name; }

class RtlMmStreamed : public testing::TestWithParam<MmCase> {};

TEST_P(RtlMmStreamed, BitExactAndOnSchedule) {
  INRARCH_NEED_TOOL("verilator");
  const MmCase& mc = GetParam();
  rtl_test::Case c = emit_at(products(), mc.name, mc.block, mc.par);
  const std::map<std::string, std::string> want{
      {"3x4", "inrarch_mm L=" + std::to_string(mc.y)},
      {"3x8", "inrarch_mm L=" + std::to_string(mc.z)},
      {"6x4", "inrarch_mm_rom_a L=" + std::to_string(mc.v)},
      {"2x4", "inrarch_mm_rom_a L=" + std::to_string(mc.q)}};
  EXPECT_EQ(instances(c), want);
  rtl_test::expect_exact(c);
  if (mc.other_tools) expect_other_tools(c);
}

// Blocks are the largest divisors of each last dim up to the block: at block 2 every stream
// has 2; at block 4, a has 3 (A row in two beats), b, y, c, z, x, v, x1 and q have 4 (x1: all
// of B in one beat). BC*K caps the lanes: y 6, 12, 24; z 4, 8, 16; v 5, 10, 20; q 1, 2, 4 at
// blocks 1, 2, 4.
INSTANTIATE_TEST_SUITE_P(
    Lanes, RtlMmStreamed,
    testing::Values(MmCase{"p1_b1", 1, 1, 1, 1, 1, 1},      // one MAC each
                    MmCase{"p2_b1", 1, 2, 2, 2, 2, 1},      // 2 divides 6 and 4, not 5
                    MmCase{"p3_b2", 2, 3, 3, 3, 3, 2},      // elements straddle cycles and beats
                    MmCase{"p7_b2", 2, 7, 7, 7, 7, 2},      // more than K: two elements a cycle
                    MmCase{"cap_b2", 2, 64, 12, 8, 10, 2},  // past BC*K: a beat a cycle
                    MmCase{"p5_b4", 4, 5, 5, 5, 5, 4, true}),  // q: a row of C in one MAC cycle; Icarus
    [](const testing::TestParamInfo<MmCase>& i) { return std::string(i.param.name); });

// Ports carry true values, so a and b scaled by 30 make y's sums exceed fixed<32,10>'s 512:
// y's fits saturate and flag their beats. One element of c and one of x1 past 512 saturate
// as they are fed, so every beat of z and of q carries B's flag (q's own sums, W1 times at most
// 512, fit). v saturates nowhere. Bit-exact (flags included) under stalls and without, on
// schedule, in the event graph's cycles.
TEST(RtlMmStreamedSaturation, FlagsAsTheHlsKernels) {
  INRARCH_NEED_TOOL("verilator");
  ir::Bundle b = products();
  for (const char* in : {"a", "b"})
    for (double& x : b.inputs.at(in).data) x *= 30;
  b.inputs.at("c").data[5] = 1000;
  b.inputs.at("x1").data[2] = 1000;
  rtl_test::Case c = emit_at(std::move(b), "sat", 2, 3);
  rtl_test::expect_exact_flagged(c);
  const std::map<std::string, std::pair<int, int>> want{
      {"out_v", {0, 12}}, {"out_q", {4, 4}}, {"out_z", {12, 12}}};
  for (const auto& [port, flagged_beats] : want)
    EXPECT_EQ(flagged(c, port), flagged_beats) << port;
  const auto [y_flagged, y_beats] = flagged(c, "out_y");
  EXPECT_GT(y_flagged, 0);
  EXPECT_EQ(y_beats, 6);
}

// A constant B of one value is lowered whole, a ROM like any weight matrix (the MACs read
// it a line a cycle), so the HLS weights.h holds it and the RTL equals its bits.
TEST(RtlMmStreamed, ASplatBIsHeldWhole) {
  INRARCH_NEED_TOOL("verilator");
  ir::Bundle s{ir::Graph("mm_splat"), {}, {}, {}};
  s.graph.add_output("y", s.graph.mm(s.graph.input("x", {4, 3}), s.graph.constant(0.5, {3, 2})));
  hls::hls_test::fill_bundle(s);
  rtl_test::Case c = rtl_test::emit_case(std::move(s), "mm_splat");
  int mms = 0;
  for (const auto& p : c.design.processes)
    if (p.kind == dataflow::Kind::Mm) {
      EXPECT_FALSE(p.operands.at(1).splat.has_value());
      EXPECT_EQ(p.rom_bits, 6 * 32);
      ++mms;
    }
  ASSERT_EQ(mms, 1);
  rtl_test::expect_exact(c);
}

}  // namespace
}  // namespace inrarch::rtl
