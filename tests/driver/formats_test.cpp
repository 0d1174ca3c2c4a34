// report.json precision.formats (driver/formats.h) on a hand-worked design: y = sin(x W),
// W = [[3]], fixed<8,3>, exponents chosen on samples of x in [-1, 1]. The ports carry true
// values: fixed<8,3>. The product reaches 3, stored at exponent -1 (one bit of headroom
// below 2^2): values of fixed<8,4>. The weight 3 likewise. One 8 x 8-bit product is one DSP.
#include <gtest/gtest.h>

#include "dataflow/lower.h"
#include "driver/formats.h"
#include "support/error.h"

namespace inrarch::driver {
namespace {

TEST(Formats, StreamsConstantsAndProductsOfAHandWorkedDesign) {
  ir::Bundle b{ir::Graph("sine"), {}, {}, {}};
  ir::Graph& g = b.graph;
  g.add_output("y", g.unary(ir::Op::Sin, g.mm(g.input("x", {16, 1}), g.param("w", {1, 1}))));
  b.inputs["x"] = Tensor({16, 1}, 0.25);
  b.params["w"] = Tensor({1, 1}, 3.0);
  const dataflow::Design d = dataflow::lower(b.graph);
  hls::HlsOptions ho;
  ho.type = hls::parse_number_type("fixed<8,3>");
  ho.input_range = std::pair{-1.0, 1.0};
  const nlohmann::json f = number_formats(d, ho.type, hls::design_scaling(d, b, ho), {dataflow::Arith::Fixed, 8});
  EXPECT_EQ(f["type"], "fixed<8,3>");
  ASSERT_EQ(f["streams"].size(), d.streams.size());
  int products = 0;
  for (const auto& [name, format] : f["streams"].items())
    if (name.find("__sin") != std::string::npos) EXPECT_EQ(format, "fixed<8,4>") << name;
    else EXPECT_EQ(format, "fixed<8,3>") << name;
  EXPECT_EQ(f["by_format"]["fixed<8,4>"], 1);
  ASSERT_EQ(f["constants"].size(), 1u) << f["constants"];
  EXPECT_EQ(f["constants"].begin().value(), "fixed<8,4>");
  for (const auto& [kernel, p] : f["products"].items()) {
    EXPECT_EQ(p["a_bits"], 8);
    EXPECT_EQ(p["b_bits"], 8);
    EXPECT_EQ(p["dsp"], 1);
    ++products;
  }
  EXPECT_EQ(products, 1);
  EXPECT_THROW(number_formats(d, hls::parse_number_type("float"), hls::Scaling::none(d), {}), Error);
}

}  // namespace
}  // namespace inrarch::driver
