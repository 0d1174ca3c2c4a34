// report.html's Precision section from a hand-written report.json: the stream formats
// counted widest range first, the MAC products grouped by widths and DSPs, the --max-error
// sweep above them when there was one, and no section without `precision`.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "driver/report_html.h"
#include "html_text.h"

namespace inrarch {
namespace {

using nlohmann::json;
using test::count;
using test::section_of;

json formats() {
  return json::parse(R"({"type": "fixed<20,10>",
    "streams": {"a": "fixed<20,4>", "b": "fixed<20,10>", "c": "fixed<20,4>"},
    "by_format": {"fixed<20,10>": 1, "fixed<20,4>": 2, "fixed<20,12>": 3},
    "constants": {"mm_1.1": "fixed<18,2>"},
    "products": {"mm_1": {"a_bits": 20, "b_bits": 18, "dsp": 1}, "mm_2": {"a_bits": 20, "b_bits": 18, "dsp": 1},
                 "mm_3": {"a_bits": 20, "b_bits": 20, "dsp": 2}}})");
}

TEST(ReportPrecision, FormatsWidestRangeFirstAndProductsByDsps) {
  const std::string page = driver::render_report_html({{"precision", {{"formats", formats()}}}}, json(), "t");
  const std::string p = section_of(page, "precision");
  ASSERT_FALSE(p.empty());
  const size_t i12 = p.find("<td>fixed&lt;20,12&gt;</td><td>3</td>"), i10 = p.find("<td>fixed&lt;20,10&gt;</td><td>1</td>"),
               i4 = p.find("<td>fixed&lt;20,4&gt;</td><td>2</td>");
  ASSERT_NE(i12, std::string::npos) << p;
  ASSERT_NE(i4, std::string::npos) << p;
  EXPECT_LT(i12, i10);
  EXPECT_LT(i10, i4);
  EXPECT_NE(p.find("<td>20 × 18 bits: 1 DSP</td><td>2</td>"), std::string::npos) << p;
  EXPECT_NE(p.find("<td>20 × 20 bits: 2 DSP</td><td>1</td>"), std::string::npos) << p;
  EXPECT_EQ(p.find("cheapest first"), std::string::npos);  // no sweep without --max-error
}

TEST(ReportPrecision, TheSweepComesFirstAndNoPrecisionNoSection) {
  json precision = json::parse(R"({"max_error": 0.001, "chosen": "fixed<20,10>", "weight_bits": 18,
    "tried": [{"type": "fixed<18,10>", "weight_bits": 18, "dsp_per_mac": 1, "max_abs_error": 0.004,
               "max_rel_error": 2.1, "pass": false},
              {"type": "fixed<20,10>", "weight_bits": 18, "dsp_per_mac": 1, "max_abs_error": 0.0009,
               "max_rel_error": 0.5, "pass": true}]})");
  precision["formats"] = formats();
  const std::string p = section_of(driver::render_report_html({{"precision", precision}}, json(), "t"), "precision");
  EXPECT_EQ(count(p, "class=\"chosen\""), 1u);
  EXPECT_LT(p.find("cheapest first"), p.find("stream values")) << p;
  EXPECT_TRUE(section_of(driver::render_report_html({{"fifo", json::object()}}, json(), "t"), "precision").empty());
}

// The C simulation's error of each output, the largest scaled error first (a NaN before
// all), after the formats.
TEST(ReportPrecision, EachOutputsErrorLargestFirst) {
  const json report = {{"precision", {{"formats", formats()}}},
                       {"verification", json::parse(R"({"csim": {"type": "fixed<20,10>", "outputs": [
                          {"output": "u", "max_abs_error": 0.0002, "max_rel_error": 0.001, "max_scaled_error": 0.0002},
                          {"output": "lap", "max_abs_error": 0.9, "max_rel_error": 0.00045, "max_scaled_error": 0.00045},
                          {"output": "g", "max_abs_error": null, "max_rel_error": null, "max_scaled_error": null}]}})")}};
  const std::string p = section_of(driver::render_report_html(report, json(), "t"), "precision");
  const size_t g = p.find("<td>g</td>"), lap = p.find("<td>lap</td>"), u = p.find("<td>u</td>");
  ASSERT_NE(u, std::string::npos) << p;
  EXPECT_LT(g, lap);
  EXPECT_LT(lap, u);
  EXPECT_LT(p.find("stream values"), g);
  EXPECT_NE(p.find("C simulation (fixed&lt;20,10&gt;)"), std::string::npos) << p;
}

}  // namespace
}  // namespace inrarch
