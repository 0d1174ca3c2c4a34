// The HTML report in a real browser: headless Chromium loads the page of a compiled INSP
// design and of the Fig. 5 deadlock, and the test fails on any console message or script
// error, on a missing section, on a reference to anything outside the file, and on a graph
// whose node count is not the design's. Screenshots go to <build>/report-screenshots/.
// Skipped only when Chromium or Graphviz's dot is not installed.
#include <gtest/gtest.h>

#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>

#include <nlohmann/json.hpp>

#include "../e2e/run_cli.h"
#include "html_text.h"
#include "ir/graph.h"
#include "ir/text.h"
#include "support/files.h"

namespace inrarch {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

bool installed(const std::string& program) {
  return std::system(("command -v " + program + " > /dev/null 2>&1").c_str()) == 0;
}

fs::path scratch(const std::string& name) {
  fs::path dir = fs::temp_directory_path() / ("inrarch_report_" + name + "_" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir;
}

struct Page {
  std::string dom;      // the DOM after loading (--dump-dom)
  std::string console;  // console messages and uncaught errors Chromium logged
};

// Loads the page twice: once for its DOM and log, once for a screenshot.
Page open_in_chromium(const fs::path& html, const fs::path& screenshot, const fs::path& work) {
  const std::string common = "chromium --headless --disable-gpu --no-sandbox --hide-scrollbars --user-data-dir='" +
                             (work / "profile").string() + "' ";
  const std::string url = "'file://" + fs::absolute(html).string() + "'";
  const int dump = std::system((common + "--enable-logging=stderr --v=0 --dump-dom " + url + " > '" +
                                (work / "dom.html").string() + "' 2> '" + (work / "chromium.log").string() + "'")
                                   .c_str());
  EXPECT_EQ(dump, 0) << read_file(work / "chromium.log");
  fs::create_directories(screenshot.parent_path());
  const int shot = std::system((common + "--window-size=1400,2600 --screenshot='" + screenshot.string() + "' " + url +
                                " > /dev/null 2>&1").c_str());
  EXPECT_EQ(shot, 0);
  Page p{read_file(work / "dom.html"), ""};
  std::istringstream log(read_file(work / "chromium.log"));
  for (std::string line; std::getline(log, line);)
    if (line.find(":CONSOLE") != std::string::npos || line.find("Uncaught") != std::string::npos) p.console += line + "\n";
  return p;
}

using test::count;
using test::section_of;

// The page is self-contained: no script, stylesheet, image or frame from anywhere, and no
// URL but the SVG namespaces.
void expect_self_contained(const std::string& html) {
  for (const char* tag : {"<script", "<link", "<img", "<iframe", "@import", "url("})
    EXPECT_EQ(html.find(tag), std::string::npos) << tag;
  const std::regex url("https?://[^\"' )]*");
  for (auto it = std::sregex_iterator(html.begin(), html.end(), url); it != std::sregex_iterator(); ++it)
    EXPECT_EQ(it->str().rfind("http://www.w3.org/", 0), 0u) << it->str();
}

void expect_sections(const std::string& dom, const std::vector<std::string>& ids) {
  for (const std::string& id : ids) EXPECT_FALSE(section_of(dom, id).empty()) << "no section " << id;
}

// One graph node per non-copy process, plus one per group of copies (the copies that fan
// out one value: fed by the same non-copy process, directly or through other copies).
size_t expected_graph_nodes(const json& data) {
  const json& procs = data["processes"];
  std::vector<int> feeder(procs.size(), -1);
  for (const json& s : data["streams"]) feeder[s["to"].get<int>()] = s["from"].get<int>();
  size_t nodes = 0;
  std::set<int> roots;
  for (size_t p = 0; p < procs.size(); ++p) {
    if (procs[p]["kind"] != "copy") {
      ++nodes;
      continue;
    }
    int root = static_cast<int>(p);
    while (procs[root]["kind"] == "copy") root = feeder[root];
    roots.insert(root);
  }
  return nodes + roots.size();
}

fs::path screenshots() { return fs::path(INRARCH_BINARY).parent_path() / "report-screenshots"; }

#define SKIP_WITHOUT_BROWSER()                                                                          \
  if (!installed("chromium") || !installed("dot"))                                                     \
  GTEST_SKIP() << "needs chromium and Graphviz's dot (scripts/install-deps.sh installs both)"

TEST(ReportBrowser, InspOrder1) {
  SKIP_WITHOUT_BROWSER();
  const fs::path work = scratch("insp1"), out = work / "out";
  auto r = test::run_cli("compile --builtin insp --order 1 --width 16 --batch 8 --no-csim -q -o " + out.string());
  ASSERT_EQ(r.code, 0) << r.output;
  r = test::run_cli("report " + out.string());
  ASSERT_EQ(r.code, 0) << r.output;
  const std::string html = read_file(out / "report.html");
  expect_self_contained(html);
  const Page page = open_in_chromium(out / "report.html", screenshots() / "insp-order1.png", work);
  EXPECT_EQ(page.console, "");
  expect_sections(page.dom, {"summary", "graph", "occupancy", "activity", "depths", "history", "dse"});
  EXPECT_TRUE(section_of(page.dom, "deadlock").empty());
  const json data = json::parse(read_file(out / "activity.json"));
  // The sizing history: a row per phase under the header, both step lines, and the phase
  // that set each depth in the depth table.
  const json report = json::parse(read_file(out / "report.json"));
  const std::string history = section_of(page.dom, "history");
  EXPECT_EQ(count(history, "<tr"), report["fifo"]["history"].size() + 1);
  EXPECT_EQ(count(history, "class=\"hbits\""), 1u);
  EXPECT_EQ(count(history, "class=\"hbram\""), 1u);
  EXPECT_EQ(count(section_of(page.dom, "depths"), "<td class=\"by\">"), data["streams"].size());
  const std::string graph = section_of(page.dom, "graph");
  EXPECT_EQ(count(graph, "class=\"node\""), expected_graph_nodes(data));
  EXPECT_GT(count(graph, "class=\"cluster\""), 1u);  // forward pass and gradients apart
  EXPECT_GT(fs::file_size(screenshots() / "insp-order1.png"), 20'000u);
  fs::remove_all(work);
}

TEST(ReportBrowser, Fig5Deadlock) {
  SKIP_WITHOUT_BROWSER();
  const fs::path work = scratch("fig5");
  ir::Graph g("fig5");  // x feeds mm (as its B operand, buffered whole) and cos; mul joins them
  const ir::NodeId x = g.input("x", {25, 1});  // more than the 22 its depth-2 branch holds
  g.add_output("y", g.binary(ir::Op::Mul, g.mm(g.param("w", {25, 25}), x), g.unary(ir::Op::Cos, x)));
  std::ofstream(work / "fig5.ir") << ir::print_text(g);
  const auto r = test::run_cli("analyze " + (work / "fig5.ir").string() + " --depths all=2 --report " +
                               (work / "fig5.html").string());
  ASSERT_EQ(r.code, 0) << r.output;
  ASSERT_NE(r.output.find("deadlock: a cycle of 4 processes"), std::string::npos) << r.output;
  expect_self_contained(read_file(work / "fig5.html"));
  const Page page = open_in_chromium(work / "fig5.html", screenshots() / "fig5-deadlock.png", work);
  EXPECT_EQ(page.console, "");
  expect_sections(page.dom, {"summary", "graph", "deadlock", "occupancy", "activity", "depths"});
  // in_x, mm, cos, mul, out_y and the copies of x folded into one node.
  EXPECT_EQ(count(section_of(page.dom, "graph"), "class=\"node\""), 6u);
  EXPECT_EQ(count(section_of(page.dom, "deadlock"), "<li>"), 4u + 2u);  // the cycle, the streams to deepen
  EXPECT_NE(section_of(page.dom, "graph").find("stroke=\"#d62728\""), std::string::npos);  // the cycle, in red
  fs::remove_all(work);
}

TEST(ReportCli, RefusesAFolderThatIsNotACompileOutput) {
  const fs::path work = scratch("bad");
  const auto r = test::run_cli("report " + work.string());
  EXPECT_EQ(r.code, 1);
  EXPECT_NE(r.output.find(work.string() + ": not a compile output (no report.json)"), std::string::npos) << r.output;
  EXPECT_FALSE(fs::exists(work / "report.html"));
  std::ofstream(work / "report.json") << "{ truncated";
  EXPECT_EQ(test::run_cli("report " + work.string()).code, 1);
  EXPECT_FALSE(fs::exists(work / "report.html"));
  fs::remove_all(work);
}

}  // namespace
}  // namespace inrarch
