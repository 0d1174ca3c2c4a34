// The format candidates of --max-error (driver/precision.h): cheapest first by the DSPs of an
// mm's product with its weights, then of a product of two streams, then the narrowest.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "driver/precision.h"

namespace inrarch::driver {
namespace {

std::vector<std::string> names(const std::vector<std::pair<hls::NumberType, int>>& cs) {
  std::vector<std::string> out;
  for (const auto& [t, wb] : cs) out.push_back(t.name() + (wb ? "/" + std::to_string(wb) : ""));
  return out;
}

TEST(Precision, CandidatesCheapestFirst) {
  // fixed<W,10>/18: one DSP a MAC (W <= 27); then two a MAC, fixed<32,10>/18 last of those as
  // its stream products take four; then fixed<32,10> (four).
  EXPECT_EQ(names(precision_candidates(hls::parse_number_type("fixed<32,10>"), 0)),
            (std::vector<std::string>{"fixed<18,10>", "fixed<20,10>/18", "fixed<24,10>/18", "fixed<27,10>/18",
                                      "fixed<20,10>", "fixed<24,10>", "fixed<27,10>", "fixed<32,10>/18",
                                      "fixed<32,10>"}));
  // --weight-bits 20 with --max-error: the weights at 20 wherever the streams are wider
  // (two DSPs a MAC at 24 x 20, as at 20 x 20: the narrower streams first).
  EXPECT_EQ(names(precision_candidates(hls::parse_number_type("fixed<24,10>"), 20)),
            (std::vector<std::string>{"fixed<18,10>", "fixed<20,10>", "fixed<24,10>/20"}));
  // Weights need a fraction bit: not narrowed to 18 bits at 18 integer bits.
  EXPECT_EQ(names(precision_candidates(hls::parse_number_type("fixed<24,18>"), 0)),
            (std::vector<std::string>{"fixed<20,18>", "fixed<24,18>"}));
}

}  // namespace
}  // namespace inrarch::driver
