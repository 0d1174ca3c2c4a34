// compile --input-range: the fixed-point exponents are chosen for a range of inputs, and a
// design run on inputs far outside it saturates, raises the top's overflow flag, reports
// its overflows and fails verification instead of returning wrong numbers quietly
// (docs/hls.md "Range safety").
#include <gtest/gtest.h>

#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>

#include <nlohmann/json.hpp>

#include "ir/bundle.h"
#include "run_cli.h"

namespace {

namespace fs = std::filesystem;

std::string read_file(const fs::path& p) {
  std::ifstream f(p);
  return std::string(std::istreambuf_iterator<char>(f), {});
}

nlohmann::json verification(const fs::path& out) {
  std::ifstream f(out / "report.json");
  return nlohmann::json::parse(f)["verification"];
}

TEST(RangeSafety, InputsTenTimesTheRangeOverflowAndFail) {
  const fs::path work = fs::temp_directory_path() / ("inrarch_range_" + std::to_string(getpid()));
  fs::remove_all(work);
  const std::string model = "insp --order 1 --width 16 --batch 8";
  ASSERT_EQ(inrarch::test::run_cli("model " + model + " -o " + (work / "b").string()).code, 0);

  // Within the range (INSP's coordinates lie in [-1, 1]): every simulation passes.
  auto in = inrarch::test::run_cli("compile " + (work / "b").string() +
                                   " --input-range -1,1 --no-mlir -q -o " + (work / "in").string());
  EXPECT_EQ(in.code, 0) << in.output;
  EXPECT_EQ(in.output.find("overflow flag set"), std::string::npos) << in.output;
  nlohmann::json v = verification(work / "in");
  EXPECT_TRUE(v["csim"]["pass"].get<bool>()) << v;
  EXPECT_FALSE(v["csim"].contains("overflows")) << v;
  for (const char* mode : {"csim", "threaded", "project"}) {
    ASSERT_TRUE(v[mode].contains("overflow_flag")) << mode << " " << v;
    EXPECT_FALSE(v[mode]["overflow_flag"].get<bool>()) << mode << " " << v;
  }
  EXPECT_NE(read_file(work / "in" / "hls" / "sim" / "project.log").find("overflow_flag: 0"),
            std::string::npos);
  // The static proof over the whole range: the ports and the first layer's streams at least.
  std::ifstream report(work / "in" / "report.json");
  const nlohmann::json proof = nlohmann::json::parse(report)["hls"]["range_proof"];
  EXPECT_EQ(proof["box"], nlohmann::json({-1.0, 1.0})) << proof;
  EXPECT_GT(proof["proven"].get<int>(), 10) << proof;
  EXPECT_LE(proof["proven"].get<int>(), proof["streams"].get<int>()) << proof;

  // The same design on inputs ten times larger, with references for them.
  inrarch::ir::Bundle b = inrarch::ir::load_bundle(work / "b");
  for (auto& [name, t] : b.inputs)
    for (double& x : t.data) x *= 10;
  b.reference.clear();
  inrarch::ir::save_bundle(b, work / "b10");
  auto out = inrarch::test::run_cli("compile " + (work / "b10").string() +
                                    " --input-range -1,1 --no-mlir -q -o " + (work / "out").string());
  EXPECT_EQ(out.code, 2) << out.output;
  EXPECT_NE(out.output.find("csim FAIL"), std::string::npos) << out.output;
  EXPECT_NE(out.output.find("values out of the range of fixed<32,10>"), std::string::npos) << out.output;
  EXPECT_NE(out.output.find("overflow flag set on "), std::string::npos) << out.output;
  // The cause is the inputs, and the fix a range that covers them.
  EXPECT_NE(out.output.find("an input outside the calibrated range: the inputs span ["), std::string::npos)
      << out.output;
  EXPECT_NE(out.output.find("chosen for --input-range -1,1; give an --input-range that covers them"),
            std::string::npos)
      << out.output;
  v = verification(work / "out");
  for (const char* mode : {"csim", "threaded", "project"}) {
    EXPECT_FALSE(v[mode]["pass"].get<bool>()) << mode << " " << v;
    EXPECT_GT(v[mode].value("overflows", 0), 0) << mode << " " << v;
    EXPECT_TRUE(v[mode].value("overflow_flag", false)) << mode << " " << v;  // the hardware's flag
  }
  EXPECT_NE(v["csim"].value("error", "").find("overflowed"), std::string::npos) << v;
  EXPECT_NE(v["csim"].value("error", "").find("overflow_flag is 1"), std::string::npos) << v;
  EXPECT_TRUE(v["csim"].contains("first_overflow")) << v;
  // The span the first process's values out of range reached lies beyond the format's 2^9.
  const nlohmann::json reached = v["csim"].value("first_overflow_reached", nlohmann::json());
  ASSERT_TRUE(reached.is_array() && reached.size() == 2) << v;
  EXPECT_LE(reached[0].get<double>(), reached[1].get<double>()) << v;
  EXPECT_GE(std::max(-reached[0].get<double>(), reached[1].get<double>()), 512.0) << v;
  EXPECT_NE(out.output.find("(process "), std::string::npos) << out.output;
  EXPECT_NE(out.output.find("left the range of fixed<32,10>, [-512, 512) (|v| < 2^9): its values out of range reached ["),
            std::string::npos)
      << out.output;
  EXPECT_FALSE(v["csim"].value("overflow_flags", nlohmann::json::array()).empty()) << v;
  EXPECT_EQ(v["project"].value("overflow_flags", nlohmann::json()), v["csim"]["overflow_flags"]) << v;
  EXPECT_NE(read_file(work / "out" / "hls" / "sim" / "project.log").find("overflow_flag: 1 out0, "),
            std::string::npos);

  // Exponents chosen for those inputs themselves (no range given) hold them.
  auto own = inrarch::test::run_cli("compile " + (work / "b10").string() + " --no-mlir -q -o " +
                                    (work / "own").string());
  EXPECT_EQ(own.code, 0) << own.output;
  fs::remove_all(work);
}

// y = 1000 x on x in [-1, 1): the output port carries true values, and 1000 is beyond
// fixed<32,10>'s 512 on the very inputs the exponents were chosen on. The message says the
// design's own value outgrew its format, names the process, the span its values out of range
// reached and the format's range, and does not send the user to --input-range.
TEST(RangeSafety, AValueInsideTheDesignThatOutgrowsItsFormatIsNamedAsSuch) {
  using namespace inrarch;
  const fs::path work = fs::temp_directory_path() / ("inrarch_range_inside_" + std::to_string(getpid()));
  fs::remove_all(work);
  ir::Graph g("scaled");
  const ir::NodeId x = g.input("x", {8, 2});
  g.add_output("y", g.binary(ir::Op::Mul, g.constant(1000.0, {8, 2}), x));
  Tensor t({8, 2});
  for (size_t i = 0; i < t.data.size(); ++i) t.data[i] = -1.0 + 0.125 * static_cast<double>(i);
  ir::save_bundle(ir::Bundle{g, {{"x", t}}, {}, {}}, work / "b");
  auto out = test::run_cli("compile " + (work / "b").string() + " --no-mlir -q -o " + (work / "out").string());
  EXPECT_EQ(out.code, 2) << out.output;
  EXPECT_NE(out.output.find("a value inside the design outgrew its format: process "), std::string::npos)
      << out.output;
  // The values out of range: 1000 x for x = -1, -0.875, ..., -0.625 and 0.625, ..., 0.875.
  EXPECT_NE(out.output.find("left the range of fixed<32,10>, [-512, 512) (|v| < 2^9): its values out of "
                            "range reached [-1000, 875] as stored, on the bundle's own inputs"),
            std::string::npos)
      << out.output;
  EXPECT_NE(out.output.find("widen the integer bits (--type fixed<34,12>)"), std::string::npos) << out.output;
  EXPECT_EQ(out.output.find("give an --input-range"), std::string::npos) << out.output;
  fs::remove_all(work);
}

TEST(RangeSafety, BadRangesAreRefused) {
  for (const char* bad : {"1", "1,1", "2,1", "a,b", "-1,inf", "0,1,2"}) {
    auto r = inrarch::test::run_cli(std::string("compile --builtin insp --input-range ") + bad +
                                    " -o /tmp/inrarch_range_never");
    EXPECT_EQ(r.code, 1) << bad << ": " << r.output;
    EXPECT_NE(r.output.find("--input-range: expected LO,HI"), std::string::npos) << r.output;
  }
  EXPECT_FALSE(fs::exists("/tmp/inrarch_range_never"));
}

}  // namespace
