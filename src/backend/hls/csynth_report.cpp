// Reading Vitis HLS's synthesis report (solution/syn/report/csynth.xml). The file is plain
// XML (elements and text; attributes unused here), so a small reader builds an element
// tree and the report is picked out by element paths:
//   UserAssignments/{TopModelName, Part, TargetClockPeriod}, ReportVersion/Version,
//   PerformanceEstimates/SummaryOfTimingAnalysis/EstimatedClockPeriod,
//   PerformanceEstimates/SummaryOfOverallLatency/{Best-caseLatency, Worst-caseLatency,
//   Interval-min}, AreaEstimates/{Resources, AvailableResources}/{BRAM_18K, DSP, FF, LUT,
//   URAM}, and per sub-module the same under ModuleInformation/Module (Name).
#include <fmt/format.h>

#include <fstream>
#include <algorithm>
#include <cctype>
#include <cstring>
#include <memory>
#include <sstream>

#include "backend/hls/hls.h"
#include "support/error.h"
#include "support/limits.h"

namespace inrarch::hls {

namespace {

struct Elem {
  std::string name, text;
  std::vector<std::unique_ptr<Elem>> kids;
  const Elem* child(const std::string& n) const {
    for (const auto& k : kids)
      if (k->name == n) return k.get();
    return nullptr;
  }
  const Elem* path(const std::string& p) const {  // "A/B/C"
    const Elem* e = this;
    std::istringstream ss(p);
    for (std::string part; e && std::getline(ss, part, '/');) e = e->child(part);
    return e;
  }
};

class XmlReader {
 public:
  XmlReader(std::string text, std::string file) : s_(std::move(text)), file_(std::move(file)) {}

  std::unique_ptr<Elem> document() {
    skip_misc();
    auto root = element();
    skip_misc();
    return root;
  }

 private:
  [[noreturn]] void fail(const std::string& what) const {
    size_t line = 1 + std::count(s_.begin(), s_.begin() + std::min(i_, s_.size()), '\n');
    throw Error(fmt::format("{}:{}: bad XML: {}", file_, line, what));
  }
  bool at(const char* p) const { return s_.compare(i_, std::strlen(p), p) == 0; }
  void skip_to(const char* end) {
    size_t j = s_.find(end, i_);
    if (j == std::string::npos) fail(std::string("missing ") + end);
    i_ = j + std::strlen(end);
  }
  // Whitespace, <?...?>, <!-- -->, <!DOCTYPE>.
  void skip_misc() {
    for (;;) {
      while (i_ < s_.size() && std::isspace(static_cast<unsigned char>(s_[i_]))) ++i_;
      if (at("<?")) skip_to("?>");
      else if (at("<!--")) skip_to("-->");
      else if (at("<!")) skip_to(">");
      else return;
    }
  }
  static std::string unescape(const std::string& t) {
    std::string o;
    for (size_t k = 0; k < t.size(); ++k) {
      static const std::pair<const char*, char> ents[] = {
          {"&lt;", '<'}, {"&gt;", '>'}, {"&amp;", '&'}, {"&quot;", '"'}, {"&apos;", '\''}};
      bool done = false;
      for (const auto& [e, c] : ents)
        if (!done && t.compare(k, std::strlen(e), e) == 0) o += c, k += std::strlen(e) - 1, done = true;
      if (!done) o += t[k];
    }
    return o;
  }
  std::unique_ptr<Elem> element() {
    if (!at("<")) fail("expected an element");
    // The reader recurses per level: a deeper tree would overflow the stack.
    if (++depth_ > limits::kMaxNesting)
      throw LimitError(
          fmt::format("{}: XML nested deeper than the limit of {} levels", file_, limits::kMaxNesting));
    ++i_;
    auto e = std::make_unique<Elem>();
    while (i_ < s_.size() && !std::isspace(static_cast<unsigned char>(s_[i_])) && s_[i_] != '>' &&
           s_[i_] != '/')
      e->name += s_[i_++];
    size_t close = s_.find('>', i_);
    if (close == std::string::npos) fail("unterminated tag <" + e->name);
    bool empty = s_[close - 1] == '/';
    i_ = close + 1;
    if (empty) {
      --depth_;
      return e;
    }
    for (;;) {
      size_t lt = s_.find('<', i_);
      if (lt == std::string::npos) fail("unclosed <" + e->name + ">");
      e->text += unescape(s_.substr(i_, lt - i_));
      i_ = lt;
      if (at("</")) {
        skip_to(">");
        --depth_;
        return e;
      }
      if (at("<!--") || at("<?")) skip_misc();
      else e->kids.push_back(element());
    }
  }

  std::string s_, file_;
  size_t i_ = 0;
  int depth_ = 0;
};

std::string trim(const std::string& s) {
  size_t a = s.find_first_not_of(" \t\r\n"), b = s.find_last_not_of(" \t\r\n");
  return a == std::string::npos ? "" : s.substr(a, b - a + 1);
}
std::string text_of(const Elem* e, const std::string& p) {
  const Elem* x = e ? e->path(p) : nullptr;
  return x ? trim(x->text) : "";
}
int64_t int_of(const Elem* e, const std::string& p, int64_t dflt) {
  std::string t = text_of(e, p);
  try {
    return t.empty() ? dflt : std::stoll(t);
  } catch (const std::exception&) {
    return dflt;  // "undef" / "-" in reports with unknown latency
  }
}

// A clock period in ns, 0 when absent or not a number (std::stod's exceptions are not
// inrarch::Error and would escape the tool's error handling).
double ns_of(const Elem* e, const std::string& p) {
  std::string t = text_of(e, p);
  try {
    return t.empty() ? 0 : std::stod(t);
  } catch (const std::exception&) {
    return 0;
  }
}

// Latency/interval under PerformanceEstimates and resources under AreaEstimates of `e`.
CsynthModule module_of(const Elem* e, const std::string& name) {
  CsynthModule m;
  m.name = name;
  const std::string lat = "PerformanceEstimates/SummaryOfOverallLatency/";
  m.latency_best = int_of(e, lat + "Best-caseLatency", -1);
  m.latency_worst = int_of(e, lat + "Worst-caseLatency", -1);
  m.interval = int_of(e, lat + "Interval-min", -1);
  const std::string res = "AreaEstimates/Resources/";
  m.bram18k = int_of(e, res + "BRAM_18K", 0);
  m.dsp = int_of(e, res + "DSP", int_of(e, res + "DSP48E", 0));
  m.ff = int_of(e, res + "FF", 0);
  m.lut = int_of(e, res + "LUT", 0);
  m.uram = int_of(e, res + "URAM", 0);
  return m;
}

}  // namespace

CsynthReport parse_csynth_report(const std::filesystem::path& xml) {
  std::ifstream in(xml);
  if (!in) throw Error("cannot read " + xml.string());
  std::stringstream ss;
  ss << in.rdbuf();
  auto root = XmlReader(ss.str(), xml.string()).document();
  if (root->name != "profile")
    throw Error(xml.string() + ": not a Vitis csynth report (root <" + root->name + ">, expected <profile>)");
  CsynthReport r;
  r.version = text_of(root.get(), "ReportVersion/Version");
  r.top = text_of(root.get(), "UserAssignments/TopModelName");
  r.part = text_of(root.get(), "UserAssignments/Part");
  r.target_clock_ns = ns_of(root.get(), "UserAssignments/TargetClockPeriod");
  r.estimated_clock_ns = ns_of(root.get(), "PerformanceEstimates/SummaryOfTimingAnalysis/EstimatedClockPeriod");
  r.total = module_of(root.get(), r.top);
  const std::string avail = "AreaEstimates/AvailableResources/";
  r.avail_bram18k = int_of(root.get(), avail + "BRAM_18K", 0);
  r.avail_dsp = int_of(root.get(), avail + "DSP", 0);
  r.avail_ff = int_of(root.get(), avail + "FF", 0);
  r.avail_lut = int_of(root.get(), avail + "LUT", 0);
  if (const Elem* mi = root->child("ModuleInformation"))
    for (const auto& k : mi->kids)
      if (k->name == "Module") r.modules.push_back(module_of(k.get(), text_of(k.get(), "Name")));
  if (r.top.empty() || (r.total.latency_worst < 0 && r.total.lut == 0))
    throw Error(xml.string() + ": no top name or estimates found (not a csynth.xml?)");
  return r;
}

std::string format_csynth_report(const CsynthReport& r) {
  std::string s = fmt::format("top {} on {} (Vitis HLS {}), clock {:.2f} ns target, {:.3f} ns estimated\n",
                              r.top, r.part, r.version, r.target_clock_ns, r.estimated_clock_ns);
  size_t w = r.total.name.size();  // the name column fits the longest (mangled) module name
  for (const auto& m : r.modules) w = std::max(w, m.name.size());
  s += fmt::format("{:<{}} {:>10} {:>10} {:>8} {:>8} {:>6} {:>9} {:>9}\n", "module", w, "latency",
                   "worst", "II", "BRAM18K", "DSP", "FF", "LUT");
  auto row = [&](const CsynthModule& m) {
    s += fmt::format("{:<{}} {:>10} {:>10} {:>8} {:>8} {:>6} {:>9} {:>9}\n", m.name, w,
                     m.latency_best, m.latency_worst, m.interval, m.bram18k, m.dsp, m.ff, m.lut);
  };
  row(r.total);
  for (const auto& m : r.modules) row(m);
  if (r.avail_lut > 0)
    s += fmt::format("utilisation: BRAM18K {:.1f}%  DSP {:.1f}%  FF {:.1f}%  LUT {:.1f}%\n",
                     100.0 * r.total.bram18k / std::max<int64_t>(1, r.avail_bram18k),
                     100.0 * r.total.dsp / std::max<int64_t>(1, r.avail_dsp),
                     100.0 * r.total.ff / std::max<int64_t>(1, r.avail_ff),
                     100.0 * r.total.lut / std::max<int64_t>(1, r.avail_lut));
  if (r.target_clock_ns > 0 && r.total.latency_worst >= 0)
    s += fmt::format("latency {:.3f} us at the target clock\n", r.total.latency_worst * r.target_clock_ns / 1000);
  return s;
}

nlohmann::json csynth_json(const CsynthReport& r) {
  auto mod = [](const CsynthModule& m) {
    return nlohmann::json{{"name", m.name}, {"latency_best", m.latency_best},
                          {"latency_worst", m.latency_worst}, {"interval", m.interval},
                          {"bram18k", m.bram18k}, {"dsp", m.dsp}, {"ff", m.ff}, {"lut", m.lut},
                          {"uram", m.uram}};
  };
  nlohmann::json j = {{"top", r.top}, {"part", r.part}, {"version", r.version},
                      {"target_clock_ns", r.target_clock_ns},
                      {"estimated_clock_ns", r.estimated_clock_ns}, {"total", mod(r.total)}};
  j["modules"] = nlohmann::json::array();
  for (const auto& m : r.modules) j["modules"].push_back(mod(m));
  return j;
}

}  // namespace inrarch::hls
