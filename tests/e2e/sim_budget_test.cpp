// compile --sim-budget: simulations that outlive their budget stop by themselves and fail
// as "out of time", in the summary, the report and the exit code.
#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

#include <nlohmann/json.hpp>

#include "run_cli.h"

namespace {

namespace fs = std::filesystem;

TEST(SimBudget, OutOfTimeIsAFailedVerificationWithItsReason) {
  const fs::path out = fs::temp_directory_path() / ("inrarch_sim_budget_" + std::to_string(getpid()));
  auto r = inrarch::test::run_cli("compile --builtin insp --order 1 --batch 512 --width 32 --no-mlir "
                                  "--sim-budget 0.01 -q -o " + out.string());
  EXPECT_EQ(r.code, 2) << r.output;
  EXPECT_NE(r.output.find("csim FAIL (out of time)"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("threaded FAIL (out of time)"), std::string::npos) << r.output;
  std::ifstream f(out / "report.json");
  nlohmann::json v = nlohmann::json::parse(f)["verification"];
  EXPECT_TRUE(v["csim"]["out_of_time"].get<bool>()) << v;
  EXPECT_FALSE(v["csim"].contains("max_abs_error")) << v;  // no figure from an unfinished run
  EXPECT_TRUE(v["threaded"]["out_of_time"].get<bool>()) << v;
  EXPECT_FALSE(v["threaded"]["deadlock"].get<bool>()) << v;
  fs::remove_all(out);
}

}  // namespace
