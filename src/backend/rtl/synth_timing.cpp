// The per-class synthesis's timing (timing.h): each class's netlist timed, the classes
// gathered into report.json's timing section and printed as a table (docs/rtl.md,
// "Timing estimate").
#include <fmt/format.h>

#include <algorithm>

#include "backend/rtl/timing.h"
#include "support/error.h"
#include "support/files.h"

namespace inrarch::rtl {

using nlohmann::json;

json netlist_timing(const std::filesystem::path& netlist, const TimingOptions& opt) {
  try {
    if (!std::filesystem::exists(netlist)) throw Error("timing: no netlist " + netlist.string());
    const json j = json::parse(read_file(netlist), nullptr, false);
    if (j.is_discarded()) throw Error("timing: " + netlist.string() + " is not JSON");
    return timing_json(analyze_timing(j, opt));
  } catch (const std::exception& e) {
    return {{"error", e.what()}};
  }
}

namespace {

// One class's row: its worst path's cells and figures.
json class_row(const json& c) {
  json row = {{"class", c["class"]}, {"module", c["module"]}, {"kind", c["kind"]}, {"count", c["count"]}};
  const json& t = c["timing"];
  if (!t.is_object() || t.contains("error") || !t.contains("worst_ns")) {
    row["error"] = t.is_object() ? t.value("error", "no timing") : "no timing";
    row["meets_clock"] = false;
    row["est_ns"] = nullptr;
    return row;
  }
  const std::string kind = t["worst_kind"];
  const json path = t["paths"].contains(kind) ? t["paths"][kind] : json::object();
  row["est_ns"] = t["worst_ns"];
  row["est_fmax_mhz"] = t["est_fmax_mhz"];
  row["meets_clock"] = t["meets_clock"];
  row["worst_kind"] = kind;
  for (const char* k : {"lut_levels", "carry", "muxf", "dsp", "bram", "srl", "lutram"}) row[k] = path.value(k, 0);
  row["lower_bound"] = path.value("lower_bound", false);
  row["uncosted"] = t["uncosted"];
  row["path"] = path;
  return row;
}

double row_ns(const json& r) { return r["est_ns"].is_number() ? r["est_ns"].get<double>() : 1e30; }

}  // namespace

json timing_summary(const json& classes, const TimingOptions& opt) {
  std::vector<json> rows;
  for (const json& c : classes) rows.push_back(class_row(c));
  std::stable_sort(rows.begin(), rows.end(), [](const json& a, const json& b) { return row_ns(a) > row_ns(b); });
  bool meets = true;
  for (const json& r : rows) meets = meets && r["meets_clock"].get<bool>();
  json worst = json::object();
  if (!rows.empty() && rows[0]["est_ns"].is_number())
    worst = {{"class", rows[0]["class"]}, {"module", rows[0]["module"]}, {"est_ns", rows[0]["est_ns"]},
             {"est_fmax_mhz", rows[0]["est_fmax_mhz"]}, {"kind", rows[0]["worst_kind"]}, {"path", rows[0]["path"]}};
  json by_class = json::array();
  for (json& r : rows) {
    r.erase("path");  // the worst class's path is under worst; each class's in its cache
    by_class.push_back(std::move(r));
  }
  return {{"clock_mhz", opt.clock_mhz}, {"route_ns", opt.route_ns}, {"meets_clock", meets}, {"worst", worst},
          {"by_class", by_class}};
}

namespace {

// "inrarch_fifo W=32 DEPTH=2" -> "fifo W=32 DEPTH=2", at most `width` characters.
std::string short_class(const std::string& key, size_t width) {
  std::string s = key.rfind("inrarch_", 0) == 0 ? key.substr(8) : key;
  if (s.size() > width) s = s.substr(0, width - 3) + "...";
  return s;
}

}  // namespace

std::string format_timing_table(const json& timing) {
  std::string out = fmt::format("{:<44} {:>4} {:>6} {:>5} {:>4} {:>8} {:>8}  meets {:g}?\n", "class", "n", "levels",
                                "carry", "dsp", "est ns", "est MHz", timing["clock_mhz"].get<double>());
  bool lower = false;
  for (const json& r : timing["by_class"]) {
    const std::string name = short_class(r["class"], 44);
    if (!r["est_ns"].is_number()) {
      out += fmt::format("{:<44} {:>4}  cannot be costed: {}\n", name, r["count"].get<int64_t>(), r.value("error", ""));
      continue;
    }
    const bool lb = r.value("lower_bound", false);
    lower = lower || lb;
    out += fmt::format("{:<44} {:>4} {:>6} {:>5} {:>4} {:>8.2f} {:>8.0f}  {}{}\n", name, r["count"].get<int64_t>(),
                       r["lut_levels"].get<int>(), r["carry"].get<int>(), r["dsp"].get<int>(), r["est_ns"].get<double>(),
                       r["est_fmax_mhz"].get<double>(), r["meets_clock"].get<bool>() ? "yes" : "no", lb ? " *" : "");
  }
  if (lower) out += "* a lower bound: a block RAM's or an unknown cell's figure is missing on the path\n";
  out += fmt::format("(estimate from the Yosys netlist, {:g} ns routing per net, no placement: docs/rtl.md \"Timing estimate\")\n",
                     timing["route_ns"].get<double>());
  return out;
}

}  // namespace inrarch::rtl
