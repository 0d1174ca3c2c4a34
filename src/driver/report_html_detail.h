// Pieces shared by the files of the HTML report (report_html.h): escaping, number
// formatting, and one function per section. Each section function returns the section's
// whole <section id="..."> element, so the page only concatenates them.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

namespace inrarch::driver::html {

using nlohmann::json;

// Text for HTML element content and attribute values.
std::string esc(std::string_view text);
// 47854 -> "47,854"; doubles with up to `digits` significant digits; null -> "–".
std::string num(const json& v, int digits = 4);
std::string int_text(int64_t v);
std::string percent(double fraction);
// j[key] when j is an object holding it, else a static null: lets sections read optional
// keys without checks at every level.
const json& get(const json& j, const char* key);
// "Nice" tick values (1, 2, 5 × 10^k) covering [0, top], and their labels ("40k", "1.5M").
std::vector<double> ticks(double top, int want = 5);
std::string tick_text(double v);

// <section id="id"><h2>title</h2>body</section>
std::string section(const std::string& id, const std::string& title, const std::string& body);

// The processes as the graph and the charts show them: every copy process is folded into
// one node per value fanned out (the copies fed, directly or through other copies, by the
// same non-copy process).
struct DesignView {
  struct Node {
    std::string id;      // "p<process>" or "g<root process>" (a group of copies)
    std::string label;   // the process name, or "copy ×k" for a chain of k > 1 copies
    std::string kind;    // kind_name, "copy" for a group
    std::vector<int> processes;  // members
    int cluster = -1;    // index into clusters, -1: none
  };
  std::vector<Node> nodes;
  std::vector<int> node_of_process;
  std::vector<std::string> clusters;  // labels ("feeds out3, out4")
  int copy_groups = 0;
};
DesignView design_view(const json& data);

// Sections (the data file's keys: driver/report_data.h; report.json's: docs/report.md).
std::string summary_section(const json& report);
std::string graph_section(const json& data, const DesignView& view);
std::string deadlock_section(const json& data);
std::string occupancy_section(const json& data);
std::string activity_section(const json& data);
std::string depth_table_section(const json& report, const json& data);
std::string history_section(const json& report);
std::string dse_section(const json& report);
std::string precision_section(const json& report);

}  // namespace inrarch::driver::html
