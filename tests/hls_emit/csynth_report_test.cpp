// Reading Vitis's csynth.xml: the sample in tests/data/hls/ (written in the documented
// format) and malformed inputs.
#include <gtest/gtest.h>

#include <fstream>
#include <unistd.h>

#include "backend/hls/hls.h"
#include "support/error.h"

namespace inrarch::hls {
namespace {

const std::filesystem::path kSample = std::filesystem::path(INRARCH_SOURCE_DIR) / "tests/data/hls/csynth.xml";

TEST(CsynthReport, ReadsTheSample) {
  CsynthReport r = parse_csynth_report(kSample);
  EXPECT_EQ(r.top, "model_top");
  EXPECT_EQ(r.part, "xcu50-fsvh2104-2-e");
  EXPECT_EQ(r.version, "2022.2");
  EXPECT_DOUBLE_EQ(r.target_clock_ns, 3.33);
  EXPECT_DOUBLE_EQ(r.estimated_clock_ns, 2.433);
  EXPECT_EQ(r.total.latency_best, 2731);
  EXPECT_EQ(r.total.latency_worst, 2748);
  EXPECT_EQ(r.total.interval, 2179);
  EXPECT_EQ(r.total.bram18k, 38);
  EXPECT_EQ(r.total.dsp, 96);
  EXPECT_EQ(r.total.ff, 41873);
  EXPECT_EQ(r.total.lut, 63210);
  EXPECT_EQ(r.avail_lut, 871680);
  ASSERT_EQ(r.modules.size(), 3u);
  EXPECT_EQ(r.modules[1].name, "unary_op_sin_ap_fixed_32_10_shape_8_16_1_s");
  EXPECT_EQ(r.modules[1].interval, 129);
  EXPECT_EQ(r.modules[1].bram18k, 2);
  std::string text = format_csynth_report(r);
  EXPECT_NE(text.find("model_top"), std::string::npos);
  EXPECT_NE(text.find("LUT 7.3%"), std::string::npos) << text;
  EXPECT_EQ(csynth_json(r)["modules"].size(), 3u);
}

TEST(CsynthReport, RejectsOtherFiles) {
  auto tmp = std::filesystem::temp_directory_path() / ("inrarch_bad_csynth_" + std::to_string(::getpid()) + ".xml");
  std::ofstream(tmp) << "<profile><UserAssignments><TopModelName>t</TopModelName>";
  EXPECT_THROW(parse_csynth_report(tmp), Error);  // unclosed
  std::ofstream(tmp) << "<?xml version=\"1.0\"?><report><a>1</a></report>";
  EXPECT_THROW(parse_csynth_report(tmp), Error);  // not <profile>
  EXPECT_THROW(parse_csynth_report(tmp.string() + ".missing"), Error);
}

}  // namespace
}  // namespace inrarch::hls
