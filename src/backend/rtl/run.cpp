// run_rtl: lint, build and run the Verilator testbench of an emitted RTL folder; the trace
// check against the schedules and the event graph.
#include <fmt/format.h>

#include <algorithm>
#include <fstream>
#include <map>
#include <sstream>

#include "backend/rtl/rtl_detail.h"
#include "dataflow/event_graph.h"
#include "dataflow/schedule.h"
#include "support/error.h"
#include "support/files.h"
#include "support/process.h"

namespace inrarch::rtl {

namespace {

// Icarus's work a cycle in processes, an mm counted as its MACs: each lane is a multiplier,
// an adder and a fit that Icarus interprets every cycle (Process::mm_lanes).
double icarus_weight(const dataflow::Design& d) {
  double w = 0;
  for (const dataflow::Process& p : d.processes) {
    if (!dataflow::has_macs(p.kind)) {
      w += 1.0;
      continue;
    }
    w += double(p.mm_lanes);
  }
  return w;
}

namespace fs = std::filesystem;

// `make <target>` in dir, output in logs/<log>; true when it succeeded.
bool make(const fs::path& dir, const std::string& target, const std::string& log, double budget_s,
          std::string extra = "") {
  fs::create_directories(dir / "logs");
  const std::string cmd = fmt::format("cd '{}' && make {} {} > logs/{} 2>&1", dir.string(), target, extra, log);
  return run_command(cmd, budget_s).exit_code == 0;
}

// The testbench's result: the last line of its output that parses as JSON.
nlohmann::json last_json(const fs::path& file) {
  std::error_code ec;
  if (!fs::exists(file, ec)) return {};
  std::istringstream in(read_file(file));
  nlohmann::json last;
  for (std::string line; std::getline(in, line);) {
    auto j = nlohmann::json::parse(line, nullptr, false);
    if (!j.is_discarded() && j.is_object()) last = j;
  }
  return last;
}

std::vector<int64_t> built_depths(const dataflow::Design& d) {
  std::vector<int64_t> v;
  for (const auto& s : d.streams)
    v.push_back(s.depth == dataflow::kUnbounded ? std::max<int64_t>(s.beats(), 3) : s.depth);
  return v;
}

struct TraceOp {
  int64_t cycle;
  dataflow::StreamId stream;
  bool write;
};

std::vector<TraceOp> read_trace(const fs::path& file) {
  std::ifstream in(file);
  if (!in) throw Error("rtl: cannot read the trace " + file.string());
  std::vector<TraceOp> ops;
  TraceOp op;
  char rw;
  while (in >> op.cycle >> op.stream >> rw) {
    op.write = rw == 'w';
    ops.push_back(op);
  }
  return ops;
}

// The top's sticky flags from a testbench's result r into v: overflow_flags {port: bool},
// overflow_beats {port: beats with ovf set}, overflow_flag (any set). A flag must be set
// exactly when its port gave out a beat with ovf set; otherwise overflow_flag_mismatch
// names the port. Returns true when no flag is set and every flag agrees with its beats.
bool read_overflow(const nlohmann::json& r, nlohmann::json& v) {
  const nlohmann::json flags = r.value("overflow_flags", nlohmann::json::object());
  const nlohmann::json beats = r.value("overflow_beats", nlohmann::json::object());
  bool any = false;
  for (const auto& [port, flag] : flags.items()) {
    const int64_t n = beats.value(port, int64_t{0});
    any = any || flag == true;
    if ((flag == true) != (n > 0) && !v.contains("overflow_flag_mismatch"))
      v["overflow_flag_mismatch"] = fmt::format("{}: flag {}, {} beats with ovf set", port, flag.dump(), n);
  }
  v["overflow_flag"] = any;
  v["overflow_flags"] = flags;
  v["overflow_beats"] = beats;
  return !any && !v.contains("overflow_flag_mismatch");
}

}  // namespace

int64_t model_latency(const dataflow::Design& d) { return model_times(d).latency; }

double simulation_work(const dataflow::Design& d) {
  return icarus_weight(d) * double(std::max<int64_t>(model_latency(d), 0));
}

ModelTimes model_times(const dataflow::Design& d) {
  dataflow::EventGraph eg(d);
  dataflow::Resolution r = eg.resolve(built_depths(d));
  if (r.deadlock) return {};
  ModelTimes t{r.latency, 0};
  for (const dataflow::Process& p : d.processes)
    if (p.kind == dataflow::Kind::Sink) {
      auto reads = eg.read_times(p.inputs.at(0));
      if (!reads.empty()) t.last_out = std::max<int64_t>(t.last_out, reads.back());
    }
  return t;
}

nlohmann::json check_rtl_trace(const dataflow::Design& d, const fs::path& trace, bool exact_times) {
  const std::vector<TraceOp> ops = read_trace(trace);
  // Per process, its ops by cycle (a step is the ops of one cycle).
  std::vector<std::map<int64_t, std::vector<dataflow::FifoOp>>> steps(d.processes.size());
  std::vector<std::vector<int64_t>> wt(d.streams.size()), rt(d.streams.size());
  for (const TraceOp& op : ops) {
    const auto& s = d.streams.at(op.stream);
    steps.at(op.write ? s.producer : s.consumer)[op.cycle].push_back({op.stream, op.write});
    (op.write ? wt : rt)[op.stream].push_back(op.cycle);
  }
  auto fail = [&](const std::string& why) {
    return nlohmann::json{{"pass", false}, {"ops_checked", ops.size()}, {"mismatch", why}};
  };
  for (size_t p = 0; p < d.processes.size(); ++p) {
    const auto expected = dataflow::expand(dataflow::schedule(d, dataflow::ProcessId(p)));
    const std::string& name = d.processes[p].name;
    if (steps[p].size() != expected.size())
      return fail(fmt::format("{}: {} steps, the schedule has {}", name, steps[p].size(), expected.size()));
    int64_t last = 0, k = 0;
    for (auto& [cycle, got] : steps[p]) {
      auto want = expected[k].ops;
      auto key = [](const dataflow::FifoOp& o) { return std::pair(o.stream, o.write); };
      std::sort(got.begin(), got.end(), [&](auto& a, auto& b) { return key(a) < key(b); });
      std::sort(want.begin(), want.end(), [&](auto& a, auto& b) { return key(a) < key(b); });
      if (got != want) return fail(fmt::format("{}: step {} (cycle {}) has other FIFO ops than its schedule", name, k, cycle));
      if (cycle - last < expected[k].delay)
        return fail(fmt::format("{}: step {} at cycle {}, less than its delay {} after the last", name, k, cycle, expected[k].delay));
      last = cycle, ++k;
    }
  }
  if (exact_times) {
    dataflow::EventGraph eg(d);
    if (eg.resolve(built_depths(d)).deadlock) return fail("the event graph deadlocks at these depths");
    for (size_t s = 0; s < d.streams.size(); ++s) {
      auto w = eg.write_times(dataflow::StreamId(s)), r = eg.read_times(dataflow::StreamId(s));
      for (size_t n = 0; n < wt[s].size() && n < w.size(); ++n)
        if (wt[s][n] != int64_t(w[n]))
          return fail(fmt::format("{} write #{} at cycle {}, the event graph says {}", d.streams[s].name, n, wt[s][n], w[n]));
      for (size_t n = 0; n < rt[s].size() && n < r.size(); ++n)
        if (rt[s][n] != int64_t(r[n]))
          return fail(fmt::format("{} read #{} at cycle {}, the event graph says {}", d.streams[s].name, n, rt[s][n], r[n]));
    }
  }
  return {{"pass", true}, {"ops_checked", ops.size()}};
}

nlohmann::json run_rtl(const dataflow::Design& d, const fs::path& dir, const RtlRunOptions& opt) {
  nlohmann::json v = {{"pass", false}, {"bit_exact", false}, {"hang", false}};
  const ModelTimes model = model_times(d);
  v["model_cycles"] = model.last_out;
  v["model_latency"] = model.latency;
  if (opt.lint) v["lint"] = make(dir, "lint", "lint.log", opt.budget_s) ? "clean" : "warnings: see logs/lint.log";
  if (opt.other_tools) {
    v["iverilog"] = make(dir, "iverilog", "iverilog.log", opt.budget_s) ? "accepted" : "rejected: see logs/iverilog.log";
    v["yosys"] = make(dir, "yosys", "yosys.log", opt.budget_s) ? "accepted" : "rejected: see logs/yosys.log";
  }
  if (!make(dir, "csim", "csim.log", opt.budget_s)) {
    v["error"] = "the HLS C simulation's bits: see logs/csim.log";
    return v;
  }
  const double work = icarus_weight(d) * double(std::max<int64_t>(v["model_cycles"].get<int64_t>(), 0));
  if (opt.other_tools && work > opt.icarus_max_work) {
    v["icarus"] = {{"skipped", fmt::format("{:.3g} process-cycles (over {:.3g}): run `make icarus` in the rtl folder",
                                           work, opt.icarus_max_work)}};
  } else if (opt.other_tools) {  // Icarus runs the same design against the same bits
    make(dir, "icarus", "icarus.log", opt.budget_s);
    nlohmann::json ic = last_json(dir / "logs" / "icarus.log");
    v["icarus"] = ic.is_null() ? nlohmann::json{{"error", "no result: see logs/icarus.log"}} : ic;
  }
  if (!make(dir, "obj_dir/Vtop", "verilator.log", opt.budget_s)) {
    v["error"] = "verilator did not build the testbench: see logs/verilator.log";
    return v;
  }
  const std::string args = fmt::format("--data data --expect csim --out out --stall-in {} --stall-out {} --seed {}{}",
                                       opt.stall_in, opt.stall_out, opt.seed, opt.trace ? " --trace out/trace.txt" : "");
  fs::create_directories(dir / "out");
  auto run = run_command(fmt::format("cd '{}' && ./obj_dir/Vtop {} > logs/sim.log 2>&1", dir.string(), args), opt.budget_s);
  nlohmann::json r = last_json(dir / "logs" / "sim.log");
  if (r.is_null()) {
    v["error"] = run.timed_out ? "out of time" : "the testbench printed no result: see logs/sim.log";
    return v;
  }
  for (const char* k : {"hang", "cycles", "first_in", "last_out", "last_op", "bit_exact", "mismatches", "first_mismatch"})
    if (r.contains(k)) v[k] = r[k];
  const bool unstalled = opt.stall_in == 0 && opt.stall_out == 0;
  // The event graph's time 0 is the RTL's cycle 0: the span and its end must both match, and
  // so must the last FIFO op (a gather's reads of unneeded beats may come after the outputs).
  v["cycle_exact"] = unstalled && v["cycles"] == v["model_cycles"] && v["last_out"] == v["model_cycles"] &&
                     v.value("last_op", int64_t{-1}) == model.latency;
  if (opt.trace && !r["hang"].get<bool>()) v["trace"] = check_rtl_trace(d, dir / "out" / "trace.txt", unstalled);
  // An overflow fails the run, as it fails the C simulations: the outputs are saturated.
  const bool in_range = read_overflow(r, v);
  v["pass"] = !r["hang"].get<bool>() && r["bit_exact"] == true && (!unstalled || v["cycle_exact"] == true) &&
              (!v.contains("trace") || v["trace"]["pass"] == true) && in_range;
  return v;
}

}  // namespace inrarch::rtl
