// Narrow weights (LowerOptions::weight_bits, Operand::rom_elem_bits): an mm's constant B in
// ROM words narrower than the streams, with the streams' binary point. The HLS kernel takes
// its products of T x TB exactly in acc_type<T>; the RTL engine multiplies W x WB bits on
// inrarch_mul_dsp's tiles for that pair (one DSP48E2 for 27 x 18 either way round, two when
// one operand fits 27 bits and the other is split, four otherwise) and floors each product
// from F + FB fraction bits. Each form is bit-exact with the HLS C simulation under random
// stalls and cycle-exact without, its ROM file holds WB-bit words, and its pipeline is as
// deep as mm_pipeline_depth(L, K, W, WB) says (the engine checks D against its stages).
#include <fmt/format.h>

#include <algorithm>
#include <fstream>

#include "dataflow/attributes.h"
#include "dataflow/resources.h"
#include "rtl_test_util.h"

namespace inrarch::rtl {
namespace {

// A constant B (narrowed), a constant A and two streams (both keep the streams' width).
ir::Bundle narrow_forms() {
  ir::Bundle b{ir::Graph("mm_narrow"), {}, {}, {}};
  ir::Graph& g = b.graph;
  ir::NodeId y = g.mm(g.input("x", {3, 13}), g.param("w", {13, 5}));
  g.add_output("y", y);
  g.add_output("z", g.mm(g.param("wa", {2, 3}), g.unary(ir::Op::Relu, y)));
  g.add_output("u", g.mm(g.input("p", {2, 7}), g.input("q", {7, 2})));
  hls::hls_test::fill_bundle(b, 31);
  return b;
}

struct Form {
  const char* type;
  int w, weight_bits;
  int64_t dsp;  // of the narrowed product, by hand: 27 x 18 tiles
};

class RtlMmNarrowWeights : public testing::TestWithParam<Form> {};

TEST_P(RtlMmNarrowWeights, BitAndCycleExact) {
  INRARCH_NEED_TOOL("verilator");
  const Form f = GetParam();
  dataflow::LowerOptions lo;
  lo.elem_bits = f.w;
  lo.weight_bits = f.weight_bits;
  lo.mm_par = 4;
  hls::HlsOptions ho;
  ho.type = hls::parse_number_type(f.type);
  rtl_test::Case c = rtl_test::emit_case(narrow_forms(), fmt::format("mm_narrow_{}_{}", f.w, f.weight_bits), lo, ho);
  auto narrowed = std::find_if(c.design.processes.begin(), c.design.processes.end(), [](const dataflow::Process& q) {
    return q.kind == dataflow::Kind::Mm && q.operands[1].stream < 0;
  });
  ASSERT_NE(narrowed, c.design.processes.end());
  const dataflow::Process& p = *narrowed;
  EXPECT_EQ(p.operands[1].rom_elem_bits, f.weight_bits);
  EXPECT_EQ(p.rom_bits, 13 * 5 * f.weight_bits);
  EXPECT_EQ(p.mm_depth, dataflow::mm_pipeline_depth(p.mm_lanes, dataflow::mm_inner(p), f.w, f.weight_bits));
  EXPECT_EQ(dataflow::dsp_per_product(p, {dataflow::Arith::Fixed, f.w}), f.dsp);
  for (const auto& q : c.design.processes) {  // the other mms keep the streams' width
    if (q.kind == dataflow::Kind::Mm && q.name != p.name) {
      EXPECT_EQ(q.operands[0].rom_elem_bits, 0) << q.name;
    }
  }
  const std::string top = hls::hls_test::read_file(c.dir / "rtl" / "inrarch_top.sv");
  EXPECT_NE(top.find(fmt::format(".WB({}), .FB({})", f.weight_bits, f.weight_bits - 10)), std::string::npos) << top;
  // The ROM: a line a MAC cycle of L = 4 words of WB bits each.
  std::ifstream rom(c.dir / "rtl" / (p.name + "_b.hex"));
  std::string line;
  ASSERT_TRUE(std::getline(rom, line));
  EXPECT_EQ(line.size(), size_t((4 * f.weight_bits + 3) / 4));
  const std::string weights = hls::hls_test::read_file(c.dir / "hls" / "weights.h");
  EXPECT_NE(weights.find(fmt::format("static const ap_fixed<{},10>* const rom_{}_1", f.weight_bits, p.name)),
            std::string::npos);
  rtl_test::expect_exact(c);
}

INSTANTIATE_TEST_SUITE_P(Forms, RtlMmNarrowWeights,
                         testing::Values(Form{"fixed<27,10>", 27, 18, 1}, Form{"fixed<32,10>", 32, 18, 2},
                                         Form{"fixed<24,10>", 24, 20, 2}, Form{"fixed<32,10>", 32, 28, 4}),
                         [](const testing::TestParamInfo<Form>& i) {
                           return fmt::format("w{}_weights{}", i.param.w, i.param.weight_bits);
                         });

}  // namespace
}  // namespace inrarch::rtl
