// inrarch_gather where the HLS gather is more than a copy: streams of differing blocks (the
// inputs' from each other and from the output's) and constant operands (a splat or a ROM,
// as slice and select backward concatenate). Each design's outputs equal the HLS C
// simulation's bits under random stalls, every process follows its schedule, and without
// stalls every FIFO op happens at the event graph's time.
#include <algorithm>
#include <fstream>
#include <iterator>
#include <map>
#include <set>
#include <tuple>

#include "autodiff/grad.h"
#include "dataflow/kernels.h"
#include "rtl_test_util.h"

namespace inrarch::rtl {
namespace {

using dataflow::Kind;
namespace fs = std::filesystem;

// The gathers of d that inrarch_gather runs (neither a sum nor a copy), with the blocks of
// their streamed operands and of their output.
struct GatherBlocks {
  std::string name;
  std::set<int64_t> in;
  int64_t out;
  int constants = 0;
};
std::vector<GatherBlocks> table_gathers(const dataflow::Design& d) {
  std::vector<GatherBlocks> g;
  for (const auto& p : d.processes) {
    if (!dataflow::is_gather(p.kind) || p.kind == Kind::SumMap) continue;
    GatherBlocks b{p.name, {}, d.streams[p.outputs.at(0)].block};
    for (const auto& od : p.operands) {
      if (od.stream >= 0) b.in.insert(d.streams[od.stream].block);
      else ++b.constants;
    }
    if (b.in.size() == 1 && *b.in.begin() == b.out && b.constants == 0 &&
        p.kind == Kind::IdentityMap)
      continue;  // a pass-through: inrarch_copy
    g.push_back(b);
  }
  return g;
}

bool blocks_differ(const GatherBlocks& b) { return b.in.size() > 1 || *b.in.begin() != b.out; }

// Runs c without stalls through every tool (lint, Icarus, Yosys), FIFOs as built.
void expect_other_tools_agree(const rtl_test::Case& c) {
  if (!rtl_test::have("iverilog") || !rtl_test::have("yosys")) return;
  RtlRunOptions ro;
  ro.other_tools = true;
  const RtlRun r = run_rtl(c.design, c.dir / "rtl", ro);
  SCOPED_TRACE(to_json(r).dump());
  EXPECT_TRUE(r.pass);
  EXPECT_EQ(r.lint, "clean");
  EXPECT_EQ(r.iverilog, "accepted");
  EXPECT_EQ(r.yosys, "accepted");
  EXPECT_EQ(r.icarus->run->bit_exact, std::optional<bool>(true));
  EXPECT_EQ(r.icarus->run->cycles, r.cycles());
}

// At block 4 each stream's block is the largest divisor of its last dim up to 4: a cat of
// blocks 3 and 1 into 4, a slice 4 -> 3, a select 3 -> 4, a reshape 3 -> 4 (beats split and
// joined), an expand 1 -> 4.
TEST(RtlGather, DifferingBlocks) {
  INRARCH_NEED_TOOL("verilator");
  ir::Bundle b{ir::Graph("gather_blocks"), {}, {}, {}};
  ir::Graph& g = b.graph;
  ir::NodeId a = g.input("a", {4, 3}), v = g.input("v", {4, 5}), x = g.input("x", {4, 8});
  ir::NodeId y = g.input("y", {4, 6}), z = g.input("z", {4, 1});
  g.add_output("cat", g.cat({a, v}, 1));
  g.add_output("slice", g.slice(x, 1, 1, 7));
  g.add_output("sel", g.select(y, 1, 5));
  g.add_output("flat", g.reshape(g.unary(ir::Op::Neg, y), {3, 8}));
  g.add_output("expand", g.expand(z, {4, 8}));
  hls::hls_test::fill_bundle(b, 21);
  rtl_test::Case c = rtl_test::emit_case(std::move(b), "gather_blocks", 4);
  const std::vector<GatherBlocks> gathers = table_gathers(c.design);
  ASSERT_EQ(gathers.size(), 5u);
  for (const auto& gb : gathers) EXPECT_TRUE(blocks_differ(gb)) << gb.name;
  std::set<std::pair<std::set<int64_t>, int64_t>> seen;
  for (const auto& gb : gathers) seen.insert({gb.in, gb.out});
  const std::set<std::pair<std::set<int64_t>, int64_t>> want{
      {{1, 3}, 4}, {{4}, 3}, {{3}, 4}, {{1}, 4}};  // cat; slice; select and reshape; expand
  EXPECT_EQ(seen, want);
  rtl_test::expect_exact(c);
  expect_other_tools_agree(c);
}

// A gather builds its buffer only where some element is read from it: a slice whose every
// output element comes from the beat read in its writing step has none (HELD = 0), a cat that
// joins one-element beats into four-element ones keeps three of each four (HELD = 1); both
// bit- and cycle-exact.
TEST(RtlGather, BufferOnlyWhereRead) {
  INRARCH_NEED_TOOL("verilator");
  ir::Bundle b{ir::Graph("gather_held"), {}, {}, {}};
  ir::Graph& g = b.graph;
  ir::NodeId a = g.input("a", {4, 3}), v = g.input("v", {4, 5}), x = g.input("x", {4, 8});
  g.add_output("cat", g.cat({a, v}, 1));
  g.add_output("slice", g.slice(x, 1, 1, 7));
  hls::hls_test::fill_bundle(b, 27);
  rtl_test::Case c = rtl_test::emit_case(std::move(b), "gather_held", 4);
  std::ifstream top(c.dir / "rtl" / "inrarch_top.sv");
  const std::string text{std::istreambuf_iterator<char>(top), std::istreambuf_iterator<char>()};
  std::map<std::string, std::string> held;  // instance -> HELD
  for (const auto& gb : table_gathers(c.design)) {
    const size_t at = text.find(" u_" + gb.name + " (");
    ASSERT_NE(at, std::string::npos) << gb.name;
    const size_t h = text.rfind(".HELD(", at);
    ASSERT_NE(h, std::string::npos) << gb.name;
    held[gb.name.substr(0, gb.name.find('_'))] = text.substr(h + 6, 1);
  }
  const std::map<std::string, std::string> want{{"cat", "1"}, {"slice", "0"}};
  EXPECT_EQ(held, want);
  rtl_test::expect_exact(c);
}


// A re-blocking gather keeps a ring of its input's last beats, not the whole input, which
// grows with the batch: splitting beats of 3 into beats of 1, and joining beats of 3 into
// beats of 4 (the rest of an output beat is in the beat read as it is written), each keep
// one beat, 3 words of the 96 elements that come in; joining beats of 1 into beats of 4
// keeps 3 beats, as a ring of 4 that wraps 20 times. Bit- and cycle-exact.
TEST(RtlGather, ReblockingKeepsARingOfBeats) {
  INRARCH_NEED_TOOL("verilator");
  ir::Bundle b{ir::Graph("gather_ring"), {}, {}, {}};
  ir::Graph& g = b.graph;
  const ir::NodeId x = g.input("x", {32, 3}), y = g.input("y", {32, 3}), z = g.input("z", {16, 5});
  g.add_output("split", g.unsqueeze(g.unary(ir::Op::Neg, x), 2));
  g.add_output("join", g.reshape(g.unary(ir::Op::Neg, y), {24, 4}));
  g.add_output("wrap", g.reshape(g.unary(ir::Op::Neg, z), {20, 4}));
  hls::hls_test::fill_bundle(b, 31);
  rtl_test::Case c = rtl_test::emit_case(std::move(b), "gather_ring", 4);
  std::ifstream in(c.dir / "rtl" / "inrarch_top.sv");
  const std::string top{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
  std::multiset<std::tuple<std::string, int64_t, int64_t>> bufs;  // {kind, BUF, HELD}
  for (const auto& gb : table_gathers(c.design)) {
    auto param = [&](const std::string& name) { return rtl_test::instance_param(top, gb.name, name); };
    bufs.insert({gb.name.substr(0, gb.name.find('_')), param("BUF"), param("HELD")});
  }
  const std::multiset<std::tuple<std::string, int64_t, int64_t>> want{
      {"unsqueeze", 3, 1}, {"reshape", 3, 1}, {"reshape", 4, 1}};
  EXPECT_EQ(bufs, want);
  rtl_test::expect_exact(c);
}

// A gather's step and entry tables follow the batch's rows, so inrarch_gather keeps each up
// to where it starts repeating and once round the period: a cat of three inputs (blocks 3,
// 3 and 1 into 7, a positional encoding's shape) and a select keep the same lines at 16 rows
// and at 64, far fewer than the steps, and the design read through its looped tables is
// bit- and cycle-exact.
ir::Bundle encoding_cat(int64_t rows) {
  ir::Bundle b{ir::Graph("gather_loop"), {}, {}, {}};
  ir::Graph& g = b.graph;
  const ir::NodeId x = g.input("x", {rows, 3}), t = g.input("t", {rows, 1});
  g.add_output("enc", g.cat({x, g.unary(ir::Op::Neg, x), t}, 1));
  g.add_output("pick", g.select(g.unary(ir::Op::Neg, x), 1, 2));
  hls::hls_test::fill_bundle(b, 41);
  return b;
}

TEST(RtlGather, TablesStayARowLongWhateverTheBatch) {
  INRARCH_NEED_TOOL("verilator");
  std::map<int64_t, std::map<std::string, std::vector<int64_t>>> lines;  // rows -> gather -> {step, src} lines
  for (int64_t rows : {16, 64}) {
    rtl_test::Case c = rtl_test::emit_case(encoding_cat(rows), "gather_loop_" + std::to_string(rows), 3);
    std::ifstream in(c.dir / "rtl" / "inrarch_top.sv");
    const std::string top{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
    for (const auto& gb : table_gathers(c.design)) {
      const std::string kind = gb.name.substr(0, gb.name.find('_'));
      auto param = [&](const std::string& name) { return rtl_test::instance_param(top, gb.name, name); };
      lines[rows][kind] = {param("STEP_LINES"), param("SRC_LINES")};
      EXPECT_LE(param("SRC_LINES") * 4, param("STEPS")) << rows << " " << kind;
    }
    if (rows == 64) rtl_test::expect_exact(c);
  }
  EXPECT_EQ(lines[16].size(), 2u);
  EXPECT_EQ(lines[16], lines[64]);
}

// Overflow flags through gathers of differing blocks, with every FIFO deep enough to be a RAM
// (a beat readable two cycles after its write). Exponents are chosen for inputs in
// [-0.1, 0.1] and one element of x is ten times that, so x + x saturates late (as in
// RtlOverflow), into the third input of a cat (blocks 4, 1 and 3 into 4: its flag bit sits
// past the other inputs' beats); one element of w does so into a slice (4 -> 3). The
// gathers sit between scaled streams, since a gather moves data at one exponent and a
// port's is 0.
TEST(RtlGather, FlagsAcrossBlocksRamFifos) {
  INRARCH_NEED_TOOL("verilator");
  ir::Bundle b{ir::Graph("gather_flags"), {}, {}, {}};
  ir::Graph& g = b.graph;
  ir::NodeId q = g.input("q", {4, 4}), u = g.input("u", {4, 1}), x = g.input("x", {4, 3});
  ir::NodeId w = g.input("w", {4, 8});
  auto twice = [&](ir::NodeId a) { return g.binary(ir::Op::Add, a, a); };  // scaled by 2^10
  g.add_output("cat", g.unary(ir::Op::Neg, g.cat({twice(q), twice(u), twice(x)}, 1)));
  g.add_output("slice", g.unary(ir::Op::Neg, g.slice(twice(w), 1, 2, 8)));
  hls::hls_test::fill_bundle(b, 25);
  for (auto& [name, t] : b.inputs)
    for (double& e : t.data) e *= 0.1;
  b.inputs.at("x").data.at(10) = 0.9;  // one saturating sum in x's last row
  b.inputs.at("w").data.at(13) = 0.9;  // and one in w's row 1
  hls::HlsOptions ho;
  ho.input_range = std::pair(-0.1, 0.1);
  rtl_test::Case c = rtl_test::emit_case(std::move(b), "gather_flags", 4, ho);
  std::vector<int64_t> depths = c.design.depths();
  for (size_t i = 0; i < depths.size(); ++i) depths[i] = std::max(depths[i], 3 + int64_t(i % 3));
  c.design.set_depths(depths);
  emit_rtl(c.design, c.bundle, driver::rtl_options(c.design, c.bundle, ho), c.dir / "rtl");
  const std::vector<GatherBlocks> gathers = table_gathers(c.design);
  ASSERT_EQ(gathers.size(), 2u);
  for (const auto& gb : gathers) EXPECT_TRUE(blocks_differ(gb)) << gb.name;
  const auto [flagged, beats] = rtl_test::expect_exact_flagged(c);
  EXPECT_EQ(beats, 8 + 8);
  EXPECT_EQ(flagged, 1 + 6);  // the cat's last beat; the slice's from row 1 on
}

// Constant operands: a splat on each side of a stream (zeros as slice backward
// concatenates, and 0.3, which zeros could not tell from a misplaced word), a ROM beside a
// scaled stream, both at block 2, where the streams' blocks differ too ([*, 3] has block 1).
TEST(RtlGather, ConstantOperands) {
  INRARCH_NEED_TOOL("verilator");
  ir::Bundle b{ir::Graph("gather_consts"), {}, {}, {}};
  ir::Graph& g = b.graph;
  ir::NodeId x = g.input("x", {4, 3}), y = g.input("y", {4, 4});
  std::vector<double> rom;
  for (int i = 0; i < 8; ++i) rom.push_back(((i * 37) % 17 - 8) * 0.0011 + 1e-6);  // off the grid: rounded
  g.add_output("pad", g.cat({g.constant(0.0, {4, 1}), x, g.constant(0.3, {4, 2})}, 1));
  g.add_output("rom", g.cat({g.binary(ir::Op::Mul, y, g.constant(0.01, {4, 4})), g.constant(Tensor({4, 2}, rom))}, 1));
  hls::hls_test::fill_bundle(b, 23);
  rtl_test::Case c = rtl_test::emit_case(std::move(b), "gather_consts", 2);
  const std::vector<GatherBlocks> gathers = table_gathers(c.design);
  ASSERT_EQ(gathers.size(), 2u);
  int splats = 0, roms = 0;
  for (const auto& p : c.design.processes)
    for (const auto& od : p.operands)
      if (dataflow::is_gather(p.kind) && od.stream < 0) ++(od.splat ? splats : roms);
  EXPECT_EQ(splats, 2);
  EXPECT_EQ(roms, 1);
  for (const auto& gb : gathers) EXPECT_TRUE(blocks_differ(gb) || gb.constants > 0) << gb.name;
  int const_files = 0;
  for (const auto& gb : gathers) const_files += fs::exists(c.dir / "rtl" / (gb.name + "_const.hex"));
  EXPECT_EQ(const_files, 2);
  rtl_test::expect_exact(c);
  expect_other_tools_agree(c);
}

// What the constants are for: the gradient of sin(x[:, 1:4:2]) and of a select, where
// autodiff concatenates zeros around the incoming gradient (and, for the step 2, between
// its elements).
TEST(RtlGather, SliceAndSelectBackward) {
  INRARCH_NEED_TOOL("verilator");
  ir::Bundle b{ir::Graph("gather_backward"), {}, {}, {}};
  ir::Graph& g = b.graph;
  ir::NodeId x = g.input("x", {4, 6}), dy = g.input("dy", {4, 2}), ds = g.input("ds", {4});
  ir::NodeId y = g.unary(ir::Op::Sin, g.slice(x, 1, 1, 4, 2));
  g.add_output("dx", autodiff::grad(g, y, x, dy));
  g.add_output("dsel", autodiff::grad(g, g.select(x, 1, 4), x, ds));
  hls::hls_test::fill_bundle(b, 24);
  rtl_test::Case c = rtl_test::emit_case(std::move(b), "gather_backward", 2);
  int constants = 0;
  for (const auto& gb : table_gathers(c.design)) constants += gb.constants;
  EXPECT_GE(constants, 2);
  rtl_test::expect_exact(c);
}

}  // namespace
}  // namespace inrarch::rtl
