// sqrt in the RTL (inrarch_lane_sqrt, the digit recurrence of fixed_sqrt.h): a design with
// roots of squares, of negatives (0), of scaled streams (~1e-4 in, an exponent on each side)
// and of a row sum (a norm) gives the C simulation's bits under random stalls and its
// cycles without, in fixed<32,10> and fixed<16,6>.
#include "rtl_test_util.h"

namespace inrarch::rtl {
namespace {

using ir::Op;
namespace fs = std::filesystem;

ir::Bundle sqrt_bundle() {
  ir::Bundle b{ir::Graph("sqrt"), {}, {}, {}};
  ir::Graph& g = b.graph;
  const ir::Shape s{8, 6};
  ir::NodeId x = g.input("x", s), y = g.input("y", s);
  auto k = [&](double v) { return g.constant(v, s); };
  ir::NodeId xx = g.binary(Op::Mul, x, x);
  ir::NodeId p = g.binary(Op::Mul, g.binary(Op::Mul, x, y), k(0.01));
  g.add_output("sqrt_sq", g.unary(Op::Sqrt, xx));                                 // |x|
  g.add_output("sqrt_neg", g.unary(Op::Sqrt, y));                                 // 0 for y <= 0
  g.add_output("sqrt_p", g.binary(Op::Mul, g.unary(Op::Sqrt, g.binary(Op::Mul, p, p)), p));  // scaled
  g.add_output("sqrt_big", g.unary(Op::Sqrt, g.binary(Op::Mul, xx, k(25.0))));    // to 5
  g.add_output("norm", g.unary(Op::Sqrt, g.sum(xx, {1}, false)));                 // a row norm
  hls::hls_test::fill_bundle(b, 11);
  return b;
}

TEST(RtlSqrt, BitExactUnderStallsAndCycleExactWithout) {
  INRARCH_NEED_TOOL("verilator");
  rtl_test::Case c = rtl_test::emit_case(sqrt_bundle(), "sqrt");
  const fs::path rtl = c.dir / "rtl";
  EXPECT_TRUE(fs::exists(rtl / "inrarch_lane_sqrt.sv"));
  const std::string top = hls::hls_test::read_file(rtl / "inrarch_top.sv");
  EXPECT_NE(top.find(".OP(13)"), std::string::npos);
  EXPECT_NE(top.find(".EA(1"), std::string::npos) << "no scaled operand";
  rtl_test::expect_exact(c);
  // The roots of y <= 0 are 0, without a flag (a line "flag hex"); some y are negative.
  const std::string neg = "\n" + hls::hls_test::read_file(rtl / "out" / "out_sqrt_neg.txt");
  EXPECT_NE(neg.find("\n0 0\n"), std::string::npos) << neg.substr(0, 80);
}

TEST(RtlSqrt, SixteenBitType) {
  INRARCH_NEED_TOOL("verilator");
  hls::HlsOptions ho;
  ho.type = hls::parse_number_type("fixed<16,6>");
  rtl_test::Case c = rtl_test::emit_case(sqrt_bundle(), "sqrt16", 1, ho);
  EXPECT_NE(hls::hls_test::read_file(c.dir / "rtl" / "inrarch_top.sv").find(".W(16)"), std::string::npos);
  rtl_test::expect_exact(c);
}

}  // namespace
}  // namespace inrarch::rtl
