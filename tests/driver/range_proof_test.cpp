// The range proof of `compile --input-range` (driver/range_proof.h) on a hand-worked design:
// y = sin(3 x) over x in [-1, 1] in fixed<8,3>. The ports carry true values (exponent 0,
// limit 2^2 = 4) and hold |x|, |y| <= 1: two bits of headroom. The product 3 x reaches 3 at
// the box's end, where the samples see it too: its exponent -1 (one bit of headroom below
// 2^(3-1)) gives the limit 8, log2(8 / 3) = 1.42 bits above the bound.
#include <gtest/gtest.h>

#include <cmath>

#include "dataflow/lower.h"
#include "driver/range_proof.h"
#include "support/error.h"

namespace inrarch::driver {
namespace {

ir::Bundle sine_of_three_x(int64_t rows) {
  ir::Bundle b{ir::Graph("sine"), {}, {}, {}};
  ir::Graph& g = b.graph;
  g.add_output("y", g.unary(ir::Op::Sin, g.mm(g.input("x", {rows, 1}), g.param("w", {1, 1}))));
  b.inputs["x"] = Tensor({rows, 1}, 0.25);
  b.params["w"] = Tensor({1, 1}, 3.0);
  return b;
}

hls::HlsOptions options() {
  hls::HlsOptions ho;
  ho.type = hls::parse_number_type("fixed<8,3>");
  ho.input_range = std::pair{-1.0, 1.0};
  return ho;
}

TEST(RangeProof, BoundsAndLimitsOfAHandWorkedDesign) {
  const ir::Bundle b = sine_of_three_x(64);
  const dataflow::Design d = dataflow::lower(b.graph);
  const nlohmann::json p = range_proof(d, b, options(), hls::design_scaling(d, b, options()));
  EXPECT_EQ(p["streams"], d.streams.size());
  EXPECT_EQ(p["proven"], d.streams.size());
  EXPECT_EQ(p["unbounded"], 0);
  EXPECT_EQ(p["cells_per_dim"], 1024);  // one input column: 1,024 cells of it
  const nlohmann::json& least = p["tightest"][0];
  EXPECT_NEAR(least["bound"].get<double>(), 3.0, 1e-9);
  EXPECT_EQ(least["limit"], 8.0);
  EXPECT_EQ(least["headroom_bits"], 1.42);
  for (size_t i = 1; i < p["tightest"].size(); ++i) {
    EXPECT_LE(p["tightest"][i]["bound"].get<double>(), 1.0 + 1e-12);
    EXPECT_EQ(p["tightest"][i]["limit"], 4.0);
  }
}

// A wider box than the samples' exponents were chosen for is not the point: the proof is
// over the declared range, and where a value there exceeds its limit it says so.
TEST(RangeProof, AValueOverItsLimitIsNotProven) {
  const ir::Bundle b = sine_of_three_x(64);
  const dataflow::Design d = dataflow::lower(b.graph);
  hls::HlsOptions ho = options();
  ho.pow2_scaling = false;  // every exponent 0: the product's limit is 4, its bound 3 x 2 = 6
  ho.input_range = std::pair{-2.0, 2.0};
  const nlohmann::json p = range_proof(d, b, ho, hls::design_scaling(d, b, ho));
  EXPECT_EQ(p["proven"], d.streams.size() - 1);
  EXPECT_NEAR(p["tightest"][0]["bound"].get<double>(), 6.0, 1e-9);
  EXPECT_EQ(p["tightest"][0]["headroom_bits"], std::round(std::log2(4.0 / 6.0) * 100) / 100);
  ho.input_range.reset();
  EXPECT_THROW(range_proof(d, b, ho, hls::Scaling::none(d)), Error);
}

}  // namespace
}  // namespace inrarch::driver
