// compile --rtl's Verilator run by default: a design whose simulation would take long
// (rtl::simulation_work past driver::kAutoRtlSimWork) gets OUT/rtl and a note saying how to
// run it, not a run of many minutes; --no-rtl-sim writes OUT/rtl alone.
#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

#include <nlohmann/json.hpp>

#include "../e2e/run_cli.h"

namespace {

namespace fs = std::filesystem;

nlohmann::json report(const fs::path& out) {
  std::ifstream f(out / "report.json");
  return nlohmann::json::parse(f);
}

// Whether report.json has a verification.rtl (a compile without simulations has no
// verification section at all).
bool has_rtl_verdict(const nlohmann::json& rep) {
  return rep.contains("verification") && rep.at("verification").contains("rtl");
}

class RtlSimDefault : public ::testing::Test {
 protected:
  fs::path dir_ = fs::temp_directory_path() / ("inrarch_rtl_default_" + std::to_string(getpid()));
  void SetUp() override { fs::remove_all(dir_); }
  void TearDown() override { fs::remove_all(dir_); }
};

// One MAC per mm at width 64 and 4,096 rows: 33.6 M cycles, 3.5e9 process-cycles.
TEST_F(RtlSimDefault, ALongSimulationIsSkippedWithTheWayToRunIt) {
  const fs::path out = dir_ / "big";
  auto r = inrarch::test::run_cli("compile --builtin insp --order 1 --batch 4096 --width 64 --no-dse --rtl "
                                  "--no-csim --no-mlir -o " + out.string());
  ASSERT_EQ(r.code, 0) << r.output;
  EXPECT_NE(r.output.find("rtl: Verilator run skipped: 3.49e+09 process-cycles"), std::string::npos) << r.output;
  const nlohmann::json rep = report(out);
  EXPECT_NE(rep.at("rtl").at("sim_skipped").get<std::string>().find("--rtl-sim"), std::string::npos);
  EXPECT_FALSE(has_rtl_verdict(rep));
  EXPECT_TRUE(fs::exists(out / "rtl" / "inrarch_top.sv"));
}

TEST_F(RtlSimDefault, NoRtlSimWritesTheFolderAlone) {
  const fs::path out = dir_ / "small";
  auto r = inrarch::test::run_cli("compile --builtin insp --order 1 --batch 2 --width 8 --no-dse --rtl --no-rtl-sim "
                                  "--no-csim --no-mlir -q -o " + out.string());
  ASSERT_EQ(r.code, 0) << r.output;
  const nlohmann::json rep = report(out);
  EXPECT_FALSE(rep.at("rtl").contains("sim_skipped"));
  EXPECT_FALSE(has_rtl_verdict(rep));
  EXPECT_TRUE(fs::exists(out / "rtl" / "inrarch_top.sv"));
  // Asking for both is one clear error.
  r = inrarch::test::run_cli("compile --builtin insp --batch 2 --width 8 --rtl --rtl-sim --no-hls -o " +
                             (dir_ / "x").string());
  EXPECT_EQ(r.code, 1) << r.output;
  EXPECT_NE(r.output.find("drop --no-hls or add --no-rtl-sim"), std::string::npos) << r.output;
  EXPECT_FALSE(fs::exists(dir_ / "x"));
}

}  // namespace
