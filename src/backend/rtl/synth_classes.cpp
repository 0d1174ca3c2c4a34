// synthesize_classes: Yosys per kernel instance class. A flattened synth_xilinx of a whole
// top grows past any budget with the design (INSP order 1 at width 8, 104 processes, did
// not finish in 600 s), while a design has few distinct module parametrizations: each is
// synthesized once, on its own, and counted as often as the top instantiates it.
#include <fmt/format.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <map>
#include <mutex>
#include <regex>
#include <sstream>
#include <thread>

#include "backend/rtl/rtl.h"
#include "support/error.h"
#include "support/files.h"
#include "support/process.h"

namespace inrarch::rtl {

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

using Params = std::vector<std::pair<std::string, std::string>>;

struct Instance {
  std::string module, kind, name;
  Params params;
};

// One class: a module with one parametrization (the top's own logic is the class "top").
struct Class {
  std::string module, kind, key, script, hash;
  int64_t count = 0;
  json cells, timing;
  double seconds = 0;
  bool cached = false;
};

// `.A(1), .B("x"), .C({32'd0, 32'd4})` as (name, value) pairs; commas inside braces,
// parentheses or strings do not split.
Params split_params(const std::string& text) {
  Params out;
  int depth = 0;
  bool quoted = false;
  std::string cur;
  auto flush = [&] {
    const size_t dot = cur.find('.'), open = cur.find('('), close = cur.rfind(')');
    if (dot != std::string::npos && open != std::string::npos && close != std::string::npos && close > open)
      out.emplace_back(cur.substr(dot + 1, open - dot - 1), cur.substr(open + 1, close - open - 1));
    cur.clear();
  };
  for (char ch : text) {
    if (ch == '"') quoted = !quoted;
    if (!quoted && (ch == '(' || ch == '{')) ++depth;
    if (!quoted && (ch == ')' || ch == '}')) --depth;
    if (!quoted && depth == 0 && ch == ',') flush();
    else if (ch != '\n') cur += ch;
  }
  flush();
  return out;
}

// The top's instances: a line "  inrarch_<module> #(" up to ") u_<name> (", after the
// comment "  // <process> (<kind>)" that the emitter writes before every kernel.
std::vector<Instance> parse_top(const std::string& top) {
  std::vector<Instance> out;
  std::istringstream in(top);
  std::string line, kind, head;
  for (; std::getline(in, line);) {
    if (line.rfind("  // ", 0) == 0 && line.back() == ')') kind = line.substr(line.rfind('(') + 1, line.size() - line.rfind('(') - 2);
    if (line.rfind("  inrarch_", 0) != 0 && head.empty()) continue;
    head += line + "\n";
    const size_t u = head.find(") u_");
    if (u == std::string::npos) continue;
    Instance inst;
    inst.module = head.substr(2, head.find_first_of(" #", 2) - 2);
    inst.name = head.substr(u + 2, head.find(' ', u + 2) - u - 2);
    const size_t open = head.find("#(");
    if (open == std::string::npos || open > u) throw Error("synth: cannot read the parameters of " + inst.name);
    inst.params = split_params(head.substr(open + 2, u - open - 2));
    inst.kind = inst.module == "inrarch_fifo" ? "fifo" : kind;
    out.push_back(std::move(inst));
    head.clear();
  }
  return out;
}

std::string hex_of(const std::string& s) {
  std::string h;
  for (unsigned char ch : s) h += fmt::format("{:02x}", ch);
  return h;
}

// A parameter value as `hierarchy -chparam` takes it. Yosys 0.23 decodes no negative
// number, quoted string or concatenation there: a negative number becomes a signed 32-bit
// hex literal, a string its bytes as a sized hex literal ($readmemh reads a name from the
// bits), and {N'dV, ...} one binary literal.
std::string yosys_value(const std::string& name, const std::string& v) {
  static const std::regex plain(R"(\d+|\d+'[sS]?[dhb][0-9a-fA-F_]+)"), negative(R"(-\d+)");
  if (std::regex_match(v, plain)) return v;
  if (std::regex_match(v, negative) && std::stoll(v) >= INT32_MIN)
    return fmt::format("32'sh{:08x}", static_cast<uint32_t>(static_cast<int32_t>(std::stoll(v))));
  if (v.size() >= 2 && v.front() == '"' && v.back() == '"') {
    const std::string s = v.substr(1, v.size() - 2);
    return fmt::format("{}'h{}", 8 * s.size(), hex_of(s));
  }
  static const std::regex part(R"((\d+)'d(\d+))");
  if (v.size() >= 2 && v.front() == '{' && v.back() == '}') {
    std::string bits;
    const std::string body = v.substr(1, v.size() - 2);
    for (std::sregex_iterator it(body.begin(), body.end(), part), end; it != end; ++it) {
      const int w = std::stoi((*it)[1]);
      const uint64_t x = std::stoull((*it)[2]);
      for (int b = w - 1; b >= 0; --b) bits += b < 64 && ((x >> b) & 1) ? '1' : '0';
    }
    if (!bits.empty()) return fmt::format("{}'b{}", bits.size(), bits);
  }
  throw Error(fmt::format("synth: cannot pass parameter {} = {} to Yosys", name, v));
}

uint64_t fnv1a(const std::string& s, uint64_t h = 1469598103934665603ull) {
  for (unsigned char ch : s) h = (h ^ ch) * 1099511628211ull;
  return h;
}

// The Makefile's TOP and SV (the emitter writes both).
std::pair<std::string, std::vector<std::string>> read_makefile(const fs::path& dir) {
  std::istringstream in(read_file(dir / "Makefile"));
  std::string top;
  std::vector<std::string> sv;
  for (std::string line; std::getline(in, line);) {
    if (line.rfind("TOP := ", 0) == 0) top = line.substr(7);
    if (line.rfind("SV :=", 0) != 0) continue;
    std::istringstream files(line.substr(5));
    for (std::string f; files >> f;) sv.push_back(f);
  }
  if (top.empty() || sv.empty()) throw Error("synth: " + (dir / "Makefile").string() + " names no TOP or SV");
  return {top, sv};
}

std::string join(const std::vector<std::string>& v) {
  std::string s;
  for (const auto& x : v) s += (s.empty() ? "" : " ") + x;
  return s;
}

// The class of an instance: its module and parameters, a ROM file by its depth (lines)
// unless `exact`, when by its contents.
std::string class_key(const fs::path& dir, const Instance& inst, bool exact) {
  std::string key = inst.module;
  for (const auto& [n, v] : inst.params) {
    std::string val = v;
    if (n.size() > 5 && n.substr(n.size() - 5) == "_FILE" && v.size() > 2) {
      const std::string rom = read_file(dir / v.substr(1, v.size() - 2));
      val = exact ? fmt::format("#{:x}", fnv1a(rom)) : fmt::format("#{}", std::count(rom.begin(), rom.end(), '\n'));
    }
    key += " " + n + "=" + val;
  }
  return key;
}

// A class's Yosys script, and its cache hash: the script, every module's text and the
// representative's ROM files.
void make_script(const fs::path& dir, const Instance& inst, const std::vector<std::string>& kernels,
                 const std::string& sources, Class& c) {
  std::string chparam, roms;
  for (const auto& [n, v] : inst.params) {
    chparam += fmt::format(" -chparam {} {}", n, yosys_value(n, v));
    if (n.size() > 5 && n.substr(n.size() - 5) == "_FILE" && v.size() > 2) roms += read_file(dir / v.substr(1, v.size() - 2));
  }
  c.script = fmt::format("read_verilog -defer -sv {}\nhierarchy -top {}{}\nsynth_xilinx -family xcup -noiopad -top {}\n",
                         join(kernels), inst.module, chparam, inst.module);
  c.hash = fmt::format("{:016x}", fnv1a(roms, fnv1a(sources, fnv1a(c.script))));
}

// The top's own logic (flag registers, glue) with every kernel a black box.
void glue_script(const std::string& top, const std::vector<std::string>& sv, const std::string& sources, Class& c) {
  c.module = top;
  c.kind = "top";
  c.key = "top " + top;
  c.count = 1;
  c.script = fmt::format("read_verilog -defer -sv {}\nhierarchy -top {}\nblackbox $paramod*\n"
                         "synth_xilinx -family xcup -noiopad -top {}\n", join(sv), top, top);
  c.hash = fmt::format("{:016x}", fnv1a(sources, fnv1a(c.script)));
}

// What a cached timing was computed with: the table's revision and the options.
std::string timing_key(const TimingOptions& t) { return fmt::format("table 1, {:g} MHz, {:g} ns/net", t.clock_mhz, t.route_ns); }

// The class's timing from its netlist, the cached one when the table and options match.
void class_timing(const fs::path& base, const json& cached, const TimingOptions& t, Class& c) {
  if (cached.value("timing_key", "") == timing_key(t) && cached.contains("timing")) {
    c.timing = cached["timing"];
    return;
  }
  c.timing = netlist_timing(base.string() + ".netlist.json", t);
  json j = cached;
  j["timing"] = c.timing;
  j["timing_key"] = timing_key(t);
  write_file_atomic(base.string() + ".json", j.dump(2) + "\n");
}

// Runs one class's Yosys (or reads its cached counts), then times its netlist: a flattened
// copy written after `stat`, with the cell library's unused black boxes purged.
void run_class(const fs::path& dir, Class& c, double timeout_s, const TimingOptions& t) {
  const fs::path base = dir / "logs" / "synth" / c.hash;
  const fs::path cache = base.string() + ".json";
  if (fs::exists(cache) && fs::exists(base.string() + ".netlist.json")) {
    const json j = json::parse(read_file(cache));
    c.cells = j["cells"];
    c.seconds = j["seconds"];
    c.cached = true;
    class_timing(base, j, t, c);
    return;
  }
  const auto t0 = std::chrono::steady_clock::now();
  const std::string rel = "logs/synth/" + c.hash;
  write_file_atomic(base.string() + ".ys", c.script + "tee -q -o " + rel + ".stat stat\nflatten\nhierarchy -top " +
                                               c.module + " -purge_lib\nwrite_json " + rel + ".netlist.json\n");
  auto run = run_command(fmt::format("cd '{}' && yosys -q -s {}.ys > {}.log 2>&1", dir.string(), rel, rel), timeout_s);
  if (run.exit_code != 0)
    throw Error(fmt::format("synth: yosys {} on class {} ({}.ys); see {}.log", run.timed_out ? "ran out of time" : "failed",
                            c.module, base.string(), base.string()) +
                (run.timed_out ? fmt::format(" (--class-timeout {:g} s)", timeout_s) : ""));
  c.cells = stat_cells(read_file(base.string() + ".stat"));
  c.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  class_timing(base, json{{"module", c.module}, {"cells", c.cells}, {"seconds", c.seconds}}, t, c);
}

// Runs the chosen classes `jobs` at a time; the first failure is rethrown after all have
// ended.
void run_all(const fs::path& dir, std::vector<Class>& classes, const std::vector<size_t>& chosen, int jobs,
             const SynthOptions& opt) {
  std::atomic<size_t> next{0};
  std::mutex mu;
  std::string error;
  auto work = [&] {
    for (size_t i; (i = next++) < chosen.size();) {
      try {
        run_class(dir, classes[chosen[i]], opt.class_timeout_s, opt.timing);
      } catch (const std::exception& e) {
        std::lock_guard<std::mutex> lock(mu);
        if (error.empty()) error = e.what();
      }
    }
  };
  std::vector<std::thread> pool;
  for (int j = 0; j < jobs; ++j) pool.emplace_back(work);
  for (auto& t : pool) t.join();
  if (!error.empty()) throw Error(error);
}

const char* const kCounted[] = {"lut", "ff", "dsp", "bram18k", "uram", "lut_memory", "lutram_cells", "carry_cells"};

void add_cells(json& into, const json& cells, int64_t times) {
  if (!into.is_object()) into = json::object();
  for (const char* k : kCounted) into[k] = into.value(k, int64_t{0}) + times * cells[k].get<int64_t>();
}

struct ClassSet {
  std::vector<Instance> insts;
  std::vector<Class> classes;   // [0]: the top's own logic
  std::vector<size_t> class_of;  // per instance
};

ClassSet collect_classes(const fs::path& dir, bool exact_roms) {
  const auto [top, sv] = read_makefile(dir);
  std::vector<std::string> kernels;
  std::string sources;
  for (const auto& f : sv) {
    sources += read_file(dir / f);
    if (f != top + ".sv") kernels.push_back(f);
  }
  ClassSet s;
  s.insts = parse_top(read_file(dir / (top + ".sv")));
  s.classes.resize(1);
  glue_script(top, sv, sources, s.classes[0]);
  std::map<std::string, size_t> index;
  for (const Instance& inst : s.insts) {
    const std::string key = class_key(dir, inst, exact_roms);
    auto [it, fresh] = index.emplace(key, s.classes.size());
    if (fresh) {
      s.classes.emplace_back();
      s.classes.back().module = inst.module;
      s.classes.back().kind = inst.kind;
      s.classes.back().key = key;
      make_script(dir, inst, kernels, sources, s.classes.back());
    }
    ++s.classes[it->second].count;
    s.class_of.push_back(it->second);
  }
  return s;
}

// The classes whose key ("module P=V ...", "top <module>") matches `pattern`; all without one.
std::vector<size_t> choose_classes(const std::vector<Class>& classes, const std::string& pattern) {
  std::vector<size_t> out;
  std::regex re;
  try {
    re = std::regex(pattern.empty() ? "." : pattern);
  } catch (const std::regex_error& e) {
    throw Error(fmt::format("synth: --classes '{}' is not a regular expression ({})", pattern, e.what()));
  }
  for (size_t i = 0; i < classes.size(); ++i)
    if (pattern.empty() || std::regex_search(classes[i].key, re)) out.push_back(i);
  if (out.empty()) {
    std::string modules;
    for (const Class& c : classes) modules += (modules.empty() ? "" : ", ") + c.module;
    throw Error(fmt::format("synth: --classes '{}' matches none of the {} classes ({})", pattern, classes.size(), modules));
  }
  return out;
}

json summarize(const ClassSet& s, const std::vector<size_t>& chosen, const TimingOptions& t) {
  std::vector<char> on(s.classes.size(), 0);
  for (size_t i : chosen) on[i] = 1;
  json r = json::object(), by_kind = json::object(), list = json::array(), timed = json::array();
  if (on[0]) {
    add_cells(r, s.classes[0].cells, 1);
    add_cells(by_kind["top"], s.classes[0].cells, 1);
  }
  int64_t instances = 0;
  std::vector<json> names(s.classes.size(), json::array());  // each class's instances
  for (size_t i = 0; i < s.insts.size(); ++i) {
    if (!on[s.class_of[i]]) continue;
    ++instances;
    names[s.class_of[i]].push_back(s.insts[i].name);
    add_cells(r, s.classes[s.class_of[i]].cells, 1);
    add_cells(by_kind[s.insts[i].kind], s.classes[s.class_of[i]].cells, 1);
  }
  int cached = 0;
  for (size_t i : chosen) {
    const Class& c = s.classes[i];
    cached += c.cached;
    list.push_back({{"class", c.key}, {"module", c.module}, {"kind", c.kind}, {"count", c.count}, {"hash", c.hash},
                    {"cells", c.cells}, {"seconds", c.seconds}, {"instances", names[i]}});
    timed.push_back({{"class", c.key}, {"module", c.module}, {"kind", c.kind}, {"count", c.count}, {"timing", c.timing}});
  }
  r["by_kind"] = by_kind;
  r["classes"] = chosen.size();
  r["instances"] = instances;
  r["cached"] = cached;
  r["class_list"] = list;
  r["timing"] = timing_summary(timed, t);
  return r;
}

}  // namespace

nlohmann::json synthesize_classes(const fs::path& dir, const SynthOptions& opt) {
  const auto t0 = std::chrono::steady_clock::now();
  ClassSet s = collect_classes(dir, opt.exact_roms);
  const std::vector<size_t> chosen = choose_classes(s.classes, opt.classes);
  fs::create_directories(dir / "logs" / "synth");
  const int cores = std::max(1, static_cast<int>(std::thread::hardware_concurrency()));
  run_all(dir, s.classes, chosen, std::clamp(opt.jobs > 0 ? opt.jobs : cores, 1, static_cast<int>(chosen.size())), opt);
  json r = summarize(s, chosen, opt.timing);
  r["method"] = "per-class";
  r["tool"] = "yosys 0.23 synth_xilinx -family xcup -noiopad, per kernel instance class";
  if (!opt.classes.empty()) {
    r["selected"] = opt.classes;
    r["partial"] = chosen.size() < s.classes.size();
  }
  r["seconds"] = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return r;
}

nlohmann::json synthesize_design(const fs::path& dir, const SynthOptions& opt) {
  std::string method = opt.method;
  if (method != "auto" && method != "flattened" && method != "per-class")
    throw Error("synth: --method must be auto, flattened or per-class, not '" + method + "'");
  if (!opt.classes.empty() && method == "flattened")
    throw Error("synth: --classes selects classes of the per-class synthesis, not of --method flattened");
  if (!opt.classes.empty()) method = "per-class";
  if (method == "auto") {
    const auto [top, sv] = read_makefile(dir);
    int64_t kernels = 0;
    for (const Instance& i : parse_top(read_file(dir / (top + ".sv")))) kernels += i.kind != "fifo";
    method = kernels <= opt.flatten_max_processes ? "flattened" : "per-class";
  }
  return method == "flattened" ? synthesize(dir, opt.budget_s) : synthesize_classes(dir, opt);
}

}  // namespace inrarch::rtl
