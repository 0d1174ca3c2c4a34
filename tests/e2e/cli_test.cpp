// End-to-end tests of the `inrarch` binary: exit codes, messages, output folders.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <unistd.h>

#include <nlohmann/json.hpp>

#include "run_cli.h"

namespace {

namespace fs = std::filesystem;

using inrarch::test::RunResult;
RunResult run(const std::string& args) { return inrarch::test::run_cli(args); }

class CliTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("inrarch_cli_" + std::string(::testing::UnitTest::GetInstance()->current_test_info()->name()) +
            "_" + std::to_string(::getpid()));
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  std::string path(const std::string& name) const { return (dir_ / name).string(); }
  fs::path dir_;
};

TEST_F(CliTest, HelpListsSubcommands) {
  RunResult r = run("--help");
  EXPECT_EQ(r.code, 0);
  for (const char* sub : {"model", "eval", "opt", "compile"})
    EXPECT_NE(r.output.find(sub), std::string::npos) << sub;
}

TEST_F(CliTest, ModelThenEvalCheckPasses) {
  RunResult m = run("model insp --order 1 --batch 4 --width 16 -o " + path("b"));
  ASSERT_EQ(m.code, 0) << m.output;
  for (const char* f : {"graph.json", "inputs/x.npy", "params/l0.weight.npy", "reference/out8.npy"})
    EXPECT_TRUE(fs::exists(dir_ / "b" / f)) << f;
  RunResult e = run("eval " + path("b") + " --check --quiet");
  EXPECT_EQ(e.code, 0) << e.output;
  EXPECT_NE(e.output.find("PASS"), std::string::npos) << e.output;
}

TEST_F(CliTest, EvalCheckFailsOnWrongReference) {
  ASSERT_EQ(run("model insp --order 1 --batch 4 --width 16 -o " + path("b")).code, 0);
  // Swap two reference files: the check must notice.
  fs::path ref = dir_ / "b" / "reference";
  fs::rename(ref / "out0.npy", ref / "tmp.npy");
  fs::rename(ref / "out1.npy", ref / "out0.npy");
  fs::rename(ref / "tmp.npy", ref / "out1.npy");
  RunResult e = run("eval " + path("b") + " --check --quiet");
  EXPECT_EQ(e.code, 1) << e.output;
  EXPECT_NE(e.output.find("FAIL"), std::string::npos) << e.output;
}

TEST_F(CliTest, CompileBuiltinWritesReport) {
  RunResult c = run("compile --builtin insp --order 1 --batch 4 --width 16 -q -o " + path("out"));
  ASSERT_EQ(c.code, 0) << c.output;
  std::ifstream f(dir_ / "out" / "report.json");
  ASSERT_TRUE(f.good());
  nlohmann::json j = nlohmann::json::parse(f);
  EXPECT_EQ(j["graph"]["outputs"], 9);
  EXPECT_GT(j["graph"]["op_nodes_imported"].get<int>(), 20);
}

TEST_F(CliTest, MissingBundleIsOneClearError) {
  RunResult r = run("eval " + path("nope"));
  EXPECT_EQ(r.code, 1);
  EXPECT_NE(r.output.find("error"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("nope"), std::string::npos) << r.output;
}

TEST_F(CliTest, FailedCompileLeavesNoOutputFolder) {
  fs::create_directories(dir_ / "bad");
  std::ofstream(dir_ / "bad" / "graph.json") << "{ \"nodes\": [ {\"id\": 0, \"op\": \"frobnicate\"} ] }";
  RunResult r = run("compile " + path("bad") + " -q -o " + path("out"));
  EXPECT_EQ(r.code, 1) << r.output;
  EXPECT_NE(r.output.find("frobnicate"), std::string::npos) << r.output;
  EXPECT_FALSE(fs::exists(dir_ / "out"));
  for (const auto& e : fs::directory_iterator(dir_))
    EXPECT_EQ(e.path().filename().string().find(".out.partial"), std::string::npos) << e.path();
}

// -o never wipes a folder that is not an earlier compile output; an earlier output is replaced.
TEST_F(CliTest, CompileReplacesOnlyItsOwnOutput) {
  fs::create_directories(dir_ / "home");
  std::ofstream(dir_ / "home" / "notes.txt") << "keep me";
  const std::string quick = "compile --builtin insp --batch 2 --width 8 -q --no-csim -o ";
  RunResult r = run(quick + path("home"));
  EXPECT_EQ(r.code, 1) << r.output;
  EXPECT_NE(r.output.find("refusing to replace"), std::string::npos) << r.output;
  EXPECT_TRUE(fs::exists(dir_ / "home" / "notes.txt"));
  ASSERT_EQ(run(quick + path("out")).code, 0);
  std::ofstream(dir_ / "out" / "stale.txt") << "from the first run";
  RunResult again = run(quick + path("out"));
  EXPECT_EQ(again.code, 0) << again.output;
  EXPECT_TRUE(fs::exists(dir_ / "out" / "report.json"));
  EXPECT_FALSE(fs::exists(dir_ / "out" / "stale.txt"));
}

// The sweep's CSV: one row per width, error falling as bits are added (12 bits cannot meet
// 1e-3 on INSP, 32 bits can).
TEST_F(CliTest, PrecisionSweepWritesFallingErrors) {
  RunResult r = run("precision-sweep --builtin insp --batch 4 --width 8 --widths 12,32 --no-float -q "
                    "--work " + path("work") + " --csv " + path("sweep.csv"));
  ASSERT_EQ(r.code, 0) << r.output;
  std::ifstream f(dir_ / "sweep.csv");
  std::string header, row12, row32;
  std::getline(f, header);
  std::getline(f, row12);
  std::getline(f, row32);
  EXPECT_EQ(header, "type,width,int_bits,max_abs_error,max_rel_error,max_scaled_error,completed");
  auto abs_error = [](const std::string& row) {  // the field after "type",width,int_bits
    size_t p = row.find("\",") + 2;
    for (int i = 0; i < 2; ++i) p = row.find(',', p) + 1;
    return std::stod(row.substr(p));
  };
  ASSERT_EQ(row12.rfind("\"fixed<12,10>\",12,10,", 0), 0u) << row12;
  ASSERT_EQ(row32.rfind("\"fixed<32,10>\",32,10,", 0), 0u) << row32;
  EXPECT_GT(abs_error(row12), 1e-3);
  EXPECT_LT(abs_error(row32), 1e-3);
  EXPECT_LT(abs_error(row32) * 100, abs_error(row12));
}

TEST_F(CliTest, BadArgumentsExitNonZero) {
  EXPECT_NE(run("model insp --order 99 -o " + path("x")).code, 0);
  EXPECT_NE(run("model insp --batch 0 -o " + path("x")).code, 0);
  EXPECT_NE(run("frobnicate").code, 0);
  EXPECT_FALSE(fs::exists(dir_ / "x"));
}

}  // namespace
