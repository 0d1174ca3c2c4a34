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
#include "backend/hls/verdict.h"
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
std::string left_the_range(const NumberType& t, const OverflowReport& o) {
  const double top = std::ldexp(1.0, t.int_bits - 1);
  const std::string reached =
      o.first_reached ? fmt::format(": its values out of range reached [{:.6g}, {:.6g}] as stored",
                                    o.first_reached->first, o.first_reached->second)
                      : std::string();
  return fmt::format("process {} left the range of {}, [{:.6g}, {:.6g}) (|v| < 2^{}){}", o.first_process(),
                     t.name(), -top, top, t.int_bits - 1, reached);
}

// Why values overflowed, and the fix for it (docs/hls.md "Range safety"). The exponents were
// chosen on the bundle's own inputs, or on samples of --input-range: inputs outside that
// range are the input's fault; otherwise a value inside the design outgrew its format.
// o: the run's overflow (the first overflowing process and its reached span).
std::string overflow_cause(const HlsOptions& opt, const fs::path& dir, const OverflowReport& o) {
  const auto span = input_span(dir / "data");
  const auto& range = opt.input_range;
  const NumberType& t = opt.type;
  if (range && span && (span->first < range->first || span->second > range->second))
    return fmt::format("an input outside the calibrated range: the inputs span [{:.6g}, {:.6g}], the "
                       "exponents were chosen for --input-range {},{}; give an --input-range that covers them "
                       "({})",
                       span->first, span->second, range->first, range->second, left_the_range(t, o));
  const std::string on = range ? fmt::format("inputs within --input-range {},{}", range->first, range->second)
                               : std::string("the bundle's own inputs, which its exponents were chosen on");
  return fmt::format("a value inside the design outgrew its format: {}, on {}, so --input-range cannot help; "
                     "widen the integer bits (--type fixed<{},{}>)",
                     left_the_range(t, o), on, t.width + 2, t.int_bits + 2);
}

// The verdict of a run read from the driver (docs/hls.md §5). A value out of the number
// type's range fails it whatever the errors say: the design returns wrong numbers for such
// inputs (docs/hls.md "Range safety"); the error then says why and what fixes it.
void judge(SimRun& r, const HlsOptions& opt, const fs::path& dir, int rc, double budget_s) {
  const bool fixed = opt.type.kind == NumberType::Fixed;
  const std::optional<double> figure = fixed ? r.max_scaled_error : r.max_rel_error;
  const double bound = fixed ? opt.abs_tol : opt.rel_tol;
  if (r.completed && !r.overflow.any() && figure && *figure <= bound) r.status = SimRun::Status::Pass;
  if (r.overflow.any()) {
    r.overflow.cause = overflow_cause(opt, dir, r.overflow);
    std::string outs;
    for (const std::string& o : r.overflow.flagged) outs += (outs.empty() ? "" : ", ") + o;
    r.error = fmt::format("{} values overflowed {} (first in {}), saturated; the top's overflow_flag is {}{}: {}",
                          r.overflow.count, opt.type.name(), r.overflow.first_process(),
                          r.overflow.flag.value_or(false) ? 1 : 0, outs.empty() ? "" : " (" + outs + ")",
                          r.overflow.cause);
  }
  if (r.completed || r.status == SimRun::Status::Deadlock) return;
  if (r.status == SimRun::Status::OutOfTime)
    r.error = fmt::format("out of time: the {} s budget ended the run", budget_s);
  else if (r.error.empty())
    r.error = fmt::format("no result (exit {}: crash or kill)", rc);
}

}  // namespace

TraceCheck check_trace(const dataflow::Design& d, const fs::path& trace_file) {
  std::vector<Runs> got = read_trace(trace_file, d.processes.size());
  TraceCheck r{true, 0, "", ""};
  for (size_t p = 0; p < d.processes.size(); ++p) {
    std::string diff = compare_runs(schedule_runs(d, static_cast<dataflow::ProcessId>(p)), got[p]);
    ++r.processes_checked;
    if (!diff.empty() && r.pass) r = {false, r.processes_checked, d.processes[p].name, diff};
  }
  return r;
}

SimVerdicts run_simulations(const dataflow::Design& d, const fs::path& dir, const HlsOptions& opt,
                            const SimOptions& sim) {
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
  SimVerdicts v;
  v.type = opt.type.name();
  const std::string args = fmt::format(" --budget {}{}", sim.budget_s,
                                       sim.rows > 0 ? fmt::format(" --rows {}", sim.rows) : "");
  // The driver stops itself at the budget; the kill is only for one that cannot.
  const std::string run = cd + "sim/sim";
  const double hard_stop_s = sim.budget_s + 30;
  // One mode: run, read its result line, judge it.
  auto run_mode = [&](const std::string& mode, const std::string& extra) {
    const int rc = run_cmd(fmt::format("{} {}{}{} > sim/{}.json 2> sim/{}.log", run, mode, extra, args, mode, mode),
                           hard_stop_s);
    SimRun r = sim_run_from_driver(driver_result(dir / "sim" / (mode + ".json")));
    judge(r, opt, dir, rc, sim.budget_s);
    return r;
  };
  if (sim.sequential || sim.trace) {
    note(sim.trace ? "C simulation: sequential, recording the trace" : "C simulation: sequential");
    SimRun seq = run_mode("seq", sim.trace ? " --trace sim/trace.txt" : "");
    if (sim.trace)
      v.trace = seq.completed ? check_trace(d, dir / "sim" / "trace.txt") : TraceCheck{false, 0, "", ""};
    if (sim.sequential) v.csim = std::move(seq);
  }
  if (sim.threaded) {
    note("C simulation: threaded, FIFOs at their sized depths");
    v.threaded = run_mode("threaded", "");
  }
  if (sim.project) {
    note("C simulation: the project's own (make csim)");
    v.project = run_project_csim(dir, sim);
  }
  return v;
}

}  // namespace inrarch::hls
