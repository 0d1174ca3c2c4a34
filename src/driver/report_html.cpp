// The HTML report's page: the shared formatting helpers, the style sheet, and the files it
// is read from and written to (report_html.h).
#include "driver/report_html.h"

#include <cmath>

#include <fmt/format.h>

#include "driver/report_data.h"
#include "driver/report_html_detail.h"
#include "support/error.h"
#include "support/files.h"

namespace inrarch::driver {

namespace html {

std::string esc(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (char c : text) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      default: out += c;
    }
  }
  return out;
}

std::string int_text(int64_t v) {
  std::string digits = std::to_string(v < 0 ? -v : v), out;
  for (size_t i = 0; i < digits.size(); ++i) {
    if (i > 0 && (digits.size() - i) % 3 == 0) out += ',';
    out += digits[i];
  }
  return v < 0 ? "-" + out : out;
}

std::string num(const json& v, int digits) {
  if (v.is_number_integer()) return int_text(v.get<int64_t>());
  if (v.is_number()) {
    const double d = v.get<double>();
    if (d == std::floor(d) && std::fabs(d) < 1e15) return int_text(static_cast<int64_t>(d));
    return fmt::format("{:.{}g}", d, digits);
  }
  if (v.is_string()) return esc(v.get<std::string>());
  if (v.is_boolean()) return v.get<bool>() ? "yes" : "no";
  return "–";
}

std::string percent(double fraction) { return fmt::format("{:.1f}%", 100 * fraction); }

const json& get(const json& j, const char* key) {
  static const json null;
  if (!j.is_object()) return null;
  auto it = j.find(key);
  return it == j.end() ? null : *it;
}

std::string section(const std::string& id, const std::string& title, const std::string& body) {
  return "<section id=\"" + id + "\"><h2>" + title + "</h2>" + body + "</section>\n";
}

}  // namespace html

namespace {

namespace fs = std::filesystem;
using nlohmann::json;

constexpr const char* kStyle = R"(
body{font:14px/1.4 system-ui,Helvetica,Arial,sans-serif;margin:0 auto;max-width:1200px;padding:0 16px 40px;color:#222}
h1{font-size:22px;margin:18px 0 4px}h2{font-size:18px;border-bottom:1px solid #ddd;margin-top:28px}
nav a{margin-right:12px}code{font-size:12px}table{border-collapse:collapse;margin:6px 0}
td,th{padding:2px 8px;border-bottom:1px solid #eee;text-align:left;vertical-align:top}
table.kv th{width:150px;color:#555;font-weight:600}table.depths td:nth-child(n+3){text-align:right}table.depths td.by{text-align:left}
tr.deep{background:#fff1e6}tr.chosen{background:#e8f4e8}.good{color:#2a7d2a;font-weight:600}
.bad{color:#c0392b;font-weight:600}.err{color:#c0392b;white-space:pre-wrap}.note,.missing{color:#666;font-style:italic}
.bar{display:inline-block;position:relative;width:160px;height:10px;background:#eee}
.bar .fill{position:absolute;left:0;top:0;bottom:0;background:#6baed6}.bar .fill.over{background:#e6550d}
.bar .budget{position:absolute;top:-2px;bottom:-2px;border-left:2px solid #333}
.scroll{overflow:auto}.tall{max-height:480px}.graph{overflow:auto;max-height:85vh;border:1px solid #eee}
.graph svg{max-width:100%;height:auto}#graph-full:checked+label+.graph svg{max-width:none}
.legend .swatch{display:inline-block;width:12px;height:12px;border:1px solid #999;margin:0 3px -2px 0}
.legend .line{display:inline-block;width:18px;border-top:3px solid;margin:0 3px 3px 6px}
.grid2{display:flex;flex-wrap:wrap;gap:8px}figure{margin:0}figcaption{font-size:12px;color:#555;margin-left:40px}
svg.chart text{font:10px system-ui,Helvetica,Arial,sans-serif}svg.chart .title{font-weight:600}
.axis{stroke:#444}.grid{stroke:#eee}.tick{fill:#444}.lane{fill:#f6f6f6}.sep{stroke:#999;stroke-dasharray:3 2}
.depth{stroke:#d95f02;stroke-dasharray:5 3}.occ{fill:none;stroke:#3182bd;stroke-width:1.5}
.pt{fill:#6baed6}.over{fill:none;stroke:#999}.chosen{fill:#d62728}
.key{display:inline-block;width:12px;height:10px;margin:0 3px -1px 6px}
.b1,.b2,.b3,.b4{fill:#2ca02c;background:#2ca02c}.r1,.r2,.r3,.r4{fill:#ff7f0e;background:#ff7f0e}
.w1,.w2,.w3,.w4{fill:#d62728;background:#d62728}.b1,.r1,.w1{opacity:.3}.b2,.r2,.w2{opacity:.55}.b3,.r3,.w3{opacity:.8}
.hbits{fill:none;stroke:#3182bd;stroke-width:2}.hbram{fill:none;stroke:#d95f02;stroke-width:2;stroke-dasharray:6 3}
.hkb{background:#3182bd}.hkr{background:#d95f02}table.history td:nth-child(n+3):nth-child(-n+10){text-align:right}
)";

std::string nav(const std::string& sections) {
  std::string out = "<nav>";
  const std::pair<const char*, const char*> all[] = {
      {"summary", "Summary"}, {"graph", "Graph"}, {"deadlock", "Deadlock"}, {"occupancy", "FIFO occupancy"},
      {"activity", "Activity"}, {"depths", "FIFO depths"}, {"history", "Sizing history"},
      {"dse", "Design space"}, {"precision", "Precision"}};
  for (const auto& [id, name] : all)
    if (sections.find(fmt::format("<section id=\"{}\"", id)) != std::string::npos)
      out += fmt::format("<a href=\"#{}\">{}</a>", id, name);
  return out + "</nav>";
}

std::string data_sections(const json& report, const json& data) {
  if (data.is_null())
    return html::section("graph", "Dataflow graph",
                         "<p class=\"missing\">This output has no activity.json (compile writes it, with the design "
                         "and its times): compile again for the graph, the charts and the depths.</p>");
  const html::DesignView view = html::design_view(data);
  return html::graph_section(data, view) + html::deadlock_section(data) + html::occupancy_section(data) +
         html::activity_section(data) + html::depth_table_section(report, data);
}

json read_json(const fs::path& file) {
  json j = json::parse(read_file(file), nullptr, false);
  if (j.is_discarded() || !j.is_object()) throw Error(fmt::format("{}: not a JSON object", file.string()));
  return j;
}

}  // namespace

std::string render_report_html(const json& report, const json& data, const std::string& title) {
  std::string body;
  try {
    body = html::summary_section(report) + data_sections(report, data) + html::history_section(report) +
           html::dse_section(report) + html::precision_section(report);
  } catch (const json::exception& e) {  // a key of the wrong type: the files do not match this tool
    throw Error(fmt::format("report: unexpected report.json or activity.json content: {}", e.what()));
  }
  return "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>" + html::esc(title) +
         "</title><style>" + kStyle + "</style></head><body><h1>" + html::esc(title) + "</h1>" + nav(body) + body +
         "</body></html>\n";
}

fs::path write_report_html(const fs::path& out, const fs::path& file) {
  if (!fs::is_regular_file(out / "report.json"))
    throw Error(fmt::format("{}: not a compile output (no report.json)", out.string()));
  const json report = read_json(out / "report.json");
  const json data = fs::exists(out / kActivityFile) ? read_json(out / kActivityFile) : json();
  const json& processes = html::get(html::get(report, "design"), "processes");
  if (!data.is_null() && (!processes.is_number_integer() || !html::get(data, "processes").is_array() ||
                          data["processes"].size() != processes.get<size_t>()))
    throw Error(fmt::format("{}: its design does not match report.json's", (out / kActivityFile).string()));
  const fs::path target = file.empty() ? out / kReportHtmlFile : file;
  fs::path name = fs::absolute(out).lexically_normal();
  if (name.filename().empty()) name = name.parent_path();  // "OUT/"
  write_file_atomic(target, render_report_html(report, data, "INR-Arch report: " + name.filename().string()));
  return target;
}

void write_analysis_report_html(const fs::path& file, const ir::Graph& g, const dataflow::Design& d,
                                const json& sections) {
  const json data = report_data(g, d, report_inputs(d, sections));
  write_file_atomic(file, render_report_html(sections, data, "INR-Arch analysis: " + g.name()));
}

}  // namespace inrarch::driver
