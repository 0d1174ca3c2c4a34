// `inrarch derive` and `model insp --mode taylor` through the binary: the derived bundles
// check against references from nested reverse mode, INSP's derivative set written by hand
// as a request file equals the reverse-mode INSP bundle, and bad request files are one
// clear error with no output folder.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <string>
#include <unistd.h>

#include "ir/bundle.h"
#include "run_cli.h"

namespace {

namespace fs = std::filesystem;

using inrarch::test::RunResult;
RunResult run(const std::string& args) { return inrarch::test::run_cli(args); }

class DeriveCli : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("inrarch_derive_" + std::string(::testing::UnitTest::GetInstance()->current_test_info()->name()) +
            "_" + std::to_string(::getpid()));
    fs::remove_all(dir_);
    fs::create_directories(dir_);
    RunResult m = run("model siren --batch 6 --width 16 -o " + path("primal"));
    ASSERT_EQ(m.code, 0) << m.output;
  }
  void TearDown() override { fs::remove_all(dir_); }
  std::string path(const std::string& name) const { return (dir_ / name).string(); }
  std::string write(const std::string& name, const std::string& text) const {
    std::ofstream(dir_ / name) << text;
    return path(name);
  }
  fs::path dir_;
};

TEST_F(DeriveCli, EveryPartialUpToTheOrderChecksAgainstNestedReverseMode) {
  RunResult d = run("derive " + path("primal") + " --order 3 -o " + path("d"));
  ASSERT_EQ(d.code, 0) << d.output;
  EXPECT_NE(d.output.find("10 derivatives of order <= 3 wrt x"), std::string::npos) << d.output;
  for (const char* f : {"y.npy", "y_d1_0.npy", "y_d1_1.npy", "y_d0_3.npy", "y_d2_1.npy"})
    EXPECT_TRUE(fs::exists(dir_ / "d" / "reference" / f)) << f;
  RunResult e = run("eval " + path("d") + " --check --quiet");
  EXPECT_EQ(e.code, 0) << e.output;
}

// INSP order 1 by hand: y[..., c], then d(y_c / 189)/dx_j for c = 0..2, j = 0..1.
TEST_F(DeriveCli, InspsRequestEqualsTheReverseModeInspBundle) {
  const std::string kInvScale = "0.0052910052910052907";  // 1/189 to 17 digits
  std::string req = R"({"outputs": [)";
  for (int c = 0; c < 3; ++c)
    req += "{\"name\": \"out" + std::to_string(c) + "\", \"of\": \"y\", \"alpha\": [0,0], \"index\": " +
           std::to_string(c) + "},";
  for (int k = 3; k < 9; ++k) {
    const int c = (k - 3) / 2, j = (k - 3) % 2;
    req += "{\"name\": \"out" + std::to_string(k) + "\", \"of\": \"y\", \"alpha\": [" + (j ? "0,1" : "1,0") +
           "], \"index\": " + std::to_string(c) + ", \"scale\": " + kInvScale + "}" +
           (k < 8 ? "," : "]}");
  }
  RunResult d = run("derive " + path("primal") + " --request " + write("insp.json", req) +
                    " --no-reference -o " + path("d"));
  ASSERT_EQ(d.code, 0) << d.output;
  RunResult m = run("model insp --mode reverse --order 1 --batch 6 --width 16 -o " + path("rev"));
  ASSERT_EQ(m.code, 0) << m.output;
  fs::copy(dir_ / "rev" / "reference", dir_ / "d" / "reference", fs::copy_options::recursive);
  RunResult e = run("eval " + path("d") + " --check --quiet --rtol 1e-9");
  EXPECT_EQ(e.code, 0) << e.output;
}

TEST_F(DeriveCli, ALaplacianIsOneOutputEqualToItsTwoPartials) {
  const std::string req = write("lap.json", R"({"outputs": [
    {"name": "lap", "of": "y", "alpha": [[2,0],[0,2]], "index": 1},
    {"name": "dxx", "of": "y", "alpha": [2,0], "index": 1},
    {"name": "dyy", "of": "y", "alpha": [0,2], "index": 1}]})");
  RunResult d = run("derive " + path("primal") + " --order 2 --request " + req + " -o " + path("d"));
  ASSERT_EQ(d.code, 0) << d.output;
  EXPECT_EQ(run("eval " + path("d") + " --check --quiet").code, 0);
  // lap's reference (nested reverse mode) swapped for dxx's: the check must now fail.
  fs::copy_file(dir_ / "d" / "reference" / "dxx.npy", dir_ / "d" / "reference" / "lap.npy",
                fs::copy_options::overwrite_existing);
  EXPECT_EQ(run("eval " + path("d") + " --check --quiet").code, 1);
}

// A heat residual y_x1 − 0.1·y_x0x0 as one signed request: checked against nested reverse
// mode, and equal to its two partials combined here.
TEST_F(DeriveCli, ASignedScaledSumIsOneOutput) {
  const std::string req = write("heat.json", R"({"outputs": [
    {"name": "heat", "of": "y", "index": 0, "terms": [{"alpha": [0,1], "scale": 1}, {"alpha": [2,0], "scale": -0.1}]},
    {"name": "dt", "of": "y", "alpha": [0,1], "index": 0},
    {"name": "dxx", "of": "y", "alpha": [2,0], "index": 0}]})");
  RunResult d = run("derive " + path("primal") + " --order 2 --request " + req + " -o " + path("d"));
  ASSERT_EQ(d.code, 0) << d.output;
  EXPECT_EQ(run("eval " + path("d") + " --check --quiet --rtol 1e-10").code, 0);
  const inrarch::ir::Bundle b = inrarch::ir::load_bundle(dir_ / "d");
  const auto& heat = b.reference.at("heat").data;
  const auto& dt = b.reference.at("dt").data;
  const auto& dxx = b.reference.at("dxx").data;
  ASSERT_EQ(heat.size(), 6u);
  double largest = 0;
  for (size_t i = 0; i < heat.size(); ++i) {
    EXPECT_NEAR(heat[i], dt[i] - 0.1 * dxx[i], 1e-12 * (1 + std::fabs(dt[i]))) << i;
    largest = std::max(largest, std::fabs(0.1 * dxx[i]));
  }
  EXPECT_GT(largest, 1e-6);  // the second term is really there
}

TEST_F(DeriveCli, InspInTaylorModeChecksAgainstItsReverseModeReference) {
  RunResult m = run("model insp --mode taylor --order 2 --batch 4 --width 16 -o " + path("t"));
  ASSERT_EQ(m.code, 0) << m.output;
  EXPECT_NE(m.output.find("(taylor mode)"), std::string::npos) << m.output;
  EXPECT_EQ(run("eval " + path("t") + " --check --quiet").code, 0);
}

TEST_F(DeriveCli, BadRequestsAreOneClearErrorAndNoOutput) {
  const std::pair<const char*, const char*> cases[] = {
      {R"({"outputs": [{"name": "a", "of": "y"}]})", "outputs[0]: \"alpha\" must be"},
      {R"({"outputs": [{"name": "a", "of": "y", "alpha": [1,0,0]}]})", "multi-index [1,0,0] needs 2 entries"},
      {R"({"outputs": [{"name": "a", "of": "y", "alpha": [2,0]}]})", "summing to at most the order 1"},
      {R"({"outputs": [{"name": "a", "of": "z", "alpha": [1,0]}]})", "output \"z\" of request \"a\" does not exist"},
      {R"({"outputs": [{"name": "a", "of": "y", "alpha": [1,0], "index": 3}]})", "index 3 out of range"},
      {R"({"outputs": [{"name": "a", "of": "y", "alpha": [1,0]}, {"name": "a", "of": "y", "alpha": [0,1]}]})",
       "two requests are named \"a\""},
      {R"({"outputs": [{"name": "a", "of": "y", "alpha": [1,0], "index": 0.5}]})", "\"index\" must be an integer"},
      {R"({"outputs": )", "malformed JSON"},
      {R"({"outputs": [{"name": "a", "of": "y", "alpha": [1,0], "terms": [{"alpha": [1,0]}]}]})",
       "give \"alpha\" or \"terms\", not both"},
      {R"({"outputs": [{"name": "a", "of": "y", "terms": [[1,0]]}]})", "outputs[0]: terms[0]: expected {\"alpha\""},
      {R"({"outputs": [{"name": "a", "of": "y", "terms": [{"alpha": [1,0], "scale": "x"}]}]})",
       "terms[0]: \"scale\" is not a number"},
      {R"([1, 2])", "expected {\"outputs\": [...]}"},
  };
  for (const auto& [text, message] : cases) {
    const std::string req = write("bad.json", text);
    RunResult d = run("derive " + path("primal") + " --request " + req + " -o " + path("d"));
    EXPECT_EQ(d.code, 1) << text;
    EXPECT_NE(d.output.find(message), std::string::npos) << text << "\n" << d.output;
    EXPECT_FALSE(fs::exists(dir_ / "d")) << text;
  }
  RunResult w = run("derive " + path("primal") + " --wrt q -o " + path("d"));
  EXPECT_EQ(w.code, 1);
  EXPECT_NE(w.output.find("the graph has no input \"q\""), std::string::npos) << w.output;
}

// y = x − the batch's mean: a row's value depends on every row, so shifting all rows at
// once (Taylor mode) is not each row's own derivative. derive refuses it by name.
TEST_F(DeriveCli, RowsThatAreNotIndependentAreRefused) {
  using namespace inrarch;
  ir::Graph g("centred");
  const ir::NodeId x = g.input("x", {4, 2});
  const ir::NodeId mean = g.expand(g.sum(x, {0}, true), {4, 2});
  g.add_output("y", g.binary(ir::Op::Sub, x, mean));
  ir::Bundle b{g, {{"x", Tensor({4, 2})}}, {}, {}};
  ir::save_bundle(b, dir_ / "mixed");
  RunResult d = run("derive " + path("mixed") + " -o " + path("d"));
  EXPECT_EQ(d.code, 1);
  EXPECT_NE(d.output.find("not independent samples"), std::string::npos) << d.output;
  EXPECT_FALSE(fs::exists(dir_ / "d"));
}

}  // namespace
