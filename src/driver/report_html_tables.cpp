// The report's tables: the summary of report.json (model, design, latency against the DSP
// floor, resources, verification), the FIFO depths, and the precision sweep.
#include <algorithm>
#include <cstdlib>
#include <limits>
#include <map>
#include <numeric>
#include <tuple>

#include <fmt/format.h>

#include "dataflow/periodic.h"
#include "driver/report_html_detail.h"

namespace inrarch::driver::html {

namespace {

std::string row(const std::string& key, const std::string& value) {
  return "<tr><th>" + key + "</th><td>" + value + "</td></tr>";
}

std::string model_text(const json& report) {
  const json& src = get(report, "source");
  std::string name = esc(get(get(report, "graph"), "name").is_string() ? report["graph"]["name"].get<std::string>() : "");
  if (src.contains("builtin"))
    return fmt::format("{} (built-in {} order {}, batch {}, width {}, seed {})", name,
                       esc(src["builtin"].get<std::string>()), num(src["order"]), num(src["batch"]), num(src["width"]),
                       num(src["seed"]));
  if (src.contains("bundle")) return fmt::format("{} (bundle <code>{}</code>)", name, esc(src["bundle"].get<std::string>()));
  return name.empty() ? "–" : name;
}

std::string kernels_text(const json& design) {
  std::string out;
  for (const auto& [kind, n] : get(design, "kernels").items()) out += fmt::format("{} {}, ", num(n), esc(kind));
  return out.empty() ? "" : " (" + out.substr(0, out.size() - 2) + ")";
}

std::string latency_text(const json& report) {
  const json& an = get(report, "analysis");
  if (!get(an, "deadlock_free").is_null() && !an["deadlock_free"].get<bool>())
    return "<span class=\"bad\">deadlock</span> (see “Deadlock”)";
  std::string out = fmt::format("{} cycles (peak, FIFOs never full: {})", num(an["latency_cycles"]),
                                num(an["peak_latency_cycles"]));
  const json& fl = get(report, "floor");
  if (fl.is_object())
    out += fmt::format("; <b>{:.2f}×</b> the DSP floor of {} cycles", fl["latency_over_floor"].get<double>(),
                       num(fl["cycles"]));
  if (get(an, "exact").is_boolean() && !an["exact"].get<bool>() && get(an, "fill_cycles").is_number_integer() &&
      get(an, "period_cycles").is_number_integer())
    out += fmt::format("<br>analysed {} of {} rows: latency = {}", num(an["rows_analysed"]), num(an["rows"]),
                       esc(dataflow::closed_form(an["fill_cycles"].get<int64_t>(), an["rows"].get<int64_t>(),
                                                 an["period_cycles"].get<int64_t>(),
                                                 an.value("period_rows", int64_t{1}))));
  else if (get(an, "why_exact").is_string() && !an["why_exact"].get<std::string>().empty())
    out += "<br>every beat resolved: " + esc(an["why_exact"].get<std::string>());
  return out;
}

std::string bar(double fraction, double budget) {
  return fmt::format("<span class=\"bar\"><span class=\"fill{}\" style=\"width:{:.1f}%\"></span>"
                     "<span class=\"budget\" style=\"left:{:.1f}%\"></span></span>",
                     fraction > budget ? " over" : "", std::min(100.0, 100 * fraction), std::min(100.0, 100 * budget));
}

std::string resources_table(const json& res) {
  if (!res.is_object()) return "";
  const json& part = res["part"];
  std::string t = fmt::format("<p>{} ({}, {} MHz): {}</p><table class=\"res\"><tr><th>resource</th><th>used</th><th>of"
                              "</th><th>utilisation</th><th></th><th>budget</th></tr>",
                              esc(part["name"].get<std::string>()), esc(part["device"].get<std::string>()),
                              num(part["clock_mhz"]),
                              res["fits"].get<bool>() ? "within the budget"
                                                      : "<span class=\"bad\">over the budget (" + esc(res["over"].dump()) + ")</span>");
  const std::pair<const char*, const char*> keys[] = {
      {"dsp", "dsp"}, {"bram18k", "bram"}, {"uram", "uram"}, {"lut", "lut"}, {"ff", "ff"}};
  for (const auto& [key, budget_key] : keys) {
    const double u = res["utilisation"][key].get<double>(), b = get(res["budget"], budget_key).is_number() ? res["budget"][budget_key].get<double>() : 1.0;
    t += fmt::format("<tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>", key,
                     num(res["total"][key]), num(part[key]), percent(u), bar(u, b), percent(b));
  }
  return t + "</table>";
}

std::string sim_text(const json& v) {
  if (!v.is_object()) return "–";
  if (v.contains("skipped")) return "skipped: " + esc(v["skipped"].get<std::string>());
  std::string out = v.value("pass", false) ? "<span class=\"good\">PASS</span>" : "<span class=\"bad\">FAIL</span>";
  if (v.value("deadlock", false)) out += " (deadlock)";
  if (v.value("out_of_time", false)) out += " (out of time)";
  if (v.contains("max_abs_error")) out += fmt::format(", max abs error {}, max rel error {}", num(v["max_abs_error"]), num(v["max_rel_error"]));
  if (v.contains("processes_checked")) out += fmt::format(", {} processes checked", num(v["processes_checked"]));
  for (const char* key : {"error", "mismatch"})
    if (v.contains(key)) out += "<br><code class=\"err\">" + esc(v[key].is_string() ? v[key].get<std::string>() : v[key].dump()) + "</code>";
  return out;
}

std::string verification_rows(const json& report) {
  const json& v = get(report, "verification");
  if (!v.is_object()) return row("verification", "not run (<code>--no-csim</code>, or no HLS code)");
  std::string out = row("C simulation (" + esc(get(v["csim"], "type").is_string() ? v["csim"]["type"].get<std::string>() : "") + ")",
                        sim_text(v["csim"]));
  for (const char* mode : {"threaded", "trace", "project"}) out += row(std::string("&nbsp;&nbsp;") + mode, sim_text(get(v, mode)));
  const json& worst = get(get(v, "csim"), "worst_columns");
  if (worst.is_array() && !worst.empty())
    out += row("worst column", fmt::format("{}[…, {}]: rel error {}, abs error {}", esc(worst[0]["output"].get<std::string>()),
                                           num(worst[0]["column"]), num(worst[0]["rel_error"]), num(worst[0]["max_abs_error"])));
  return out;
}

}  // namespace

std::string summary_section(const json& report) {
  const json& g = get(report, "graph");
  const json& d = get(report, "design");
  const json& f = get(report, "fifo");
  std::string t = "<table class=\"kv\">";
  if (report.contains("source") || g.is_object()) t += row("model", model_text(report));
  if (g.is_object())
    t += row("outputs", num(get(g, "outputs"))) +
         row("op nodes", fmt::format("{} imported → {} optimized", num(get(g, "op_nodes_imported")),
                                     num(get(g, "op_nodes_optimized"))));
  // get(), not operator[]: a report from an older or partial run may lack a key, and a
  // const operator[] of a missing key is undefined (an assertion in a debug build).
  if (d.is_object())
    t += row("design", fmt::format("{} processes{}, {} streams", num(get(d, "processes")), kernels_text(d),
                                   num(get(d, "streams"))));
  if (report.contains("analysis")) t += row("latency", latency_text(report));
  if (f.is_object() && f.contains("total_bits"))
    t += row("FIFOs", fmt::format("sized by <code>{}</code>: {} entries, {} bits, {} BRAM18K", esc(f["method"].get<std::string>()),
                                  num(f["total_depth"]), num(f["total_bits"]), num(f["bram18k"])));
  if (get(report, "hls").is_object()) t += row("number type", esc(report["hls"]["type"].get<std::string>()));
  if (report.contains("tool")) t += verification_rows(report);
  if (get(get(report, "timings_ms"), "total").is_number())
    t += row("compile time", fmt::format("{:.2f} s", report["timings_ms"]["total"].get<double>() / 1000));
  t += "</table>" + resources_table(get(report, "resources"));
  return section("summary", "Summary", t);
}

std::string depth_table_section(const json& report, const json& data) {
  const json& streams = data.at("streams");
  const json& procs = data.at("processes");
  const bool paper = !streams.empty() && streams[0].contains("paper");
  const bool set_by = std::any_of(streams.begin(), streams.end(), [](const json& s) { return s.contains("set_by"); });
  std::vector<size_t> order(streams.size());
  std::iota(order.begin(), order.end(), 0);
  auto depth_of = [&](size_t s) { return streams[s]["depth"].is_null() ? INT64_MAX : streams[s]["depth"].get<int64_t>(); };
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) { return depth_of(a) > depth_of(b); });
  std::string t = fmt::format("<table class=\"depths\"><tr><th>stream</th><th>from → to</th><th>depth</th><th>unbounded "
                              "run</th>{}<th>bits/beat</th>{}</tr>", paper ? "<th>paper</th>" : "",
                              set_by ? "<th>set by</th>" : "");
  for (size_t s : order) {
    const json& st = streams[s];
    t += fmt::format("<tr{}><td><code>{}</code></td><td>{} → {}</td><td>{}</td><td>{}</td>{}<td>{}</td>{}</tr>",
                     depth_of(s) > 2 ? " class=\"deep\"" : "", esc(st["name"].get<std::string>()),
                     esc(procs[st["from"].get<int>()]["name"].get<std::string>()),
                     esc(procs[st["to"].get<int>()]["name"].get<std::string>()),
                     st["depth"].is_null() ? "unbounded" : num(st["depth"]), num(st["unbounded"]),
                     paper ? "<td>" + num(st["paper"]) + "</td>" : "", num(st["bits"]),
                     set_by ? "<td class=\"by\">" + num(get(st, "set_by")) + "</td>" : "");
  }
  const std::string method = get(get(report, "fifo"), "method").is_string() ? report["fifo"]["method"].get<std::string>() : "";
  const std::string body = fmt::format(
      "<p>Every stream, deepest first{}: the depth chosen{}, the most beats it holds when no FIFO is ever full "
      "(the unbounded run's observed depth){}{}. Depths are in beats; depth ≤ 2 is a register pair, deeper a "
      "RAM.</p>", method.empty() ? "" : " (sized by <code>" + esc(method) + "</code>)",
      data["prefix"].get<bool>() ? ", observed on the rows analysed" : "",
      paper ? ", the depth the paper's greedy gives at the same latency bound" : "",
      set_by ? ", and the phase of the sizing that set the depth last (“Sizing history”)" : "");
  return section("depths", "FIFO depths", body + "<div class=\"scroll tall\">" + t + "</table></div>");
}

namespace {

// The --max-error sweep: each format tried, the chosen one marked.
std::string sweep_table(const json& p) {
  std::string t = "<table><tr><th>type</th><th>mm weights (bits)</th><th>DSPs a MAC</th><th>max abs error</th>"
                  "<th>max rel error</th><th>within the bound</th></tr>";
  for (const json& tr : get(p, "tried")) {
    const bool chosen = tr["type"] == p["chosen"] && tr.value("weight_bits", 0) == p.value("weight_bits", 0);
    t += fmt::format("<tr{}><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>",
                     chosen ? " class=\"chosen\"" : "", esc(tr["type"].get<std::string>()), tr.value("weight_bits", 0),
                     tr.value("dsp_per_mac", 0), num(tr["max_abs_error"]), num(tr["max_rel_error"]),
                     tr.value("pass", false) ? "yes" : "no");
  }
  return fmt::format("<p>The fixed-point formats C-simulated against the reference, cheapest first "
                     "(DSPs a MAC, then the narrowest), up to the first within {} (max scaled "
                     "error); chosen: <b>{}</b>, mm weights of {} bits.</p>",
                     num(p["max_error"]), esc(p["chosen"].is_string() ? p["chosen"].get<std::string>() : ""),
                     p.value("weight_bits", 0)) +
         t + "</table>";
}

// The formats the streams hold (how many each) and the MAC kernels' products by DSPs.
std::string formats_table(const json& f) {
  if (!f.is_object()) return "";
  std::string t = "<table><tr><th>stream values</th><th>streams</th></tr>";
  std::vector<std::tuple<int, std::string, int64_t>> rows;  // by integer bits, widest range first
  for (const auto& [format, n] : get(f, "by_format").items()) {
    const size_t comma = format.find(',');
    rows.emplace_back(comma == std::string::npos ? 0 : -std::atoi(format.c_str() + comma + 1), format, n.get<int64_t>());
  }
  std::sort(rows.begin(), rows.end());
  for (const auto& [order, format, n] : rows) t += fmt::format("<tr><td>{}</td><td>{}</td></tr>", esc(format), n);
  std::map<std::string, int64_t> products;  // "a x b bits, d DSP" -> kernels
  for (const auto& [kernel, p] : get(f, "products").items())
    ++products[fmt::format("{} × {} bits: {} DSP", p.value("a_bits", 0), p.value("b_bits", 0), p.value("dsp", 0))];
  t += "</table><table><tr><th>MAC product</th><th>kernels</th></tr>";
  for (const auto& [what, n] : products) t += fmt::format("<tr><td>{}</td><td>{}</td></tr>", what, n);
  return fmt::format("<p>Every stream holds its values in {} at its own power-of-two exponent: the formats below "
                     "(report.json <code>precision.formats</code> names each stream's and constant's).</p>",
                     esc(f.value("type", ""))) +
         t + "</table>";
}

// Each output's error in the C simulation of the design as built, the largest scaled first.
std::string outputs_table(const json& csim) {
  const json& outs = get(csim, "outputs");
  if (!outs.is_array() || outs.empty()) return "";
  std::vector<const json*> order;
  for (const json& o : outs) order.push_back(&o);
  auto scaled = [](const json* o) {
    const json& s = get(*o, "max_scaled_error");
    return s.is_number() ? s.get<double>() : std::numeric_limits<double>::infinity();  // NaN: first
  };
  std::stable_sort(order.begin(), order.end(), [&](const json* a, const json* b) { return scaled(a) > scaled(b); });
  std::string t = "<table><tr><th>output</th><th>max abs error</th><th>max rel error</th><th>scaled error</th></tr>";
  for (const json* o : order)
    t += fmt::format("<tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>", esc(o->value("output", "")),
                     num(get(*o, "max_abs_error")), num(get(*o, "max_rel_error")), num(get(*o, "max_scaled_error")));
  return fmt::format("<p>Each output against the reference in the C simulation ({}), largest scaled error "
                     "first: the absolute error, over the output's largest magnitude where that is above 1.</p>",
                     esc(get(csim, "type").is_string() ? csim["type"].get<std::string>() : "")) +
         t + "</table>";
}

}  // namespace

std::string precision_section(const json& report) {
  const json& p = get(report, "precision");
  if (!p.is_object()) return "";
  const std::string body = (p.contains("tried") ? sweep_table(p) : "") + formats_table(get(p, "formats")) +
                           outputs_table(get(get(report, "verification"), "csim"));
  return body.empty() ? "" : section("precision", "Precision", body);
}

}  // namespace inrarch::driver::html
