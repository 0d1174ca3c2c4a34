// Every kernel kind of the RTL slice (source, sink, copy, reshape, elementwise add/sub/mul/neg/relu/step/sin/cos with
// streamed and splat operands, scaled streams, a saturating product) in one design, run by
// Verilator: its outputs equal the HLS C simulation's bits (ovf flags included) under
// random stalls of every port, every process performs its schedule's steps in order, and
// without stalls every FIFO op happens at the event graph's time. A second design has two
// elements a beat and FIFOs deep enough to be RAMs (read two cycles after a write).
#include <algorithm>
#include <fstream>

#include "backend/hls/include/fixed_math.h"
#include "backend/rtl/rtl_detail.h"
#include "dataflow/schedule.h"
#include "rtl_test_util.h"

namespace inrarch::rtl {
namespace {

using ir::Op;
namespace fs = std::filesystem;

// Values near 1e-2, so the products inside are scaled by powers of two (scaling.h).
ir::Bundle kinds_bundle() {
  ir::Bundle b{ir::Graph("kinds"), {}, {}, {}};
  ir::Graph& g = b.graph;
  const ir::Shape s{8, 6};
  ir::NodeId x = g.input("x", s), y = g.input("y", s);
  ir::NodeId p = g.binary(Op::Mul, x, y);                         // ~1e-4: exponent > 0
  ir::NodeId q = g.binary(Op::Mul, p, g.constant(3.0, s));        // splat second
  ir::NodeId r = g.binary(Op::Sub, q, p);
  g.add_output("sum", g.binary(Op::Add, r, x));
  g.add_output("neg", g.unary(Op::Neg, p));
  g.add_output("rsub", g.binary(Op::Sub, g.constant(0.5, s), y));  // splat first
  g.add_output("sat", g.binary(Op::Mul, x, g.constant(1e5, s)));   // saturates at 2^9
  g.add_output("relu", g.unary(Op::Relu, g.binary(Op::Mul, q, y)));  // ~1e-6, scaled
  g.add_output("step", g.unary(Op::Step, g.binary(Op::Sub, p, q)));
  g.add_output("flat", g.reshape(g.unary(Op::Neg, y), {48}));  // a gather: identity map
  g.add_output("sin", g.unary(Op::Sin, g.binary(Op::Mul, x, g.constant(3000.0, s))));  // ~30 rad
  g.add_output("cos", g.unary(Op::Cos, p));                       // a scaled operand
  hls::hls_test::fill_bundle(b, 5);
  for (auto* m : {&b.inputs})
    for (auto& [name, t] : *m)
      for (double& v : t.data) v *= 1e-2;
  return b;
}

// Gathers from tables: select, slice, cat of two streams, expand of a row, a reshape.
TEST(RtlKernels, GathersFromTables) {
  INRARCH_NEED_TOOL("verilator");
  ir::Bundle b{ir::Graph("gathers"), {}, {}, {}};
  ir::Graph& g = b.graph;
  ir::NodeId x = g.input("x", {4, 6}), y = g.input("y", {4, 6}), z = g.input("z", {1, 6});
  g.add_output("sel", g.select(x, 1, 2));
  g.add_output("slice", g.slice(y, 1, 1, 5, 2));
  g.add_output("cat", g.cat({x, y}, 0));
  g.add_output("expand", g.binary(Op::Mul, g.expand(z, {4, 6}), x));
  g.add_output("flat", g.reshape(g.unary(Op::Neg, g.slice(x, 1, 0, 3)), {2, 6}));
  hls::hls_test::fill_bundle(b, 11);
  rtl_test::Case c = rtl_test::emit_case(std::move(b), "gathers");
  int tables = 0;
  for (const auto& p : c.design.processes) tables += fs::exists(c.dir / "rtl" / (p.name + "_steps.hex"));
  EXPECT_GE(tables, 5);
  rtl_test::expect_exact(c);
}

// The RTL's sine table is the HLS library's, entry for entry.
TEST(RtlKernels, SineTableIsTheLibrarys) {
  const std::vector<uint32_t> t = detail::sin_table();
  ASSERT_EQ(t.size(), size_t(inrarch_hls::kSinRomSize));
  for (size_t i = 0; i < t.size(); ++i) EXPECT_EQ(t[i], inrarch_hls::sin_rom().v[i]) << i;
  // The .hex file holds entries 0 .. 1023 (a block RAM's depth); inrarch_lane_sin holds the
  // last as its LAST constant.
  const std::string hex = detail::sin_table_hex();
  EXPECT_EQ(std::count(hex.begin(), hex.end(), '\n'), 1024);
  EXPECT_EQ(t.back(), 0x80000000u);
  const std::string lane = hls::hls_test::read_file(detail::library_dir() / "inrarch_lane_sin.sv");
  EXPECT_NE(lane.find("LAST = 32'h8000_0000"), std::string::npos);
  // The lane keeps the slope between neighbouring entries in 23 bits, signed: every
  // difference is below 2^22 (the largest, at 0, is sin(π/2048) · 2^31 ≈ 3.29 · 10^6).
  int64_t steepest = 0;
  for (size_t i = 0; i + 1 < t.size(); ++i) steepest = std::max(steepest, std::abs(int64_t(t[i + 1]) - int64_t(t[i])));
  EXPECT_EQ(steepest, int64_t(t[1]) - int64_t(t[0]));
  EXPECT_LT(steepest, int64_t(1) << 22);
  EXPECT_NE(lane.find("logic signed [22:0] dy;"), std::string::npos);
}

// The product that saturates on purpose sets the top's flag of out_sat and of no other
// port, and that flag fails the run, as it fails the C simulations.
void expect_only_sat_flagged(const RtlRun& r) {
  EXPECT_TRUE(r.overflow_flag);
  for (const auto& [port, flag] : r.verilator.value().overflow_flags) EXPECT_EQ(flag, port == "out_sat") << port;
  EXPECT_TRUE(r.overflow_flag_mismatch.empty());
  EXPECT_FALSE(r.pass);
}

// A process of kind k, or of any gather kind for ExpandMap (the maps share one module).
bool has_kind(const dataflow::Design& d, dataflow::Kind k) {
  for (const auto& p : d.processes)
    if (p.kind == k || (k == dataflow::Kind::ExpandMap && dataflow::is_gather(p.kind))) return true;
  return false;
}

TEST(RtlKernels, EveryKindBitExactUnderRandomStallsAndCycleExactWithout) {
  INRARCH_NEED_TOOL("verilator");
  rtl_test::Case c = rtl_test::emit_case(kinds_bundle(), "kinds");
  for (auto k : {dataflow::Kind::Copy, dataflow::Kind::Unary, dataflow::Kind::Binary, dataflow::Kind::ExpandMap})
    EXPECT_TRUE(has_kind(c.design, k)) << dataflow::kind_name(k);
  // Some stream inside is scaled, so the lanes' realignment is exercised.
  const std::string top = hls::hls_test::read_file(c.dir / "rtl" / "inrarch_top.sv");
  EXPECT_NE(top.find(".EO(1"), std::string::npos) << "no stream scaled by 2^10 or more";
  for (uint64_t seed : {1, 2}) {
    RtlRunOptions ro;
    ro.lint = seed == 1;
    ro.stall_in = 0.3, ro.stall_out = 0.4, ro.seed = seed;
    const RtlRun r = run_rtl(c.design, c.dir / "rtl", ro);
    SCOPED_TRACE(to_json(r).dump());
    expect_only_sat_flagged(r);
    EXPECT_TRUE(r.bit_exact());
    EXPECT_TRUE(r.trace->pass);
    EXPECT_GT(r.cycles(), r.model_cycles);  // the stalls cost
    if (seed == 1) {
      EXPECT_EQ(r.lint, "clean");
    }
  }
  RtlRunOptions plain;
  plain.lint = false;
  const RtlRun r = run_rtl(c.design, c.dir / "rtl", plain);
  SCOPED_TRACE(to_json(r).dump());
  expect_only_sat_flagged(r);
  EXPECT_TRUE(r.cycle_exact);
  dataflow::EventGraph eg(c.design);
  EXPECT_EQ(r.cycles(), eg.resolve(c.design.depths()).latency);
  EXPECT_TRUE(r.trace->pass);  // every op at its event-graph time
  // The saturating product clamps to the type's least value and flags its beats, as the C
  // simulation does (and bit_exact says it is the same).
  const std::string sat = hls::hls_test::read_file(c.dir / "rtl" / "out" / "out_sat.txt");
  EXPECT_NE(sat.find("\n1 80000000\n"), std::string::npos) << sat.substr(0, 80);
}

TEST(RtlKernels, TwoElementsABeatAndRamFifos) {
  INRARCH_NEED_TOOL("verilator");
  rtl_test::Case c = rtl_test::emit_case(kinds_bundle(), "kinds_block2", 2);
  std::vector<int64_t> depths = c.design.depths();
  // RAMs (read 2 cycles after), at least the sized depths: the pipelined lanes' slack
  // deadlocks the design at depths of 3 to 5 alone, and the event graph says so too.
  for (size_t i = 0; i < depths.size(); ++i) depths[i] = std::max<int64_t>(depths[i], 3) + int64_t(i % 3);
  c.design.set_depths(depths);
  hls::HlsOptions ho;
  emit_rtl(c.design, c.bundle, driver::rtl_options(c.design, c.bundle, ho), c.dir / "rtl");
  RtlRunOptions all_tools;
  all_tools.other_tools = true;
  const RtlRun r = run_rtl(c.design, c.dir / "rtl", all_tools);
  SCOPED_TRACE(to_json(r).dump());
  expect_only_sat_flagged(r);
  EXPECT_TRUE(r.cycle_exact);
  EXPECT_TRUE(r.bit_exact());
  EXPECT_EQ(r.lint, "clean");
  EXPECT_EQ(r.iverilog, "accepted");
  EXPECT_EQ(r.yosys, "accepted");
  EXPECT_EQ(r.icarus->run->bit_exact, std::optional<bool>(true));
  EXPECT_EQ(r.icarus->run->cycles, r.cycles());
  EXPECT_EQ(r.icarus->run->overflow_flags, r.verilator->overflow_flags);
  dataflow::EventGraph eg(c.design);
  EXPECT_EQ(r.cycles(), eg.resolve(depths).latency);
  EXPECT_TRUE(r.trace->pass);
}

// The full-buffer kind: a transpose (and a permute <1, 0>) reads every beat, then writes.
TEST(RtlKernels, TransposeFullBuffer) {
  INRARCH_NEED_TOOL("verilator");
  ir::Bundle b{ir::Graph("transpose"), {}, {}, {}};
  ir::NodeId x = b.graph.input("x", {5, 7});
  ir::NodeId t = b.graph.transpose(b.graph.binary(Op::Mul, x, x));
  b.graph.add_output("t", b.graph.binary(Op::Add, t, b.graph.constant(0.25, {7, 5})));
  b.graph.add_output("p", b.graph.permute(b.graph.unary(Op::Neg, x), {1, 0}));
  hls::hls_test::fill_bundle(b, 7);
  rtl_test::Case c = rtl_test::emit_case(std::move(b), "transpose");
  EXPECT_TRUE(has_kind(c.design, dataflow::Kind::Transpose));
  EXPECT_TRUE(has_kind(c.design, dataflow::Kind::Permute));
  rtl_test::expect_exact(c);
}

// The matrix product with one MAC and a B ROM (.hex): two layers, blocks 1 and 2 on either
// side (A rows longer and shorter than C rows, so both the read tail and the overlap run);
// elementwise operands held in ROMs (a bias row read with a wrapping index, a whole array).
TEST(RtlKernels, MatrixProductOneMac) {
  INRARCH_NEED_TOOL("verilator");
  ir::Bundle b{ir::Graph("mm"), {}, {}, {}};
  ir::Graph& g = b.graph;
  ir::NodeId y = g.mm(g.input("x", {6, 5}), g.param("w1", {5, 4}));
  g.add_output("y", y);
  // A bias: a broadcast row, held once in a ROM of 4 words read with a wrapping index, and
  // a whole [6, 4] constant as a 24-word ROM.
  ir::NodeId h = g.binary(Op::Add, y, g.expand(g.param("b1", {1, 4}), {6, 4}));
  g.add_output("z", g.mm(g.unary(Op::Relu, h), g.param("w2", {4, 3})));
  g.add_output("s", g.binary(Op::Mul, g.param("s", {6, 4}), y));
  hls::hls_test::fill_bundle(b, 9);
  for (double& v : b.inputs.at("x").data) v *= 1e-2;  // products near 1e-4: scaled
  rtl_test::Case c = rtl_test::emit_case(std::move(b), "mm", 2);
  int mms = 0;
  for (const auto& p : c.design.processes)
    if (p.kind == dataflow::Kind::Mm) {
      EXPECT_TRUE(fs::exists(c.dir / "rtl" / (p.name + "_b.hex"))) << p.name;
      ++mms;
    }
  EXPECT_EQ(mms, 2);
  rtl_test::expect_exact(c);
}

// Where the search moves elementwise products out of the DSPs (fabric_elementwise_mul),
// the lanes add shifted partial products (OP 12): the bits of the HLS op_mul_fabric, and no
// DSP48E2 in Yosys, where the same design with `*` takes 4 a product (2 kernels x 2 lanes).
TEST(RtlKernels, FabricProductsAreBitExactAndTakeNoDsp) {
  INRARCH_NEED_TOOL("verilator");
  INRARCH_NEED_TOOL("yosys");
  ir::Bundle b{ir::Graph("fabric_mul"), {}, {}, {}};
  ir::NodeId x = b.graph.input("x", {4, 6}), z = b.graph.input("z", {4, 6});
  b.graph.add_output("y", b.graph.binary(Op::Mul, b.graph.binary(Op::Mul, x, z), b.graph.param("w", {4, 6})));
  hls::hls_test::fill_bundle(b, 5);
  for (bool fabric : {true, false}) {
    SCOPED_TRACE(fabric ? "fabric" : "dsp");
    dataflow::LowerOptions lo;
    lo.block = 2;
    lo.fabric_elementwise_mul = fabric;
    rtl_test::Case c{b, dataflow::lower(b.graph, lo), hls::hls_test::out_dir(fabric ? "rtl_fabric" : "rtl_dsp")};
    hls::hls_test::size_design(c.design);
    hls::HlsOptions ho;
    hls::emit_hls(c.design, c.bundle, ho, c.dir / "hls");
    emit_rtl(c.design, c.bundle, driver::rtl_options(c.design, c.bundle, ho), c.dir / "rtl");
    const std::string top = hls::hls_test::read_file(c.dir / "rtl" / "inrarch_top.sv");
    size_t fabric_lanes = 0;
    for (size_t at = top.find(".OP(12)"); at != std::string::npos; at = top.find(".OP(12)", at + 1)) ++fabric_lanes;
    EXPECT_EQ(fabric_lanes, fabric ? 2u : 0u);
    if (fabric) rtl_test::expect_exact(c);
    const nlohmann::json s = synthesize(c.dir / "rtl");
    EXPECT_EQ(s["dsp"].get<int64_t>(), fabric ? 0 : 16) << s.dump();
  }
}

// (x * z) * w: a product of two streams and one of a ROM operand, filled from `seed`.
ir::Bundle two_products(const std::string& name, unsigned seed) {
  ir::Bundle b{ir::Graph(name), {}, {}, {}};
  ir::NodeId x = b.graph.input("x", {4, 6}), z = b.graph.input("z", {4, 6});
  b.graph.add_output("y", b.graph.binary(Op::Mul, b.graph.binary(Op::Mul, x, z), b.graph.param("w", {4, 6})));
  hls::hls_test::fill_bundle(b, seed);
  return b;
}

// b's RTL at each number type, lowered by lo for 32-bit elements: its products' kernels
// `depth` steps deep, bit-exact under random stalls and cycle-exact without.
void expect_products_exact_at(const ir::Bundle& b, const dataflow::LowerOptions& lo, std::vector<std::string> types,
                              int depth) {
  for (const std::string& type : types) {
    SCOPED_TRACE(type);
    hls::HlsOptions ho;
    ho.type = hls::parse_number_type(type);
    rtl_test::Case c = rtl_test::emit_case(b, b.graph.name() + "_" + type.substr(6, 2), lo, ho);
    EXPECT_NE(hls::hls_test::read_file(c.dir / "rtl" / "inrarch_top.sv").find(".D(" + std::to_string(depth) + ")"), std::string::npos);
    rtl_test::expect_exact(c);
  }
}

// Products in the fabric at the tree's shapes (inrarch_mul_tree): fixed<32,10> with its
// levels 1, 4 and 5 in two stages (11 steps, the kernel's), fixed<24,10> with only the last
// (9 steps), fixed<13,5>, whose sign row pads b to 14 bits and the rows to 16, in one stage
// each (7). The design is lowered for 32-bit elements, so the narrower trees pad their
// product to the kernel's 11. Bit-exact under stalls, and cycle-exact.
TEST(RtlKernels, FabricProductsAtEveryTreeShape) {
  INRARCH_NEED_TOOL("verilator");
  dataflow::LowerOptions lo;
  lo.fabric_elementwise_mul = true;
  expect_products_exact_at(two_products("fabric_trees", 13), lo, {"fixed<32,10>", "fixed<24,10>", "fixed<13,5>"}, 11);
}

// Products on DSPs at each split of inrarch_mul_dsp: 4 tiles at fixed<32,10>, 2 at
// fixed<24,10>, one at fixed<16,6>. The design is lowered for 32-bit elements, so the 16-bit
// lane (4 steps deep) pads its result to the kernel's 7. Bit-exact under stalls, and
// cycle-exact, with a product of two streams and one of a ROM operand.
TEST(RtlKernels, ProductsAtEveryDspSplit) {
  INRARCH_NEED_TOOL("verilator");
  dataflow::LowerOptions lo;
  lo.block = 2;
  expect_products_exact_at(two_products("dsp_splits", 9), lo, {"fixed<32,10>", "fixed<24,10>", "fixed<16,6>"}, 7);
}

// The table lanes' argument product at each tile split of inrarch_mul_const_csa (6 DSPs at
// fixed<32,10>, 4 at fixed<24,10>, 3 at fixed<16,6>) and the sine lane's one-DSP slope: sin
// (to ~30 rad), cos, exp and tanh bit-exact with the C simulation under stalls, and
// cycle-exact.
TEST(RtlKernels, TableLanesAtEveryTileSplit) {
  INRARCH_NEED_TOOL("verilator");
  ir::Bundle b{ir::Graph("tiles"), {}, {}, {}};
  ir::Graph& g = b.graph;
  const ir::Shape s{8, 6};
  ir::NodeId x = g.input("x", s);
  g.add_output("sin", g.unary(Op::Sin, g.binary(Op::Mul, x, g.constant(30.0, s))));
  g.add_output("cos", g.unary(Op::Cos, x));
  g.add_output("exp", g.unary(Op::Exp, x));
  g.add_output("tanh", g.unary(Op::Tanh, g.binary(Op::Mul, x, g.constant(3.0, s))));
  hls::hls_test::fill_bundle(b, 17);
  for (const char* type : {"fixed<32,10>", "fixed<24,10>", "fixed<16,6>"}) {
    SCOPED_TRACE(type);
    hls::HlsOptions ho;
    ho.type = hls::parse_number_type(type);
    rtl_test::Case c = rtl_test::emit_case(b, std::string("tiles_") + std::string(type).substr(6, 2), 1, ho);
    EXPECT_NE(hls::hls_test::read_file(c.dir / "rtl" / "inrarch_top.sv").find(".OP(6)"), std::string::npos);
    rtl_test::expect_exact(c);
  }
}

// A custom process (an explicit step list, as the dataflow tests build by hand) has no
// kernel module; nor does a number type past fixed<32, *>.
TEST(RtlKernels, UnsupportedKindIsOneErrorNamingIt) {
  ir::Bundle b{ir::Graph("custom"), {}, {}, {}};
  ir::NodeId x = b.graph.input("x", {4, 6});
  b.graph.add_output("y", b.graph.unary(Op::Neg, x));
  hls::hls_test::fill_bundle(b);
  dataflow::Design d = dataflow::lower(b.graph);
  auto neg = std::find_if(d.processes.begin(), d.processes.end(),
                          [](const dataflow::Process& p) { return p.kind == dataflow::Kind::Unary; });
  ASSERT_NE(neg, d.processes.end());
  for (const auto& step : dataflow::expand(dataflow::schedule(d, dataflow::ProcessId(neg - d.processes.begin()))))
    neg->custom_steps.push_back({step.delay, step.ops});
  neg->kind = dataflow::Kind::Custom;
  const fs::path dir = hls::hls_test::out_dir("rtl_unsupported");
  try {
    emit_rtl(d, b, RtlOptions{}, dir / "rtl");
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("(neg, kernel kind custom) is not supported yet"), std::string::npos) << e.what();
  }
  EXPECT_FALSE(fs::exists(dir / "rtl"));
  RtlOptions wide;
  wide.width = 40;
  EXPECT_THROW(emit_rtl(dataflow::lower(b.graph), b, wide, dir / "rtl"), Error);
  EXPECT_FALSE(fs::exists(dir / "rtl"));
}

}  // namespace
}  // namespace inrarch::rtl
