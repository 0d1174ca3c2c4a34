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

  // compile --builtin insp at a small size; returns report.json.
  nlohmann::json compile(const std::string& name, const std::string& args) {
    const fs::path out = dir_ / name;
    auto r = inrarch::test::run_cli("compile --builtin insp --batch 8 --width 16 --no-csim --no-hls --no-mlir -q " +
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

}  // namespace
