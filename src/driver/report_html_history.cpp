// The FIFO sizing's history (report.json's fifo.history, dataflow/fifo_sizing.h): a step
// chart of the FIFOs' bits and BRAM18K after each phase, and the phases as a table. With
// the depth table's "set by" column it answers why a FIFO is as deep as it is.
#include <algorithm>
#include <cmath>
#include <map>

#include <fmt/format.h>

#include "driver/report_html_detail.h"

namespace inrarch::driver::html {

namespace {

constexpr double kLeft = 70, kTop = 12, kWidth = 720, kHeight = 190, kRight = 60, kLabels = 110;

// The top of an axis for `key`: its largest value rounded up to a whole tick step, so the
// highest tick labels the top of the plot.
double axis_top(const json& hist, const char* key) {
  double top = 1;
  for (const json& st : hist) top = std::max(top, st[key].get<double>());
  const std::vector<double> t = ticks(top, 4);
  const double step = t.size() > 1 ? t[1] - t[0] : top;
  return std::ceil(top / step - 1e-9) * step;
}

// The values of `key`, one step per phase, as a path over the plot.
std::string step_line(const json& hist, const char* key, double top, const char* cls, const char* name) {
  const double dx = kWidth / double(hist.size());
  std::string d;
  for (size_t i = 0; i < hist.size(); ++i) {
    const double y = kTop + kHeight - kHeight * hist[i][key].get<double>() / top;
    d += i == 0 ? fmt::format("M{:.1f},{:.1f}", kLeft, y) : fmt::format("V{:.1f}", y);
    d += fmt::format("H{:.1f}", kLeft + dx * double(i + 1));
  }
  return fmt::format("<path d=\"{}\" class=\"{}\"><title>{}</title></path>", d, cls, name);
}

// Ticks of one y axis: on the left (with grid lines) or on the right of the plot.
std::string y_axis(double top, bool right, const char* name) {
  std::string out;
  const double x = right ? kLeft + kWidth + 4 : kLeft - 4;
  for (double t : ticks(top, 4)) {
    const double y = kTop + kHeight - kHeight * t / top;
    if (!right)
      out += fmt::format("<line x1=\"{}\" y1=\"{:.1f}\" x2=\"{}\" y2=\"{:.1f}\" class=\"grid\"/>", kLeft, y, kLeft + kWidth, y);
    out += fmt::format("<text x=\"{}\" y=\"{:.1f}\" class=\"tick\" text-anchor=\"{}\">{}</text>", x, y + 3,
                       right ? "start" : "end", tick_text(t));
  }
  const double lx = right ? kLeft + kWidth + kRight - 8 : 14, ly = kTop + kHeight / 2;
  return out + fmt::format("<text x=\"{0}\" y=\"{1}\" class=\"tick\" text-anchor=\"middle\" transform=\"rotate(-90 {0} "
                           "{1})\">{2}</text>", lx, ly, name);
}

std::string history_chart(const json& hist) {
  const double bits = axis_top(hist, "bits"), bram = axis_top(hist, "bram18k"), dx = kWidth / double(hist.size());
  std::string svg = fmt::format("<svg class=\"chart\" width=\"{0}\" height=\"{1}\" viewBox=\"0 0 {0} {1}\">",
                                kLeft + kWidth + kRight, kTop + kHeight + kLabels);
  svg += y_axis(bits, false, "FIFO bits") + y_axis(bram, true, "BRAM18K");
  svg += fmt::format("<line x1=\"{0}\" y1=\"{1}\" x2=\"{2}\" y2=\"{1}\" class=\"axis\"/>", kLeft, kTop + kHeight,
                     kLeft + kWidth);
  for (size_t i = 0; i < hist.size(); ++i) {
    const double x = kLeft + dx * (double(i) + 0.5), y = kTop + kHeight + 10;
    svg += fmt::format("<text x=\"{0:.1f}\" y=\"{1}\" class=\"tick\" text-anchor=\"end\" transform=\"rotate(-40 {0:.1f} "
                       "{1})\">{2} {3}</text>", x, y, i + 1, esc(hist[i]["phase"].get<std::string>()));
  }
  svg += step_line(hist, "bram18k", bram, "hbram", "BRAM18K") + step_line(hist, "bits", bits, "hbits", "FIFO bits");
  return svg + "</svg>";
}

// Per phase: the FIFOs deeper than 2 whose depth it set last (fifo.set_by; a name that
// recurs, such as the row check of a second attempt, counts for its last step).
std::vector<int64_t> deep_set_by(const json& fifo, const json& hist) {
  std::map<std::string, size_t> step_of;
  for (size_t i = 0; i < hist.size(); ++i) step_of[hist[i]["phase"].get<std::string>()] = i;
  std::vector<int64_t> out(hist.size(), 0);
  const json& depths = get(fifo, "depths");
  for (const auto& [stream, phase] : get(fifo, "set_by").items()) {
    auto it = step_of.find(phase.get<std::string>());
    if (it != step_of.end() && get(depths, stream.c_str()).is_number() && depths[stream].get<int64_t>() > 2) ++out[it->second];
  }
  return out;
}

std::string history_table(const json& fifo, const json& hist) {
  const std::vector<int64_t> deep = deep_set_by(fifo, hist);
  std::string t = "<table class=\"history\"><tr><th>#</th><th>phase</th><th>bits</th><th>BRAM18K</th><th>FIFOs &gt; 2</th>"
                  "<th>latency</th><th>rows</th><th>resolves</th><th>seconds</th><th>deep FIFOs it set</th><th>why</th></tr>";
  for (size_t i = 0; i < hist.size(); ++i) {
    const json& st = hist[i];
    t += fmt::format("<tr{}><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td>"
                     "<td>{:.3f}</td><td>{}</td><td>{}</td></tr>", i + 1 == hist.size() ? " class=\"chosen\"" : "", i + 1,
                     esc(st["phase"].get<std::string>()), num(st["bits"]), num(st["bram18k"]), num(st["deep_fifos"]),
                     num(get(st, "latency_cycles")), num(get(st, "rows")), num(st["resolves"]),
                     st["seconds"].get<double>(), deep[i] > 0 ? int_text(deep[i]) : "", esc(st["why"].get<std::string>()));
  }
  return t + "</table>";
}

}  // namespace

std::string history_section(const json& report) {
  const json& fifo = get(report, "fifo");
  if (!fifo.is_object()) return "";  // depths given, not sized
  const json& hist = get(fifo, "history");
  if (!hist.is_array() || hist.empty())
    return section("history", "FIFO sizing history",
                   "<p class=\"missing\">This output's report.json has no <code>fifo.history</code> (it was written "
                   "before the sizing recorded its phases): compile again for the history.</p>");
  const std::string body = fmt::format(
      "<p>The phases of the <code>{}</code> sizing in order (docs/dataflow.md §6): the FIFOs' bits "
      "(<span class=\"key hkb\"></span>solid) and BRAM18K (<span class=\"key hkr\"></span>dashed, right axis) "
      "after each. Latency where a resolve of exactly those depths gave it (– where a certificate or a shrink "
      "left depths whose latency is only known to be within the bound), on the rows shown; resolves and "
      "seconds so far. “Deep FIFOs it set”: how many of the FIFOs deeper than 2 got their depth last from "
      "that phase (the depth table's “set by”).</p>",
      esc(get(fifo, "method").is_string() ? fifo["method"].get<std::string>() : "?"));
  return section("history", "FIFO sizing history",
                 body + "<div class=\"scroll\">" + history_chart(hist) + "</div><div class=\"scroll\">" +
                     history_table(fifo, hist) + "</div>");
}

}  // namespace inrarch::driver::html
