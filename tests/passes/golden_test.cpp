// Golden text tests for the passes: tests/golden/passes/<pass>/<case>.ir holds the input
// graph, a line "// -----", then the expected graph. Optional header lines in the input:
//   // RUN: a,b,c          passes to run (default: the directory name; 'default': the
//                          default pipeline)
//   // STATS: rule=N, ...  exact rewrite counts summed over the run (others unchecked)
// Every case also checks the verifier after each pass and idempotence (running the passes
// again on the output changes nothing). INRARCH_UPDATE_GOLDEN=1 rewrites the expected part.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "ir/text.h"
#include "passes/pipeline.h"

namespace inrarch::passes {
namespace {

namespace fs = std::filesystem;
const fs::path kGoldenDir = fs::path(INRARCH_SOURCE_DIR) / "tests/golden/passes";
constexpr std::string_view kSplit = "// -----\n";

std::vector<std::string> golden_cases() {
  std::vector<std::string> out;
  if (!fs::exists(kGoldenDir)) return out;
  for (const auto& e : fs::recursive_directory_iterator(kGoldenDir))
    if (e.path().extension() == ".ir") out.push_back(fs::relative(e.path(), kGoldenDir).string());
  std::sort(out.begin(), out.end());
  return out;
}

std::string read(const fs::path& p) {
  std::ifstream f(p);
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

// Value of a "// KEY: ..." header line, or "".
std::string header(const std::string& text, const std::string& key) {
  const std::string tag = "// " + key + ":";
  const auto at = text.find(tag);
  if (at == std::string::npos) return "";
  const auto end = text.find('\n', at);
  std::string v = text.substr(at + tag.size(), end - at - tag.size());
  v.erase(0, v.find_first_not_of(' '));
  return v;
}

std::vector<std::string> split(const std::string& s, char sep) {
  std::vector<std::string> out;
  std::stringstream ss(s);
  for (std::string item; std::getline(ss, item, sep);) {
    item.erase(0, item.find_first_not_of(' '));
    if (!item.empty()) out.push_back(item);
  }
  return out;
}

class Golden : public testing::TestWithParam<std::string> {};

TEST_P(Golden, MatchesExpected) {
  const fs::path file = kGoldenDir / GetParam();
  const std::string text = read(file);
  const auto cut = text.find(kSplit);
  ASSERT_NE(cut, std::string::npos) << file << ": no '// -----' line";
  const std::string input = text.substr(0, cut), expected = text.substr(cut + kSplit.size());

  PipelineOptions o;
  o.verify_each = true;
  const std::string run = header(input, "RUN");
  o.passes = split(run.empty() ? file.parent_path().filename().string() : run, ',');
  if (o.passes == std::vector<std::string>{"default"}) o.passes.clear();
  const ir::Graph in = ir::parse_text(input, file.string());
  ir::verify(in);
  const PipelineResult r = run_pipeline(in, o);
  const std::string got = ir::print_text(r.graph);

  if (std::getenv("INRARCH_UPDATE_GOLDEN")) {
    std::ofstream(file) << input << kSplit << got;
    GTEST_SKIP() << "updated " << file;
  }
  EXPECT_EQ(got, ir::print_text(ir::parse_text(expected, file.string()))) << file;

  // Idempotence: the passes find nothing more to do on their own output.
  const PipelineResult again = run_pipeline(r.graph, o);
  EXPECT_EQ(ir::print_text(again.graph), got) << file << ": not idempotent";

  for (const std::string& kv : split(header(input, "STATS"), ',')) {
    const auto eq = kv.find('=');
    ASSERT_NE(eq, std::string::npos) << kv;
    const std::string rule = kv.substr(0, eq);
    int64_t total = 0;
    for (const PassRecord& p : r.passes) total += p.stats.get(rule);
    EXPECT_EQ(total, std::stoll(kv.substr(eq + 1))) << file << ": rule " << rule;
  }
}

INSTANTIATE_TEST_SUITE_P(Passes, Golden, testing::ValuesIn(golden_cases()),
                         [](const testing::TestParamInfo<std::string>& i) {
                           std::string n = i.param;
                           for (char& ch : n)
                             if (!isalnum(static_cast<unsigned char>(ch))) ch = '_';
                           return n;
                         });
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(Golden);

}  // namespace
}  // namespace inrarch::passes
