// `inrarch analyze` end to end: a .ir file in, the deadlock explanation / latency out.
#include <gtest/gtest.h>

#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <memory>
#include <unistd.h>

#include <nlohmann/json.hpp>

#include "ir/graph.h"
#include "ir/text.h"

namespace inrarch {
namespace {

std::string run(const std::string& args, int* rc) {
  std::string cmd = std::string(INRARCH_BINARY) + " " + args + " 2>/dev/null";
  std::string out;
  FILE* f = popen(cmd.c_str(), "r");
  std::array<char, 4096> buf{};
  while (size_t n = fread(buf.data(), 1, buf.size(), f)) out.append(buf.data(), n);
  *rc = WEXITSTATUS(pclose(f));
  return out;
}

// The paper's Fig. 5 graph with 25 elements (more than the 22 its depth-2 FIFOs and cos's
// pipeline hold: paper_examples_test.cpp).
std::string fig5_file() {
  ir::Graph g;
  ir::NodeId x = g.input("x", {25, 1});
  ir::NodeId m = g.mm(g.param("w", {25, 25}), x);
  g.add_output("y", g.binary(ir::Op::Mul, m, g.unary(ir::Op::Cos, x)));
  auto path = std::filesystem::temp_directory_path() / ("inrarch_analyze_fig5_" + std::to_string(::getpid()) + ".ir");
  std::ofstream(path) << ir::print_text(g);
  return path.string();
}

TEST(AnalyzeCli, DeadlockJsonAndFix) {
  std::string file = fig5_file();
  int rc = -1;
  auto j = nlohmann::json::parse(run("analyze " + file + " --json", &rc));
  EXPECT_EQ(rc, 0);
  EXPECT_TRUE(j["deadlock"].get<bool>());
  EXPECT_TRUE(j["latency_cycles"].is_null());
  EXPECT_EQ(j["cycle"].size(), 4u);
  ASSERT_EQ(j["deepen"].size(), 2u);
  EXPECT_EQ(j["deepen"][0]["min_depth"], 3);
  EXPECT_FALSE(j["analysis"]["deadlock_free"].get<bool>());

  auto depths = std::filesystem::temp_directory_path() / ("inrarch_analyze_fig5_depths_" + std::to_string(::getpid()) + ".json");
  std::ofstream(depths) << R"({"s_copy_in_x__cos_3": 5})";  // n - 20
  j = nlohmann::json::parse(run("analyze " + file + " --json --depths " + depths.string(), &rc));
  EXPECT_EQ(rc, 0);
  EXPECT_FALSE(j["deadlock"].get<bool>());
  EXPECT_GT(j["latency_cycles"].get<int64_t>(), 64);

  std::string text = run("analyze " + file + " --fifo-opt paper", &rc);
  EXPECT_EQ(rc, 0);
  EXPECT_NE(text.find("deadlock: a cycle of 4 processes"), std::string::npos) << text;
  EXPECT_NE(text.find("fifo paper"), std::string::npos) << text;

  run("analyze " + file + " --depths nonsense.json", &rc);
  EXPECT_EQ(rc, 1);
}

// A batch of independent rows is analysed on a prefix by default: the verdicts, latency and
// sized FIFOs must be those of the full analysis (--exact).
TEST(AnalyzeCli, PrefixOfRowsAgreesWithExact) {
  auto dir = std::filesystem::temp_directory_path() / ("inrarch_analyze_rows_" + std::to_string(::getpid()));
  std::filesystem::remove_all(dir);
  int rc = -1;
  run("model insp --order 1 --batch 300 --width 16 -o " + dir.string(), &rc);
  ASSERT_EQ(rc, 0);
  for (const char* depths : {"all=2", "all=64"}) {
    std::string args = "analyze " + dir.string() + " --optimize --mm-par 4 --json --depths " + depths;
    auto prefix = nlohmann::json::parse(run(args, &rc));
    ASSERT_EQ(rc, 0);
    auto exact = nlohmann::json::parse(run(args + " --exact", &rc));
    ASSERT_EQ(rc, 0);
    EXPECT_EQ(prefix["deadlock"], exact["deadlock"]) << depths;
    EXPECT_EQ(prefix["latency_cycles"], exact["latency_cycles"]) << depths;
    EXPECT_EQ(exact["analysis"]["exact"], true);
    EXPECT_EQ(prefix["analysis"]["rows"], 300);
    if (!prefix["deadlock"].get<bool>()) {
      EXPECT_EQ(prefix["analysis"]["exact"], false);
      EXPECT_LT(prefix["analysis"]["rows_analysed"].get<int64_t>(), 300);
      EXPECT_EQ(prefix["analysis"]["fill_cycles"].get<int64_t>() +
                    299 * prefix["analysis"]["period_cycles"].get<int64_t>(),
                exact["latency_cycles"].get<int64_t>());
    }
  }
  // all=2 deadlocks (a chain fan-out), and the prefix finds the same cycle.
  auto sized = nlohmann::json::parse(run("analyze " + dir.string() + " --optimize --mm-par 4 --json --fifo-opt min", &rc));
  ASSERT_EQ(rc, 0);
  EXPECT_TRUE(sized["deadlock"].get<bool>());
  EXPECT_FALSE(sized["fifo"]["deadlock"].get<bool>());
  int64_t peak = sized["fifo"]["peak_latency_cycles"].get<int64_t>();
  EXPECT_LE(sized["fifo"]["latency_cycles"].get<int64_t>(), peak + peak / 100);
}

}  // namespace
}  // namespace inrarch
