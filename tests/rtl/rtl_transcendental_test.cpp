// exp, tanh, log (tables of fixed_exp_log.h), div and sum in the RTL: their tables are the
// HLS library's entry for entry, and a design with each of them, on scaled streams and
// with values that saturate, gives the C simulation's bits (ovf flags included) under
// random stalls, following every schedule, and without stalls in the event graph's cycles.
#include "backend/hls/include/fixed_exp_log.h"
#include "backend/rtl/rtl_detail.h"
#include "rtl_test_util.h"

namespace inrarch::rtl {
namespace {

using ir::Op;
namespace fs = std::filesystem;

TEST(RtlTranscendental, ExpAndLogTablesAreTheLibrarys) {
  const std::vector<uint64_t> e = detail::exp2_table(), l = detail::log1p_table();
  ASSERT_EQ(e.size(), size_t(inrarch_hls::kExpLogRomSize));
  ASSERT_EQ(l.size(), size_t(inrarch_hls::kExpLogRomSize));
  for (size_t i = 0; i < e.size(); ++i) {
    EXPECT_EQ(e[i], inrarch_hls::exp2_rom().v[i]) << i;
    EXPECT_EQ(l[i], inrarch_hls::log1p_rom().v[i]) << i;
  }
  // The lane's LAST constant holds entry 1024 of either table (the .hex files hold 0 .. 1023,
  // a block RAM's depth): 2.0 and ln 2 in Q.32.
  EXPECT_EQ(e.back(), 0x200000000u);
  EXPECT_EQ(l.back(), 0xB17217F8u);
  const std::string lane = hls::hls_test::read_file(detail::library_dir() / "inrarch_lane_explog.sv");
  EXPECT_NE(lane.find("LAST = OP == OP_LOG ? 34'h0_B172_17F8 : 34'h2_0000_0000"), std::string::npos);
}

// x, y in [-1, 1]; p ~ 1e-2, so the streams around it are scaled by powers of two. No
// output saturates (a saturated output fails a run: saturating_bundle has those).
ir::Bundle transcendental_bundle() {
  ir::Bundle b{ir::Graph("transcendental"), {}, {}, {}};
  ir::Graph& g = b.graph;
  const ir::Shape s{8, 6};
  ir::NodeId x = g.input("x", s), y = g.input("y", s);
  auto k = [&](double v) { return g.constant(v, s); };
  ir::NodeId p = g.binary(Op::Mul, g.binary(Op::Mul, x, y), k(0.01));
  g.add_output("exp", g.unary(Op::Exp, x));
  g.add_output("exp_tiny", g.unary(Op::Exp, g.binary(Op::Mul, g.binary(Op::Mul, x, x), k(-20.0))));  // to 2e-9
  g.add_output("exp_p", g.binary(Op::Mul, g.unary(Op::Exp, p), p));            // a scaled operand
  g.add_output("tanh", g.unary(Op::Tanh, g.binary(Op::Mul, x, k(3.0))));
  g.add_output("tanh_p", g.binary(Op::Add, g.unary(Op::Tanh, p), p));          // ~1e-2 in and out
  g.add_output("log", g.unary(Op::Log, y));                                    // y <= 0: the least value
  g.add_output("log_p", g.unary(Op::Log, g.binary(Op::Mul, p, p)));            // ~1e-4, scaled
  g.add_output("div", g.binary(Op::Div, x, g.binary(Op::Add, y, k(1.5))));
  g.add_output("div_p", g.binary(Op::Div, p, g.binary(Op::Add, y, k(2.0))));   // scaled numerator
  g.add_output("div_k", g.binary(Op::Div, x, k(3.0)));                         // a constant divisor
  g.add_output("sum_rows", g.sum(p, {1}, false));
  g.add_output("sum_all", g.sum(g.binary(Op::Mul, p, y), {}, false));
  hls::hls_test::fill_bundle(b, 7);
  return b;
}

bool has_op(const dataflow::Design& d, Op op) {
  for (const auto& p : d.processes)
    if (p.op == op) return true;
  return false;
}

TEST(RtlTranscendental, BitExactUnderStallsAndCycleExactWithout) {
  INRARCH_NEED_TOOL("verilator");
  rtl_test::Case c = rtl_test::emit_case(transcendental_bundle(), "transcendental");
  for (Op op : {Op::Exp, Op::Tanh, Op::Log, Op::Div, Op::Sum}) EXPECT_TRUE(has_op(c.design, op)) << ir::op_name(op);
  const fs::path rtl = c.dir / "rtl";
  EXPECT_TRUE(fs::exists(rtl / "inrarch_exp2_rom.hex"));
  EXPECT_TRUE(fs::exists(rtl / "inrarch_log1p_rom.hex"));
  const std::string top = hls::hls_test::read_file(rtl / "inrarch_top.sv");
  EXPECT_NE(top.find(".OP(8)"), std::string::npos);
  EXPECT_NE(top.find("inrarch_sum"), std::string::npos);
  EXPECT_NE(top.find(".EA(1"), std::string::npos) << "no scaled operand";
  rtl_test::expect_exact(c);
  // log of y <= 0 is the least value, without a flag.
  const std::string log = hls::hls_test::read_file(rtl / "out" / "out_log.txt");
  EXPECT_NE(log.find("0 80000000\n"), std::string::npos) << log.substr(0, 80);
}

// The same design in fixed<16,6>: other shifts, table indices and the leading one of log
// in 15 bits.
TEST(RtlTranscendental, SixteenBitType) {
  INRARCH_NEED_TOOL("verilator");
  hls::HlsOptions ho;
  ho.type = hls::parse_number_type("fixed<16,6>");
  rtl_test::Case c = rtl_test::emit_case(transcendental_bundle(), "transcendental16", 1, ho);
  EXPECT_NE(hls::hls_test::read_file(c.dir / "rtl" / "inrarch_top.sv").find(".W(16)"), std::string::npos);
  rtl_test::expect_exact(c);
}

// exp above 2^9, x / y near y = 0 and a column sum of +-200s saturate: the RTL clamps and
// flags the same beats as the C simulation, under stalls and without (in the event
// graph's cycles). Such a run does not pass (its outputs are saturated), so the verdict's
// parts are checked one by one.
TEST(RtlTranscendental, SaturationIsTheCSimulations) {
  INRARCH_NEED_TOOL("verilator");
  ir::Bundle b{ir::Graph("saturating"), {}, {}, {}};
  ir::Graph& g = b.graph;
  const ir::Shape s{8, 6};
  ir::NodeId x = g.input("x", s), y = g.input("y", s);
  auto k = [&](double v) { return g.constant(v, s); };
  g.add_output("exp_sat", g.unary(Op::Exp, g.binary(Op::Mul, x, k(30.0))));
  g.add_output("div_sat", g.binary(Op::Div, x, g.binary(Op::Mul, y, k(1e-3))));
  g.add_output("sum_cols", g.sum(g.binary(Op::Mul, x, k(200.0)), {0}, true));
  hls::hls_test::fill_bundle(b, 7);
  rtl_test::Case c = rtl_test::emit_case(std::move(b), "saturating");
  for (double stall : {0.3, 0.0}) {
    RtlRunOptions ro;
    ro.lint = false;
    ro.stall_in = ro.stall_out = stall;
    const RtlRun r = run_rtl(c.design, c.dir / "rtl", ro);
    SCOPED_TRACE(to_json(r).dump());
    EXPECT_TRUE(r.bit_exact());
    EXPECT_FALSE(r.hang());
    EXPECT_TRUE(r.trace->pass);
    if (stall == 0) {
      EXPECT_TRUE(r.cycle_exact);
    }
  }
  const fs::path out = c.dir / "rtl" / "out";
  const std::string exp_sat = hls::hls_test::read_file(out / "out_exp_sat.txt");
  EXPECT_NE(exp_sat.find("\n1 7fffffff\n"), std::string::npos) << exp_sat.substr(0, 80);
  for (const char* name : {"out_div_sat.txt", "out_sum_cols.txt"}) {
    const std::string o = hls::hls_test::read_file(out / name);
    EXPECT_NE(o.find("\n1 "), std::string::npos) << name << ": " << o.substr(0, 80);
  }
}

// Two elements a beat: a sum whose output block differs from its input's, RAM FIFOs; the
// same bits and cycles under Icarus.
TEST(RtlTranscendental, TwoElementsABeat) {
  INRARCH_NEED_TOOL("verilator");
  ir::Bundle b{ir::Graph("reduce2"), {}, {}, {}};
  ir::Graph& g = b.graph;
  ir::NodeId x = g.input("x", {6, 4}), y = g.input("y", {6, 4});
  g.add_output("rows", g.sum(g.unary(Op::Tanh, x), {1}, false));
  g.add_output("cols", g.sum(g.binary(Op::Div, x, g.binary(Op::Add, y, g.constant(1.5, {6, 4}))), {0}, false));
  g.add_output("all", g.sum(g.unary(Op::Exp, y), {0, 1}, true));
  g.add_output("log", g.unary(Op::Log, g.binary(Op::Mul, x, x)));
  hls::hls_test::fill_bundle(b, 3);
  rtl_test::Case c = rtl_test::emit_case(std::move(b), "reduce_block2", 2);
  std::vector<int64_t> depths = c.design.depths();
  for (size_t i = 0; i < depths.size(); ++i) depths[i] = std::max<int64_t>(depths[i], 3 + int64_t(i % 3));
  c.design.set_depths(depths);
  hls::HlsOptions ho;
  emit_rtl(c.design, c.bundle, driver::rtl_options(c.design, c.bundle, ho), c.dir / "rtl");
  rtl_test::expect_exact(c);
  // Icarus runs the same design to the same bits in the same cycles; Yosys reads it.
  RtlRunOptions all_tools;
  all_tools.other_tools = true;
  const RtlRun r = run_rtl(c.design, c.dir / "rtl", all_tools);
  SCOPED_TRACE(to_json(r).dump());
  EXPECT_EQ(r.iverilog, "accepted");
  EXPECT_EQ(r.yosys, "accepted");
  EXPECT_EQ(r.icarus->run->bit_exact, std::optional<bool>(true));
  EXPECT_EQ(r.icarus->run->cycles, r.model_cycles);
}

}  // namespace
}  // namespace inrarch::rtl
