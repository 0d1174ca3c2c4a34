// A file past a limit of support/limits.h, as the user meets it: `inrarch` exits 1 with
// a message naming the file and the limit, and writes nothing.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "../io_test_util.h"
#include "run_cli.h"

namespace inrarch {
namespace {

using ir::testing::spit;
using ir::testing::TempDir;
using test::run_cli;

TEST(LimitsCli, BundleOverTheRankLimitWritesNothing) {
  TempDir dir;
  std::filesystem::create_directories(dir / "in");
  spit(dir / "in" / "graph.json",
       R"({"nodes": [{"id": 0, "op": "input", "name": "x", "shape": [1,1,1,1,1,1,1,1,1]}],
           "outputs": [{"name": "y", "node": 0}]})");
  const auto r = run_cli("opt " + (dir / "in").string() + " -o " + (dir / "out").string());
  EXPECT_EQ(r.code, 1) << r.output;
  EXPECT_NE(r.output.find("inrarch opt: error: " + (dir / "in" / "graph.json").string()), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("over the limit of 8 dimensions"), std::string::npos) << r.output;
  EXPECT_FALSE(std::filesystem::exists(dir / "out"));
  // Nothing beside it either (a staging folder left behind would be "out.partial-*").
  size_t entries = 0;
  for ([[maybe_unused]] const auto& e : std::filesystem::directory_iterator(dir.path())) ++entries;
  EXPECT_EQ(entries, 1u);
}

TEST(LimitsCli, AnalyzeDepthOutOfRange) {
  TempDir dir;
  spit(dir / "g.ir", "graph @g {\n  %0 = input \"x\" : [4]\n  %1 = neg %0 : [4]\n  output \"y\" = %1\n}\n");
  spit(dir / "depths.json", R"({"all": 16777217})");
  auto r = run_cli("analyze " + (dir / "g.ir").string() + " --depths " + (dir / "depths.json").string());
  EXPECT_EQ(r.code, 1) << r.output;
  EXPECT_NE(r.output.find((dir / "depths.json").string() + ": depth of \"all\" = 16777217 is out of range "
                          "(the limit: 1 to 16777216)"),
            std::string::npos)
      << r.output;
  r = run_cli("analyze " + (dir / "g.ir").string() + " --block 100000");
  EXPECT_EQ(r.code, 1) << r.output;
  EXPECT_NE(r.output.find("lower: block 100000 is out of range (the limit: 1 to 65536)"), std::string::npos) << r.output;
}

}  // namespace
}  // namespace inrarch
