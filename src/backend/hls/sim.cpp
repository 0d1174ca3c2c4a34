// run_simulations: builds the shipped top (model.cpp) with the simulation driver
// (sim_main.cpp, inrarch/sim_driver.h) through the project's Makefile (`make sim`) and runs
// it in its modes, turning the driver's one-line JSON results into report.json's
// verification:
//   csim      the sequential run's errors against the reference interpreter, judged by
//             the type (fixed: max abs error <= abs_tol; float/double: rel <= rel_tol);
//   threaded  every process a fiber at the sized depths; deadlock = no process could run
//             while some had not finished (exact, see inrarch/fibers.h);
//   trace     the sequential run's recorded FIFO ops per process against
//             dataflow::schedule, step by step (check_trace).
// The trace file holds runs of equal consecutive steps ("<count> r3 w7"); the schedule is
// compared in the same form, its delays dropped (C simulation has no cycles).
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <optional>
#include <sstream>

#include "backend/hls/hls.h"
#include "dataflow/schedule.h"
#include "support/error.h"
#include "support/files.h"
#include "support/process.h"

namespace inrarch::hls {

namespace {

namespace fs = std::filesystem;

using Ops = std::vector<std::string>;
using Runs = std::vector<std::pair<int64_t, Ops>>;

int run_cmd(const std::string& cmd, double timeout_s = 0) {
  return run_command(cmd, timeout_s).exit_code;
}

// The driver's result: the last line of its stdout that parses as JSON.
nlohmann::json driver_result(const fs::path& out_file) {
  std::error_code ec;
  if (!fs::exists(out_file, ec)) return {};
  std::istringstream in(read_file(out_file));
  nlohmann::json last;
  for (std::string line; std::getline(in, line);) {
    auto j = nlohmann::json::parse(line, nullptr, false);
    if (!j.is_discarded()) last = j;
  }
  return last;
}

// An error figure of the driver's result; a missing one or NaN (null) fails any bound.
double error_figure(const nlohmann::json& res, const char* key) {
  auto it = res.find(key);
  return it != res.end() && it->is_number() ? it->get<double>() : 1e300;
}

Runs schedule_runs(const dataflow::Design& d, dataflow::ProcessId p) {
  dataflow::Program prog = dataflow::schedule(d, p);
  Runs runs;
  for (const auto& r : prog.runs) {
    Ops ops;
    for (uint32_t i = 0; i < r.op_count; ++i) {
      const auto& op = prog.ops[r.op_begin + i];
      ops.push_back((op.write ? "w" : "r") + std::to_string(op.stream));
    }
    if (!runs.empty() && runs.back().second == ops) runs.back().first += r.count;
    else runs.push_back({r.count, std::move(ops)});
  }
  return runs;
}

std::string ops_str(const Ops& ops) {
  std::string s;
  for (const auto& o : ops) s += (s.empty() ? "" : " ") + o;
  return "{" + s + "}";
}

// "" when equal, else where they first differ (step index, expected vs recorded).
std::string compare_runs(const Runs& want, const Runs& got) {
  size_t i = 0, j = 0;
  int64_t ui = 0, uj = 0, step = 0;  // steps used of want[i] / got[j]
  while (i < want.size() && j < got.size()) {
    if (want[i].second != got[j].second)
      return fmt::format("step {}: schedule {} but kernel {}", step, ops_str(want[i].second),
                         ops_str(got[j].second));
    int64_t n = std::min(want[i].first - ui, got[j].first - uj);
    step += n, ui += n, uj += n;
    if (ui == want[i].first) ++i, ui = 0;
    if (uj == got[j].first) ++j, uj = 0;
  }
  if (i < want.size()) return fmt::format("step {}: kernel ended, schedule has {}", step, ops_str(want[i].second));
  if (j < got.size()) return fmt::format("step {}: schedule ended, kernel did {}", step, ops_str(got[j].second));
  return "";
}

std::vector<Runs> read_trace(const fs::path& file, size_t processes) {
  std::ifstream in(file);
  if (!in) throw Error("trace check: no trace file " + file.string());
  std::vector<Runs> out(processes);
  std::string line, tag;
  size_t p = 0, n = 0;
  while (std::getline(in, line)) {
    std::istringstream ls(line);
    if (line.rfind("P ", 0) == 0) {
      ls >> tag >> p >> n;
      if (p >= processes) throw Error("trace check: process " + std::to_string(p) + " unknown");
      continue;
    }
    int64_t count = 0;
    ls >> count;
    Ops ops;
    for (std::string op; ls >> op;) ops.push_back(op);
    out.at(p).push_back({count, std::move(ops)});
  }
  return out;
}

// The smallest and largest input value the run streams (data/in_*.bin, doubles).
std::optional<std::pair<double, double>> input_span(const fs::path& data) {
  std::optional<std::pair<double, double>> span;
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(data, ec)) {
    const std::string name = e.path().filename().string();
    if (name.rfind("in_", 0) != 0 || e.path().extension() != ".bin") continue;
    std::ifstream in(e.path(), std::ios::binary);
    for (double v; in.read(reinterpret_cast<char*>(&v), sizeof v);)
      span = span ? std::pair{std::min(span->first, v), std::max(span->second, v)} : std::pair{v, v};
  }
  return span;
}

// "process P left the range of T, [-2^(I-1), 2^(I-1)) (|v| < 2^(I-1)): its values out of
// range reached [lo, hi] as stored" (stored: after the process's exponent, docs/hls.md).
std::string left_the_range(const NumberType& t, const std::string& first, const nlohmann::json& res) {
  const double top = std::ldexp(1.0, t.int_bits - 1);
  std::string reached;
  const auto it = res.find("first_overflow_reached");
  if (it != res.end() && it->is_array() && it->size() == 2 && (*it)[0].is_number() && (*it)[1].is_number())
    reached = fmt::format(": its values out of range reached [{:.6g}, {:.6g}] as stored",
                          (*it)[0].get<double>(), (*it)[1].get<double>());
  return fmt::format("process {} left the range of {}, [{:.6g}, {:.6g}) (|v| < 2^{}){}", first, t.name(), -top,
                     top, t.int_bits - 1, reached);
}

// Why values overflowed, and the fix for it (docs/hls.md "Range safety"). The exponents were
// chosen on the bundle's own inputs, or on samples of --input-range: inputs outside that
// range are the input's fault; otherwise a value inside the design outgrew its format.
// res: the simulation's result (the first overflowing process's reached span).
std::string overflow_cause(const HlsOptions& opt, const fs::path& dir, const std::string& first,
                           const nlohmann::json& res) {
  const auto span = input_span(dir / "data");
  const auto& range = opt.input_range;
  const NumberType& t = opt.type;
  if (range && span && (span->first < range->first || span->second > range->second))
    return fmt::format("an input outside the calibrated range: the inputs span [{:.6g}, {:.6g}], the "
                       "exponents were chosen for --input-range {},{}; give an --input-range that covers them "
                       "({})",
                       span->first, span->second, range->first, range->second, left_the_range(t, first, res));
  const std::string on = range ? fmt::format("inputs within --input-range {},{}", range->first, range->second)
                               : std::string("the bundle's own inputs, which its exponents were chosen on");
  return fmt::format("a value inside the design outgrew its format: {}, on {}, so --input-range cannot help; "
                     "widen the integer bits (--type fixed<{},{}>)",
                     left_the_range(t, first, res), on, t.width + 2, t.int_bits + 2);
}

}  // namespace

nlohmann::json check_trace(const dataflow::Design& d, const fs::path& trace_file) {
  std::vector<Runs> got = read_trace(trace_file, d.processes.size());
  nlohmann::json r = {{"pass", true}, {"processes_checked", 0}};
  int checked = 0;
  for (size_t p = 0; p < d.processes.size(); ++p) {
    std::string diff = compare_runs(schedule_runs(d, static_cast<dataflow::ProcessId>(p)), got[p]);
    ++checked;
    if (!diff.empty() && r["pass"]) {
      r["pass"] = false;
      r["mismatch"] = {{"process", d.processes[p].name}, {"detail", diff}};
    }
  }
  r["processes_checked"] = checked;
  return r;
}

nlohmann::json run_simulations(const dataflow::Design& d, const fs::path& dir,
                               const HlsOptions& opt, const SimOptions& sim) {
  fs::create_directories(dir / "sim");
  auto note = [&](const std::string& line) {
    if (sim.progress) sim.progress(line);
  };
  note("C simulation: building the top with the driver (make sim, g++ " + sim.cxxflags + ")");
  const std::string cd = "cd '" + dir.string() + "' && ";
  // Two files: make builds them side by side. Stale objects of an earlier emission go first.
  const std::string build = fmt::format(
      "{}rm -f sim/sim sim/model.o sim/sim_main.o && make -j2 CXX='{}' SIM_CXXFLAGS='{}' sim > sim/build.log 2>&1",
      cd, sim.cxx, sim.cxxflags);
  if (run_cmd(build) != 0)
    throw Error("hls: the generated top does not build for simulation (make sim); see " +
                (dir / "sim" / "build.log").string() + ":\n" + read_file(dir / "sim" / "build.log").substr(0, 2000));
  nlohmann::json v;
  const std::string args = fmt::format(" --budget {}{}", sim.budget_s,
                                       sim.rows > 0 ? fmt::format(" --rows {}", sim.rows) : "");
  // The driver stops itself at the budget; the kill is only for one that cannot.
  const std::string run = cd + "sim/sim";
  const double hard_stop_s = sim.budget_s + 30;
  const bool fixed = opt.type.kind == NumberType::Fixed;
  // A value out of the number type's range fails the run whatever the errors say: the
  // design returns wrong numbers for such inputs (docs/hls.md "Range safety").
  auto judge = [&](const nlohmann::json& res) {
    if (res.value("overflows", int64_t{0}) > 0 || res.value("overflow_flag", false)) return false;
    return fixed ? error_figure(res, "max_scaled_error") <= opt.abs_tol
                 : error_figure(res, "max_rel_error") <= opt.rel_tol;
  };
  // The count (C simulation's) and the top's flags (the hardware's): report both.
  auto overflows = [&](const nlohmann::json& res, nlohmann::json& out) {
    const int64_t n = res.value("overflows", int64_t{0});
    const bool flag = res.value("overflow_flag", false);
    if (res.contains("overflow_flag")) out["overflow_flag"] = flag;
    if (flag) out["overflow_flags"] = res["overflow_flags"];
    if (n == 0 && !flag) return;
    out["overflows"] = n;
    out["first_overflow"] = res.value("first_overflow", std::string("?"));
    std::string outs;
    for (const auto& o : res.value("overflow_flags", nlohmann::json::array()))
      outs += (outs.empty() ? "" : ", ") + o.get<std::string>();
    if (res.contains("first_overflow_reached")) out["first_overflow_reached"] = res["first_overflow_reached"];
    out["overflow_cause"] = overflow_cause(opt, dir, out["first_overflow"].get<std::string>(), res);
    out["error"] = fmt::format("{} values overflowed {} (first in {}), saturated; the top's "
                               "overflow_flag is {}{}: {}",
                               n, opt.type.name(), out["first_overflow"].get<std::string>(),
                               flag ? 1 : 0, outs.empty() ? "" : " (" + outs + ")",
                               out["overflow_cause"].get<std::string>());
  };
  auto failure = [&](const nlohmann::json& res, int rc) -> std::string {
    if (res.value("out_of_time", false))
      return fmt::format("out of time: the {} s budget ended the run", sim.budget_s);
    if (res.contains("error")) return res["error"].get<std::string>();
    return fmt::format("no result (exit {}: crash or kill)", rc);
  };
  if (sim.sequential || sim.trace) {
    note(sim.trace ? "C simulation: sequential, recording the trace" : "C simulation: sequential");
    std::string trace = sim.trace ? " --trace sim/trace.txt" : "";
    int rc = run_cmd(fmt::format("{} seq{}{} > sim/seq.json 2> sim/seq.log", run, trace, args),
                     hard_stop_s);
    nlohmann::json res = driver_result(dir / "sim" / "seq.json");
    bool done = res.value("completed", false);
    v["csim"] = {{"pass", done && judge(res)}, {"type", opt.type.name()}};
    for (const char* key : {"max_abs_error", "max_rel_error", "max_scaled_error", "max_column_rel_error", "worst_columns"})
      if (res.contains(key)) v["csim"][key] = res[key];  // absent when the run did not complete
    overflows(res, v["csim"]);
    if (!done) {
      v["csim"]["error"] = failure(res, rc);
      if (res.value("out_of_time", false)) v["csim"]["out_of_time"] = true;
    }
    if (sim.trace) {
      v["trace"] = done ? check_trace(d, dir / "sim" / "trace.txt")
                        : nlohmann::json{{"pass", false}, {"processes_checked", 0}};
    }
    if (!sim.sequential) v.erase("csim");
  }
  if (sim.threaded) {
    note("C simulation: threaded, FIFOs at their sized depths");
    int rc = run_cmd(fmt::format("{} threaded{} > sim/threaded.json 2> sim/threaded.log", run, args),
                     hard_stop_s);
    nlohmann::json res = driver_result(dir / "sim" / "threaded.json");
    bool deadlock = res.value("deadlock", false);
    bool done = res.value("completed", false);
    v["threaded"] = {{"pass", done && judge(res)},
                     {"deadlock", deadlock},
                     {"out_of_time", res.value("out_of_time", false)}};
    if (deadlock) v["threaded"]["waits"] = res["waits"];
    else if (!done) v["threaded"]["error"] = failure(res, rc);
    overflows(res, v["threaded"]);
  }
  if (sim.project) {
    note("C simulation: the project's own (make csim)");
    v["project"] = run_project_csim(dir, sim);
  }
  return v;
}

}  // namespace inrarch::hls
