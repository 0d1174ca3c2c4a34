// Power-of-two scaling (src/backend/hls/scaling.h): the exponent rule, the classes that
// data movement ties together, ports at true values, and the effect on csim error.
#include <cmath>

#include "backend/hls/scaling.h"
#include "hls_test_util.h"

namespace inrarch::hls {
namespace {

const NumberType kFixed = parse_number_type("fixed<32,10>");

// max|stored| must land in (2^5, 2^6] for fixed<32,10> with 3 margin bits (top = 10-1-3).
TEST(Scaling, ExponentPutsTheRangeUnderTheMargin) {
  EXPECT_EQ(scale_exponent(3e-5, kFixed, 3), 21);  // 3e-5 * 2^21 = 62.9
  EXPECT_EQ(scale_exponent(64.0, kFixed, 3), 0);
  EXPECT_EQ(scale_exponent(64.5, kFixed, 3), -1);
  EXPECT_EQ(scale_exponent(1.0, kFixed, 3), 6);
  EXPECT_EQ(scale_exponent(0.0, kFixed, 3), 0);
  EXPECT_EQ(scale_exponent(1e-300, kFixed, 3), 32);  // clamped to the width
  EXPECT_EQ(scale_exponent(1e-300, parse_number_type("fixed<64,20>"), 3), 40);  // and to 40
}

// x -> mul(x, 1e-4) -> transpose -> neg -> out, with x in [-1, 1) and max|x| known.
struct SmallCase {
  ir::Bundle b;
  dataflow::Design d;
  SmallCase() {
    ir::Graph& g = b.graph;
    ir::NodeId x = g.input("x", {2, 3});
    ir::NodeId m = g.binary(ir::Op::Mul, x, g.constant(1e-4, {2, 3}));
    g.add_output("y", g.unary(ir::Op::Neg, g.transpose(m)));
    b.inputs["x"] = Tensor({2, 3});
    b.inputs["x"].data = {0.5, -0.25, 0.125, 0.75, -0.5, 0.0625};
    d = dataflow::lower(g);
  }
  int stream_into(const std::string& consumer_prefix) const {
    for (size_t s = 0; s < d.streams.size(); ++s)
      if (d.processes[d.streams[s].consumer].name.rfind(consumer_prefix, 0) == 0)
        return static_cast<int>(s);
    ADD_FAILURE() << "no stream into " << consumer_prefix;
    return 0;
  }
};

TEST(Scaling, MovementSharesAnExponentPortsStayTrue) {
  SmallCase c;
  Scaling sc = compute_scaling(c.d, c.b, kFixed);
  int mul_out = c.stream_into("transpose"), moved = c.stream_into("neg");
  int in = c.stream_into("mul"), out = c.stream_into("out");
  // max|x * 1e-4| = 7.5e-5: 7.5e-5 * 2^19 = 39.3, * 2^20 = 78.6 > 64.
  EXPECT_EQ(sc.stream_exp[mul_out], 19);
  EXPECT_EQ(sc.stream_exp[moved], 19);  // transpose: same class
  EXPECT_EQ(sc.stream_exp[in], 0);      // input port
  EXPECT_EQ(sc.stream_exp[out], 0);     // output port
  // The splat 1e-4 gets its own exponent: 1e-4 * 2^19 = 52.4.
  dataflow::ProcessId mul = c.d.streams[mul_out].producer;
  EXPECT_EQ(sc.operand_exp[mul][1], 19);
  EXPECT_EQ(sc.operand_exp[mul][0], 0);
  EXPECT_TRUE(sc.any());
}

TEST(Scaling, FloatingPointIsNotScaled) {
  SmallCase c;
  Scaling sc = compute_scaling(c.d, c.b, parse_number_type("float"));
  EXPECT_FALSE(sc.any());
}

// The point of it: INSP order 1 (width 16) in ap_fixed<32,10>, sequential csim with and
// without scaling; the relative error must drop by more than 10x (measured: ~75x).
TEST(Scaling, CutsInspFixedPointErrorTenfold) {
  auto c = hls_test::insp_case(16);
  SimOptions sim;
  sim.threaded = sim.trace = false;
  double rel[2];
  for (int on = 0; on < 2; ++on) {
    HlsOptions opt;
    opt.pow2_scaling = on == 1;
    fs::path dir = hls_test::out_dir(on ? "scaled" : "unscaled");
    emit_hls(c.design, c.bundle, opt, dir);
    const SimVerdicts v = run_simulations(c.design, dir, opt, sim);
    ASSERT_TRUE(v.csim->pass()) << to_json(v).dump();
    rel[on] = v.csim->max_rel_error.value();
  }
  EXPECT_LT(rel[1] * 10, rel[0]) << "scaled " << rel[1] << ", unscaled " << rel[0];
  EXPECT_LT(rel[1], 1e-3);
}

}  // namespace
}  // namespace inrarch::hls
