// report.json's shape (docs/report.md): the keys of a small compile, two levels deep (three
// under verification), against a golden list. A key renamed, dropped or added between the
// stages and the writer fails here; docs/report.md must then say so too.
#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <string>

#include <nlohmann/json.hpp>

#include "run_cli.h"

namespace {

namespace fs = std::filesystem;

// "section", "section.key" and, under verification, "verification.mode.key".
std::set<std::string> key_paths(const nlohmann::json& report) {
  std::set<std::string> out;
  for (const auto& [section, s] : report.items()) {
    out.insert(section);
    if (!s.is_object()) continue;
    for (const auto& [key, v] : s.items()) {
      out.insert(section + "." + key);
      if (section == "verification" && v.is_object())
        for (const auto& [inner, _] : v.items()) out.insert(section + "." + key + "." + inner);
    }
  }
  return out;
}

std::set<std::string> golden_keys(const fs::path& file) {
  std::ifstream in(file);
  std::set<std::string> out;
  for (std::string line; std::getline(in, line);)
    if (!line.empty() && line[0] != '#') out.insert(line);
  return out;
}

TEST(ReportKeys, ASmallCompileWritesTheDocumentedKeys) {
  const fs::path out = fs::temp_directory_path() / ("inrarch_report_keys_" + std::to_string(getpid()));
  fs::remove_all(out);
  auto r = inrarch::test::run_cli("compile --builtin insp --order 1 --batch 64 --width 16 -q -o " + out.string());
  ASSERT_EQ(r.code, 0) << r.output;
  std::ifstream f(out / "report.json");
  const nlohmann::json report = nlohmann::json::parse(f, nullptr, false);
  fs::remove_all(out);
  ASSERT_TRUE(report.is_object());
  const std::set<std::string> want = golden_keys(fs::path(INRARCH_SOURCE_DIR) / "tests/golden/report/keys.txt");
  ASSERT_FALSE(want.empty());
  const std::set<std::string> got = key_paths(report);
  std::ostringstream missing, extra;
  for (const std::string& k : want)
    if (!got.count(k)) missing << " " << k;
  for (const std::string& k : got)
    if (!want.count(k)) extra << " " << k;
  EXPECT_EQ(missing.str(), "") << "documented keys the report lacks";
  EXPECT_EQ(extra.str(), "") << "keys of the report the golden (and docs/report.md) lack";
}

}  // namespace
