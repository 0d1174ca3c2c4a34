// `compile`'s search options end to end: the report's resources / floor / dse sections, a
// smaller part and a tighter budget giving slower designs, --no-dse / --mm-par forcing
// uniform ones, and bad values as one clear error.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <unistd.h>
#include <utility>
#include <vector>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "run_cli.h"

namespace {

namespace fs = std::filesystem;

using inrarch::test::RunResult;
RunResult run(const std::string& args) { return inrarch::test::run_cli(args); }

class DseCli : public ::testing::Test {
 protected:
  // One folder per test and process: ctest runs tests in parallel, and two checkouts may
  // run the suite at once.
  fs::path dir_ = fs::temp_directory_path() /
                  ("inrarch_dse_cli_" +
                   std::string(::testing::UnitTest::GetInstance()->current_test_info()->name()) +
                   "_" + std::to_string(::getpid()));
  void SetUp() override {
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  // INSP order 1, batch 8, width 64, no HLS: the dataflow stage only.
  nlohmann::json compile(const std::string& name, const std::string& flags) {
    RunResult r = run("compile --builtin insp --order 1 --batch 8 --width 64 --no-hls --no-mlir -q " +
                      flags + " -o " + (dir_ / name).string());
    EXPECT_EQ(r.code, 0) << r.output;
    EXPECT_NE(r.output.find("performance: "), std::string::npos) << r.output;
    std::ifstream f(dir_ / name / "report.json");
    return nlohmann::json::parse(f);
  }
};

int64_t total_dsp(const nlohmann::json& r) { return r["resources"]["total"]["dsp"].get<int64_t>(); }
int64_t latency(const nlohmann::json& r) { return r["fifo"]["latency_cycles"].get<int64_t>(); }

TEST_F(DseCli, ReportSectionsAndTheSearchReactsToPartAndBudget) {
  nlohmann::json u50 = compile("u50", "");
  EXPECT_TRUE(u50["dse"]["enabled"].get<bool>());
  EXPECT_TRUE(u50["resources"]["fits"].get<bool>());
  EXPECT_EQ(u50["resources"]["part"]["device"], "xcu50-fsvh2104-2-e");
  EXPECT_GT(u50["floor"]["cycles"].get<int64_t>(), 0);
  EXPECT_GE(u50["floor"]["latency_over_floor"].get<double>(), 1.0);
  EXPECT_GE(u50["dse"]["front"].size(), 2u);
  EXPECT_GT(u50["design"]["mm_par_by_kernel"].size(), 0u);
  nlohmann::json small = compile("zcu104", "--part zcu104");
  EXPECT_TRUE(small["resources"]["fits"].get<bool>());
  EXPECT_LE(total_dsp(small), 1728 * 8 / 10);
  nlohmann::json tight = compile("tight", "--budget dsp=0.05");
  EXPECT_LE(total_dsp(tight), 5952 / 20);
  EXPECT_GT(latency(tight), latency(u50));
}

TEST_F(DseCli, NoDseAndUniformMmParAreForced) {
  nlohmann::json none = compile("none", "--no-dse");
  EXPECT_FALSE(none["dse"]["enabled"].get<bool>());
  for (const auto& [k, p] : none["design"]["mm_par_by_kernel"].items()) EXPECT_EQ(p, 1) << k;
  nlohmann::json four = compile("four", "--mm-par 4");
  EXPECT_FALSE(four["dse"]["enabled"].get<bool>());
  for (const auto& [k, p] : four["design"]["mm_par_by_kernel"].items()) EXPECT_EQ(p, 4) << k;
  // Reverse mode uses each weight in several products (forward, and transposed in every
  // backward pass), which merging shares; Taylor mode's one stacked mm per layer has none.
  nlohmann::json reverse = compile("reverse", "--no-dse --mode reverse");
  nlohmann::json merged = compile("merged", "--no-dse --merge 4 --mode reverse");
  EXPECT_EQ(merged["dse"]["merge_max_group"], 4);
  EXPECT_LT(merged["design"]["mm_par_by_kernel"].size(), reverse["design"]["mm_par_by_kernel"].size());
}

TEST_F(DseCli, BadPartOrBudgetIsOneClearError) {
  const std::string base = "compile --builtin insp --batch 2 --width 8 -q --no-csim -o " + (dir_ / "x").string();
  RunResult part = run(base + " --part u51");
  EXPECT_NE(part.code, 0);
  EXPECT_NE(part.output.find("u51"), std::string::npos) << part.output;
  RunResult budget = run(base + " --budget dsp=1.5");
  EXPECT_EQ(budget.code, 1);
  EXPECT_NE(budget.output.find("dsp=1.5"), std::string::npos) << budget.output;
  EXPECT_FALSE(fs::exists(dir_ / "x"));
}

// A budget no design meets is an error (exit 3) naming the resource and what to try, and
// leaves no output folder; --allow-over-budget writes the design, reported over budget.
TEST_F(DseCli, OverBudgetIsAnErrorUnlessAllowed) {
  const std::string base = "compile --builtin insp --order 1 --batch 8 --width 64 --no-hls --no-mlir -q "
                           "--budget all=0.001 -o ";
  RunResult over = run(base + (dir_ / "over").string());
  EXPECT_EQ(over.code, 3) << over.output;
  // u50 DSP: 0.1% of 5,952 is 5; the design needs more, and its amount over is printed.
  EXPECT_NE(over.output.find("inrarch compile: error: the design does not fit the u50: DSP "), std::string::npos)
      << over.output;
  EXPECT_NE(over.output.find("allowed (0.1% of 5952), "), std::string::npos) << over.output;
  for (const char* hint : {"--part u280", "--budget", "--max-error", "--allow-over-budget"})
    EXPECT_NE(over.output.find(hint), std::string::npos) << hint << "\n" << over.output;
  EXPECT_EQ(over.output.find("performance: "), std::string::npos) << over.output;
  EXPECT_FALSE(fs::exists(dir_ / "over"));
  nlohmann::json allowed = compile("allowed", "--budget all=0.001 --allow-over-budget");
  EXPECT_FALSE(allowed["resources"]["fits"].get<bool>());
  EXPECT_EQ(allowed["resources"]["over"], "dsp");
}

// --max-error: the narrowest width within the bound, tried narrowest first; the DSPs the
// search then costs follow it (hand table: up to 18 bits 1 DSP48E2, up to 27 two, 32 four).
TEST_F(DseCli, MaxErrorPicksTheNarrowestWidthWithinTheBound) {
  RunResult r = run("compile --builtin insp --order 1 --batch 4 --width 16 -q --max-error 1e-2 -o " +
                    (dir_ / "p").string());
  ASSERT_EQ(r.code, 0) << r.output;
  std::ifstream f(dir_ / "p" / "report.json");
  nlohmann::json j = nlohmann::json::parse(f);
  const auto& tried = j["precision"]["tried"];
  ASSERT_GE(tried.size(), 1u);
  for (size_t i = 0; i + 1 < tried.size(); ++i) EXPECT_FALSE(tried[i]["pass"].get<bool>()) << tried[i];
  EXPECT_TRUE(tried.back()["pass"].get<bool>());
  EXPECT_LE(tried.back()["max_abs_error"].get<double>(), 1e-2);
  const std::string chosen = j["precision"]["chosen"];
  EXPECT_EQ(chosen, tried.back()["type"]);
  EXPECT_EQ(j["hls"]["type"], chosen);
  EXPECT_TRUE(j["verification"]["csim"]["pass"].get<bool>());
  EXPECT_LE(j["verification"]["csim"]["max_abs_error"].get<double>(), 1e-2);
  // The shipped project's own make csim, at the chosen width and judged by the same bound.
  EXPECT_TRUE(j["verification"]["project"]["pass"].get<bool>()) << j["verification"]["project"];
  EXPECT_DOUBLE_EQ(j["verification"]["project"]["max_abs_error"].get<double>(),
                   std::stod(fmt::format("{:.3e}", j["verification"]["csim"]["max_abs_error"].get<double>())));
  const int width = std::stoi(chosen.substr(chosen.find('<') + 1));
  EXPECT_LT(width, 32);
  EXPECT_EQ(j["floor"]["dsp_per_multiply"], width <= 18 ? 1 : width <= 27 ? 2 : 4);
  // The weights' width travels from the choice to the design; the first candidates are the
  // one-DSP ones (18-bit weights, or 18 bits for everything).
  EXPECT_EQ(j["precision"]["weight_bits"], j["design"]["weight_bits"]);
  EXPECT_EQ(j["precision"]["weight_bits"], tried.back()["weight_bits"]);
  EXPECT_EQ(tried[0]["type"], "fixed<18,10>");
  EXPECT_EQ(tried[0]["dsp_per_mac"], 1);
}

// --weight-bits N: every mm's constant B in N-bit words; the design, the DSP floor (each MAC
// 27 x 18: one DSP, the elementwise products two) and all three C simulations follow. A
// width that is not narrower fixed point is one clear error, before anything is written.
TEST_F(DseCli, WeightBitsNarrowTheMmWeights) {
  RunResult r = run("compile --builtin insp --order 1 --batch 4 --width 16 -q --type 'fixed<27,10>' --weight-bits 18 -o " +
                    (dir_ / "w").string());
  ASSERT_EQ(r.code, 0) << r.output;
  std::ifstream f(dir_ / "w" / "report.json");
  nlohmann::json j = nlohmann::json::parse(f);
  EXPECT_EQ(j["design"]["weight_bits"], 18);
  EXPECT_EQ(j["design"]["elem_bits"], 27);
  const int64_t multiplies = j["floor"]["multiplies"], work = j["floor"]["dsp_work"];
  EXPECT_LT(work, 2 * multiplies);  // at one width every product would take two
  EXPECT_GT(work, multiplies);      // the elementwise products still take two
  EXPECT_TRUE(j["verification"]["csim"]["pass"].get<bool>()) << j["verification"]["csim"];
  EXPECT_TRUE(j["verification"]["project"]["pass"].get<bool>()) << j["verification"]["project"];
  const std::string base = "compile --builtin insp --batch 2 --width 8 -q --no-csim -o " + (dir_ / "x").string();
  for (const auto& [args, message] :
       std::vector<std::pair<std::string, std::string>>{
           {" --type float --weight-bits 18", "--type must be fixed<W,I>"},
           {" --weight-bits 10", "--weight-bits 10 must be above the integer bits 10"},
           {" --type 'fixed<24,10>' --weight-bits 27", "at most the width 24 of fixed<24,10>"}}) {
    RunResult bad = run(base + args);
    EXPECT_EQ(bad.code, 1) << args << ": " << bad.output;
    EXPECT_NE(bad.output.find(message), std::string::npos) << bad.output;
  }
  EXPECT_FALSE(fs::exists(dir_ / "x"));
}

TEST_F(DseCli, MaxErrorNoWidthMeetsOrNotFixedIsOneClearError) {
  const std::string base = "compile --builtin insp --batch 2 --width 8 -q --no-csim -o " + (dir_ / "x").string();
  RunResult tight = run(base + " --max-error 1e-15");
  EXPECT_EQ(tight.code, 1) << tight.output;
  EXPECT_NE(tight.output.find("no fixed-point width up to fixed<32,10> meets --max-error 1e-15"),
            std::string::npos) << tight.output;
  RunResult flt = run(base + " --type float --max-error 1e-3");
  EXPECT_EQ(flt.code, 1) << flt.output;
  EXPECT_NE(flt.output.find("--type must be fixed<W,I>"), std::string::npos) << flt.output;
  EXPECT_FALSE(fs::exists(dir_ / "x"));
}

// OUT/plan.json is the search's result by kernel name; --plan reads it back instead of
// searching and gives the same design. A plan that does not fit the design is one clear
// error naming what is wrong.
TEST_F(DseCli, PlanFileRoundTripAndBadPlans) {
  nlohmann::json searched = compile("searched", "--verify-design");
  std::ifstream pf(dir_ / "searched" / "plan.json");
  nlohmann::json plan = nlohmann::json::parse(pf);
  EXPECT_EQ(plan["format"], "inrarch-plan");
  EXPECT_EQ(plan["mm_par"], searched["dse"]["mm_par"]);
  EXPECT_EQ(plan["merge_max_group"], searched["dse"]["merge_max_group"]);
  EXPECT_EQ(plan["fabric_elementwise_mul"], searched["design"]["fabric_elementwise_mul"]);
  EXPECT_EQ(plan["block"], searched["design"]["block"]);
  EXPECT_EQ(plan["block"], searched["dse"]["block"]);
  nlohmann::json replayed = compile("replayed", "--plan " + (dir_ / "searched" / "plan.json").string());
  EXPECT_FALSE(replayed["dse"]["enabled"].get<bool>());
  EXPECT_EQ(replayed["design"]["mm_par_by_kernel"], searched["design"]["mm_par_by_kernel"]);
  EXPECT_EQ(replayed["design"]["mm_lanes_by_kernel"], searched["design"]["mm_lanes_by_kernel"]);
  EXPECT_EQ(replayed["design"]["block"], searched["design"]["block"]);
  EXPECT_EQ(latency(replayed), latency(searched));
  EXPECT_EQ(total_dsp(replayed), total_dsp(searched));

  const std::string base = "compile --builtin insp --order 1 --batch 8 --width 64 --no-hls --no-mlir -q -o " +
                           (dir_ / "bad").string() + " --plan ";
  auto bad = [&](const std::string& name, const nlohmann::json& j, const std::string& message) {
    const fs::path f = dir_ / (name + ".json");
    std::ofstream(f) << j.dump();
    RunResult r = run(base + f.string());
    EXPECT_EQ(r.code, 1) << name << ": " << r.output;
    EXPECT_NE(r.output.find(message), std::string::npos) << name << ": " << r.output;
    EXPECT_FALSE(fs::exists(dir_ / "bad"));
  };
  nlohmann::json unknown = plan;
  unknown["mm_par"]["mm_99999"] = 2;
  bad("unknown", unknown, "'mm_99999' is not an mm kernel of the design");
  nlohmann::json missing = plan;
  missing["mm_par"].erase(missing["mm_par"].begin());
  bad("missing", missing, "no mm_par for the design's mm kernel " + plan["mm_par"].begin().key());
  nlohmann::json zero = plan;
  zero["mm_par"].begin().value() = 0;
  bad("zero", zero, "mm_par 0 of '" + plan["mm_par"].begin().key() + "' is out of range");
  nlohmann::json typo = plan;
  typo["mm_pars"] = typo["mm_par"];
  bad("typo", typo, "unknown key 'mm_pars'");
  RunResult both = run(base + (dir_ / "searched" / "plan.json").string() + " --mm-par 2");
  EXPECT_EQ(both.code, 1) << both.output;
  EXPECT_NE(both.output.find("--plan gives every mm's MACs"), std::string::npos) << both.output;
  RunResult block = run(base + (dir_ / "searched" / "plan.json").string() + " --block 2");
  EXPECT_EQ(block.code, 1) << block.output;
  EXPECT_NE(block.output.find("drop --mm-par, --merge and --block"), std::string::npos) << block.output;
}

// --block: auto (the search's), a given block (kept, searched MACs), or one clear error.
TEST_F(DseCli, BlockAutoGivenOrOneClearError) {
  nlohmann::json given = compile("given", "--block 2");
  EXPECT_EQ(given["design"]["block"], 2);
  EXPECT_EQ(given["dse"]["block"], 2);
  EXPECT_TRUE(given["dse"]["enabled"].get<bool>());
  EXPECT_EQ(given["dse"].count("blocks"), 0u);  // not searched
  nlohmann::json uniform = compile("uniform", "--block auto --no-dse");
  EXPECT_EQ(uniform["design"]["block"], 1);
  nlohmann::json searched = compile("auto", "--block auto");
  ASSERT_GE(searched["dse"]["blocks"].size(), 1u);
  EXPECT_EQ(searched["dse"]["blocks"][0]["block"], 1);
  EXPECT_EQ(searched["design"]["block"], searched["dse"]["block"]);
  const std::string base = "compile --builtin insp --batch 2 --width 8 -q --no-csim -o " + (dir_ / "x").string();
  for (const auto& [value, message] : std::vector<std::pair<std::string, std::string>>{
           {"0", "compile: --block 0 is out of range (the limit: 1 to 65536)"},
           {"-4", "compile: --block -4 is out of range (the limit: 1 to 65536)"},
           {"70000", "compile: --block 70000 is out of range (the limit: 1 to 65536)"},
           {"4x", "--block: expected auto or a whole number of elements per beat (e.g. 4), got '4x'"},
           {"wide", "--block: expected auto or a whole number of elements per beat (e.g. 4), got 'wide'"}}) {
    RunResult r = run(base + " --block " + value);
    EXPECT_EQ(r.code, 1) << value << ": " << r.output;
    EXPECT_NE(r.output.find("inrarch compile: error: " + message), std::string::npos) << value << ": " << r.output;
  }
  EXPECT_FALSE(fs::exists(dir_ / "x"));
}

}  // namespace
