// The sizing history's section of report.html from a hand-written report.json: one table
// row per phase with its figures, the step chart, the count of deep FIFOs each phase set;
// a note for an output written before the history existed; nothing when no sizing ran.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "driver/report_html.h"
#include "html_text.h"

namespace inrarch {
namespace {

using nlohmann::json;

using test::count;
using test::section_of;

json sized_fifo() {
  return json::parse(R"({
    "method": "min",
    "depths": {"a": 2, "b": 700, "c": 40, "d": 9},
    "set_by": {"a": "peak", "b": "greedy", "c": "greedy", "d": "largest"},
    "history": [
      {"phase": "peak", "why": "all unbounded", "bits": 51200, "bram18k": 12, "deep_fifos": 3,
       "latency_cycles": 1000, "rows": 16, "resolves": 1, "seconds": 0.01},
      {"phase": "greedy", "why": "kept at 2 where it fits", "bits": 24000, "bram18k": 4, "deep_fifos": 3,
       "latency_cycles": null, "rows": 16, "resolves": 9, "seconds": 0.02},
      {"phase": "largest", "why": "largest first", "bits": 23808, "bram18k": 4, "deep_fifos": 3,
       "latency_cycles": 1009, "rows": 16, "resolves": 14, "seconds": 0.05}
    ]})");
}

TEST(ReportHistory, ATableRowAndAChartStepPerPhase) {
  const std::string page = driver::render_report_html({{"fifo", sized_fifo()}}, json(), "t");
  const std::string h = section_of(page, "history");
  ASSERT_FALSE(h.empty());
  EXPECT_NE(page.find("<a href=\"#history\">"), std::string::npos);
  EXPECT_EQ(count(h, "<tr"), 4u);  // header and three phases
  EXPECT_NE(h.find("<td>2</td><td>greedy</td><td>24,000</td><td>4</td><td>3</td><td>–</td><td>16</td><td>9</td>"
                   "<td>0.020</td><td>2</td>"),
            std::string::npos)
      << h;  // no latency after the greedy; it set b and c, both deeper than 2
  EXPECT_NE(h.find("<td>1</td><td>peak</td><td>51,200</td><td>12</td><td>3</td><td>1,000</td><td>16</td><td>1</td>"
                   "<td>0.010</td><td></td>"),
            std::string::npos)
      << h;  // a, which it set, is a register pair
  // Three steps over the 720 px plot from x = 70: the bits line steps down at 310 and 550.
  EXPECT_NE(h.find("H310.0V"), std::string::npos) << h;
  EXPECT_NE(h.find("H550.0V"), std::string::npos) << h;
  EXPECT_EQ(count(h, "class=\"hbits\""), 1u);
  EXPECT_EQ(count(h, "class=\"hbram\""), 1u);
}

TEST(ReportHistory, AnOldOutputGetsANoteAndGivenDepthsNoSection) {
  json fifo = sized_fifo();
  fifo.erase("history");
  const std::string old = driver::render_report_html({{"fifo", fifo}}, json(), "t");
  EXPECT_NE(section_of(old, "history").find("has no <code>fifo.history</code>"), std::string::npos);
  EXPECT_EQ(count(old, "<table class=\"history\""), 0u);
  const std::string given = driver::render_report_html({{"design", {{"processes", 1}}}}, json(), "t");
  EXPECT_TRUE(section_of(given, "history").empty());
}

}  // namespace
}  // namespace inrarch
