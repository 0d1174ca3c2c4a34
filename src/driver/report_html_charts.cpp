// The report's charts, inline SVG with no script: the kernels' activity (a Gantt chart of
// busy and stalled cycles per bin), the occupancy of the deepest FIFOs, and the
// architecture search's latency-vs-DSP front. Every chart's size is bounded by the data
// file's bins and stream count, not by the run's length.
#include <algorithm>
#include <cmath>
#include <numeric>

#include <fmt/format.h>

#include "driver/report_html_detail.h"

namespace inrarch::driver::html {

namespace {

constexpr double kPlotWidth = 900, kLabelWidth = 170;

}  // namespace

std::vector<double> ticks(double top, int want) {
  if (top <= 0) return {0};
  const double raw = top / want, mag = std::pow(10, std::floor(std::log10(raw)));
  const double step = raw / mag < 1.5 ? mag : raw / mag < 3.5 ? 2 * mag : raw / mag < 7.5 ? 5 * mag : 10 * mag;
  std::vector<double> out;
  for (double t = 0; t <= top * 1.0001; t += step) out.push_back(t);
  return out;
}

std::string tick_text(double v) {
  if (v >= 1e6 && std::fmod(v, 1e5) == 0) return fmt::format("{:g}M", v / 1e6);
  if (v >= 1e4 && std::fmod(v, 1e3) == 0) return fmt::format("{:g}k", v / 1e3);
  return fmt::format("{:g}", v);
}

namespace {

// The x axis in cycles under a plot of `width` px at (x0, y).
std::string cycle_axis(double x0, double y, double width, int64_t cycles) {
  std::string out = fmt::format("<line x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\" class=\"axis\"/>", x0, y, x0 + width, y);
  for (double t : ticks(double(cycles))) {
    const double x = x0 + width * t / double(cycles);
    out += fmt::format("<line x1=\"{0:.1f}\" y1=\"{1}\" x2=\"{0:.1f}\" y2=\"{2}\" class=\"axis\"/>"
                       "<text x=\"{0:.1f}\" y=\"{3}\" class=\"tick\" text-anchor=\"middle\">{4}</text>",
                       x, y, y + 4, y + 14, tick_text(t));
  }
  return out;
}

std::string prefix_note(const json& data) {
  if (!get(data, "prefix").get<bool>()) return "";
  return fmt::format("<p class=\"note\">The analysis ran on the first {} of {} rows (the run repeats "
                     "row after row: docs/dataflow.md §7); these are that prefix's cycles.</p>",
                     num(data["rows_shown"]), num(data["rows"]));
}

// One Gantt row: per bin the state that took most of it, its share as the shade; equal
// neighbours merged into one rect.
std::string gantt_row(const json& a, double y, double h, double bin_px) {
  const auto& busy = a["busy_bins"];
  const auto& rd = a["read_bins"];
  const auto& wr = a["write_bins"];
  std::string out;
  std::string open;
  size_t start = 0;
  auto flush = [&](size_t end) {
    if (!open.empty())
      out += fmt::format("<rect x=\"{:.1f}\" y=\"{:.1f}\" width=\"{:.1f}\" height=\"{:.1f}\" class=\"{}\"/>",
                         kLabelWidth + start * bin_px, y, (end - start) * bin_px, h, open);
  };
  for (size_t b = 0; b <= busy.size(); ++b) {
    std::string cls;
    if (b < busy.size()) {
      const int vb = busy[b], vr = rd[b], vw = wr[b], top = std::max({vb, vr, vw});
      if (top > 0)
        cls = fmt::format("{}{}", top == vb ? 'b' : top == vr ? 'r' : 'w', std::clamp((top + 24) / 25, 1, 4));
    }
    if (cls == open) continue;
    flush(b);
    open = cls;
    start = b;
  }
  return out;
}

// Rows in the order the processes start working (a waterfall), design order among equals.
std::vector<int> gantt_order(const json& act) {
  const json& procs = act["processes"];
  std::vector<size_t> first(procs.size());
  for (size_t p = 0; p < procs.size(); ++p) {
    const json& busy = procs[p]["busy_bins"];
    first[p] = busy.size();
    for (size_t b = 0; b < busy.size() && first[p] == busy.size(); ++b)
      if (busy[b].get<int>() > 0) first[p] = b;
  }
  std::vector<int> order(procs.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](int a, int b) { return first[a] < first[b]; });
  return order;
}

std::string row_title(const json& p, const json& a, int64_t end) {
  auto share = [end](const json& v) { return percent(double(v.get<int64_t>()) / double(std::max<int64_t>(end, 1))); };
  return fmt::format("<title>{}: busy {} cycles ({}), stalled on read {} ({}), on write {} ({})</title>",
                     esc(p["name"].get<std::string>()), num(a["busy"]), share(a["busy"]), num(a["stall_read"]),
                     share(a["stall_read"]), num(a["stall_write"]), share(a["stall_write"]));
}

}  // namespace

std::string activity_section(const json& data) {
  const json& act = data.at("activity");
  const json& procs = data.at("processes");
  const int64_t end = act["end"], bins = act["bins"];
  const double h = procs.size() <= 80 ? 12 : 8, bin_px = kPlotWidth / double(bins);
  const double height = h * double(procs.size()) + 24;
  std::string svg = fmt::format("<svg class=\"chart\" width=\"{0}\" height=\"{1}\" viewBox=\"0 0 {0} {1}\">",
                                kLabelWidth + kPlotWidth + 10, height);
  double y = 0;
  for (int p : gantt_order(act)) {
    const json& a = act["processes"][p];
    svg += "<g>" + row_title(procs[p], a, end);
    svg += fmt::format("<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" class=\"lane\"/>", kLabelWidth, y, kPlotWidth, h - 1);
    svg += fmt::format("<text x=\"{}\" y=\"{}\" class=\"label\" font-size=\"{}\" text-anchor=\"end\">{}</text>",
                       kLabelWidth - 4, y + h - 2, h - 1.5, esc(procs[p]["name"].get<std::string>()));
    svg += gantt_row(a, y, h - 1, bin_px) + "</g>";
    y += h;
  }
  svg += cycle_axis(kLabelWidth, y + 2, kPlotWidth, end) + "</svg>";
  const std::string body = fmt::format(
      "<p>Each row is a process over the run's {} cycles, in {} bins of {} cycles. A bin is coloured by what "
      "took most of it: <span class=\"key b4\"></span>busy (the cycles of a step's work), <span class=\"key "
      "r4\"></span>stalled on a read (its input FIFO empty), <span class=\"key w4\"></span>stalled on a write "
      "(its output FIFO full); the shade is that share (¼ steps). Blank: idle before its first step or done. "
      "Rows in the order the processes start. From the event graph resolved at the chosen depths; hover a "
      "row for its totals.</p>",
      num(json(end)), bins, num(act["bin_cycles"]));
  return section("activity", "Kernel activity", body + prefix_note(data) + "<div class=\"scroll\">" + svg + "</div>");
}

namespace {

std::string occupancy_chart(const json& stream, const json& series, int64_t bin_cycles, int64_t end) {
  const double w = 420, h = 110, left = 40, top = 18;
  const auto& max = series["max"];
  int64_t peak = 0;
  for (const json& m : max) peak = std::max<int64_t>(peak, m.get<int64_t>());
  const bool bounded = !stream["depth"].is_null();
  const double scale = double(std::max<int64_t>({peak, bounded ? stream["depth"].get<int64_t>() : 0, 1}));
  auto y_of = [&](double v) { return top + h - h * v / scale; };
  std::string path = fmt::format("M{:.1f},{:.1f}", left, y_of(0));
  for (size_t b = 0; b < max.size(); ++b)
    path += fmt::format("V{:.1f}H{:.1f}", y_of(max[b].get<double>()),
                        left + w * std::min<double>(double((b + 1) * bin_cycles), double(end)) / double(end));
  std::string svg = fmt::format("<svg class=\"chart\" width=\"{}\" height=\"{}\"><text x=\"{}\" y=\"12\" class=\"title\">{}"
                                "</text>", left + w + 10, top + h + 20, left, esc(stream["name"].get<std::string>()));
  for (double t : ticks(scale, 3))
    svg += fmt::format("<line x1=\"{0}\" y1=\"{1:.1f}\" x2=\"{2}\" y2=\"{1:.1f}\" class=\"grid\"/><text x=\"{3}\" y=\"{4:.1f}\" "
                       "class=\"tick\" text-anchor=\"end\">{5}</text>", left, y_of(t), left + w, left - 3, y_of(t) + 3, tick_text(t));
  if (bounded)
    svg += fmt::format("<line x1=\"{0}\" y1=\"{1:.1f}\" x2=\"{2}\" y2=\"{1:.1f}\" class=\"depth\"><title>depth {3}</title></line>",
                       left, y_of(stream["depth"].get<double>()), left + w, num(stream["depth"]));
  svg += fmt::format("<path d=\"{}\" class=\"occ\"/>", path);
  svg += cycle_axis(left, top + h, w, end) + "</svg>";
  return fmt::format("<figure>{}<figcaption>depth {}, unbounded run needs {}, fullest {}</figcaption></figure>", svg,
                     bounded ? num(stream["depth"]) : "unbounded", num(stream["unbounded"]), peak);
}

}  // namespace

std::string occupancy_section(const json& data) {
  const json& act = data.at("activity");
  std::string charts;
  for (const json& series : data.at("occupancy"))
    charts += occupancy_chart(data["streams"][series["stream"].get<int>()], series, act["bin_cycles"], act["end"]);
  const std::string body = fmt::format(
      "<p>Beats in the FIFO over time (the most in each bin of {} cycles) for the {} deepest streams{}; the "
      "dashed line is the chosen depth. From the resolved write and read time of every beat.</p>",
      num(act["bin_cycles"]), data["occupancy"].size(),
      get(get(data, "deadlock"), "deadlock").get<bool>() ? " (those on the deadlock cycle first)" : "");
  return section("occupancy", "FIFO occupancy", body + prefix_note(data) + "<div class=\"grid2\">" + charts + "</div>");
}

std::string dse_section(const json& report) {
  const json& front = get(get(report, "dse"), "front");
  if (!front.is_array() || front.empty()) return "";
  const double w = 560, h = 280, left = 70, top = 10;
  double max_dsp = 1, lo = 1e300, hi = 1;
  for (const json& p : front) {
    max_dsp = std::max(max_dsp, p["dsp"].get<double>());
    lo = std::min(lo, p["latency_cycles"].get<double>());
    hi = std::max(hi, p["latency_cycles"].get<double>());
  }
  const json& part = get(get(report, "resources"), "part");
  const double budget = part.is_object() ? part["dsp"].get<double>() * get(get(get(report, "resources"), "budget"), "dsp").get<double>() : 0;
  max_dsp = std::max(max_dsp, budget) * 1.05;
  const double llo = std::floor(std::log10(lo)), lhi = std::max(std::ceil(std::log10(hi)), llo + 1);
  auto x_of = [&](double d) { return left + w * d / max_dsp; };
  auto y_of = [&](double l) { return top + h - h * (std::log10(l) - llo) / (lhi - llo); };
  std::string svg = fmt::format("<svg class=\"chart\" width=\"{}\" height=\"{}\">", left + w + 20, top + h + 40);
  for (double e = llo; e <= lhi; ++e)
    svg += fmt::format("<line x1=\"{0}\" y1=\"{1:.1f}\" x2=\"{2}\" y2=\"{1:.1f}\" class=\"grid\"/><text x=\"{3}\" y=\"{4:.1f}\" "
                       "class=\"tick\" text-anchor=\"end\">{5}</text>", left, y_of(std::pow(10, e)), left + w, left - 4,
                       y_of(std::pow(10, e)) + 3, tick_text(std::pow(10, e)));
  for (double t : ticks(max_dsp))
    svg += fmt::format("<text x=\"{:.1f}\" y=\"{}\" class=\"tick\" text-anchor=\"middle\">{}</text>", x_of(t), top + h + 14, tick_text(t));
  svg += fmt::format("<line x1=\"{0}\" y1=\"{1}\" x2=\"{2}\" y2=\"{1}\" class=\"axis\"/><text x=\"{3}\" y=\"{4}\" class=\"tick\" "
                     "text-anchor=\"middle\">DSP</text><text x=\"12\" y=\"{5}\" class=\"tick\" text-anchor=\"middle\" "
                     "transform=\"rotate(-90 12 {5})\">latency (cycles)</text>", left, top + h, left + w, left + w / 2,
                     top + h + 30, top + h / 2);
  if (budget > 0)
    svg += fmt::format("<line x1=\"{0:.1f}\" y1=\"{1}\" x2=\"{0:.1f}\" y2=\"{2}\" class=\"depth\"><title>DSP budget {3:.0f}</title></line>",
                       x_of(budget), top, top + h, budget);
  for (size_t i = front.size(); i-- > 0;) {
    const json& p = front[i];
    svg += fmt::format("<circle cx=\"{:.1f}\" cy=\"{:.1f}\" r=\"{}\" class=\"{}\"><title>{} cycles, {} DSP, {} BRAM18K{}</title></circle>",
                       x_of(p["dsp"].get<double>()), y_of(p["latency_cycles"].get<double>()), i == 0 ? 6 : 4,
                       i == 0 ? "chosen" : p.value("fits", true) ? "pt" : "over", num(p["latency_cycles"]), num(p["dsp"]),
                       num(p["bram18k"]), i == 0 ? " (chosen)" : "");
  }
  svg += "</svg>";
  const std::string body = fmt::format(
      "<p>The architecture search's front: latency (cycles, log scale, on the {} rows it evaluates) against "
      "DSPs, one point per balanced design; the chosen one in red, hollow points over the budget, the dashed "
      "line the DSP budget.</p>", num(get(get(report, "dse"), "rows")));
  return section("dse", "Design space: latency vs DSP", body + svg);
}

}  // namespace inrarch::driver::html
