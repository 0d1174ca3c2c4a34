// The default derivative construction of the built-in INSP (`--mode auto`): the one with
// fewer multiplies. The counts it decides on must be the DSP floor's own count of each
// compiled design, and a tie (order 0: no derivatives) must keep INSP's reverse mode.
#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

#include <nlohmann/json.hpp>

#include "run_cli.h"

namespace {

namespace fs = std::filesystem;

class ModeChoice : public ::testing::Test {
 protected:
  fs::path dir_ = fs::temp_directory_path() / ("inrarch_mode_" + std::to_string(getpid()));
  void SetUp() override { fs::remove_all(dir_); }
  void TearDown() override { fs::remove_all(dir_); }

  // compile --builtin insp at a small size (batch 8 unless `args` gives one); returns report.json.
  nlohmann::json compile(const std::string& name, const std::string& args) {
    const fs::path out = dir_ / name;
    const std::string batch = args.find("--batch") == std::string::npos ? "--batch 8 " : "";
    auto r = inrarch::test::run_cli("compile --builtin insp " + batch + "--width 16 --no-csim --no-hls --no-mlir -q " +
                                    args + " -o " + out.string());
    EXPECT_EQ(r.code, 0) << r.output;
    std::ifstream f(out / "report.json");
    return nlohmann::json::parse(f);
  }
};

TEST_F(ModeChoice, AutoTakesTheModeWithFewerMultipliesAsTheFloorCountsThem) {
  for (int order : {1, 2}) {
    SCOPED_TRACE(order);
    const std::string o = "--order " + std::to_string(order);
    nlohmann::json chosen = compile("auto", o);
    nlohmann::json reverse = compile("reverse", o + " --mode reverse");
    nlohmann::json taylor = compile("taylor", o + " --mode taylor");
    const auto& choice = chosen["source"]["mode_choice"];
    ASSERT_TRUE(choice.is_object()) << chosen["source"].dump();
    EXPECT_EQ(choice["rule"], "fewer multiplies");
    EXPECT_EQ(choice["reverse_multiplies"], reverse["floor"]["multiplies"]);
    EXPECT_EQ(choice["taylor_multiplies"], taylor["floor"]["multiplies"]);
    EXPECT_LT(choice["taylor_multiplies"].get<int64_t>(), choice["reverse_multiplies"].get<int64_t>());
    EXPECT_EQ(chosen["source"]["mode"], "taylor");
    EXPECT_EQ(chosen["floor"]["multiplies"], taylor["floor"]["multiplies"]);
    // A mode named by the user is taken as it is, with no choice recorded.
    EXPECT_EQ(reverse["source"]["mode"], "reverse");
    EXPECT_FALSE(reverse["source"].contains("mode_choice"));
  }
}

// Past 128 rows the counts come from graphs of 64 and 128 rows (driver/derivative_mode.cpp),
// not the batch's: they must still be what the floor counts in the design of the batch.
TEST_F(ModeChoice, CountsOfALargeBatchAreTheFloorsCountsOfThatBatch) {
  const std::string o = "--order 1 --batch 300";
  nlohmann::json chosen = compile("auto", o);
  nlohmann::json reverse = compile("reverse", o + " --mode reverse");
  nlohmann::json taylor = compile("taylor", o + " --mode taylor");
  const auto& choice = chosen["source"]["mode_choice"];
  ASSERT_TRUE(choice.is_object()) << chosen["source"].dump();
  EXPECT_EQ(choice["reverse_multiplies"], reverse["floor"]["multiplies"]);
  EXPECT_EQ(choice["taylor_multiplies"], taylor["floor"]["multiplies"]);
  EXPECT_EQ(chosen["source"]["mode"], "taylor");
}

TEST_F(ModeChoice, ATieKeepsReverseMode) {
  nlohmann::json r = compile("order0", "--order 0");
  const auto& choice = r["source"]["mode_choice"];
  EXPECT_EQ(choice["reverse_multiplies"], choice["taylor_multiplies"]);
  EXPECT_EQ(r["source"]["mode"], "reverse");
}

TEST_F(ModeChoice, ModelSaysWhichModeAndWhy) {
  auto r = inrarch::test::run_cli("model insp --order 1 --batch 2 --width 8 -o " + (dir_ / "m").string());
  EXPECT_EQ(r.code, 0) << r.output;
  EXPECT_NE(r.output.find("(taylor mode, fewer multiplies)"), std::string::npos) << r.output;
  r = inrarch::test::run_cli("model insp --order 1 --batch 2 --width 8 --mode reverse -o " + (dir_ / "r").string());
  EXPECT_NE(r.output.find("(reverse mode)"), std::string::npos) << r.output;
  r = inrarch::test::run_cli("model insp --mode forward -o " + (dir_ / "x").string());
  EXPECT_NE(r.code, 0);
  EXPECT_NE(r.output.find("--mode"), std::string::npos) << r.output;
  EXPECT_FALSE(fs::exists(dir_ / "x"));
}

// The default path at a 256x256 image's rows (README): the mode choice must not lower the
// whole batch, whose event graph is too long to build, and must choose as at batch 64, with
// 1,024 times the multiplies. About 20 s: labelled slow (CMakeLists.txt, SlowE2e).
TEST(SlowE2e, DefaultModeAt65536RowsIsTaylorAndCompletes) {
  const fs::path dir = fs::temp_directory_path() / ("inrarch_mode65536_" + std::to_string(getpid()));
  fs::remove_all(dir);
  auto report = [&](const std::string& batch) {
    auto r = inrarch::test::run_cli("compile --builtin insp --order 1 --batch " + batch +
                                    " --no-csim --no-hls --no-mlir -q -o " + (dir / batch).string());
    EXPECT_EQ(r.code, 0) << r.output;
    std::ifstream f(dir / batch / "report.json");
    return nlohmann::json::parse(f, nullptr, false);
  };
  const nlohmann::json small = report("64"), large = report("65536");
  fs::remove_all(dir);
  ASSERT_TRUE(large.is_object() && small.is_object());
  EXPECT_EQ(small["source"]["mode"], "taylor");
  EXPECT_EQ(large["source"]["mode"], "taylor");
  const auto& c64 = small["source"]["mode_choice"];
  const auto& c = large["source"]["mode_choice"];
  for (const char* key : {"reverse_multiplies", "taylor_multiplies"})
    EXPECT_EQ(c[key].get<int64_t>(), 1024 * c64[key].get<int64_t>()) << key;
  EXPECT_EQ(c["taylor_multiplies"], large["floor"]["multiplies"]);
  EXPECT_EQ(large["analysis"]["rows"], 65536);
  EXPECT_EQ(large["analysis"]["deadlock_free"], true);
}

}  // namespace
