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

namespace detail {

bool make(const std::filesystem::path& dir, const std::string& target, const std::string& log, double budget_s,
          const std::string& extra) {
  std::filesystem::create_directories(dir / "logs");
  const std::string cmd = fmt::format("cd '{}' && make {} {} > logs/{} 2>&1", dir.string(), target, extra, log);
  return run_command(cmd, budget_s).exit_code == 0;
}

nlohmann::json last_json(const std::filesystem::path& file) {
  std::error_code ec;
  if (!std::filesystem::exists(file, ec)) return {};
  std::istringstream in(read_file(file));
  nlohmann::json last;
  for (std::string line; std::getline(in, line);) {
    auto j = nlohmann::json::parse(line, nullptr, false);
    if (!j.is_discarded() && j.is_object()) last = j;
  }
  return last;
}

}  // namespace detail

namespace {

using detail::last_json;
using detail::make;

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

// The top's sticky flags of the Verilator run into r: overflow_flag (any set), and
// overflow_flag_mismatch naming a port whose flag disagrees with its beats (a flag must be set
// exactly when its port gave out a beat with ovf set). True when no flag is set and every
// flag agrees with its beats.
bool read_overflow(const TestbenchRun& tb, RtlRun& r) {
  for (const auto& [port, flag] : tb.overflow_flags) {
    const auto beats = tb.overflow_beats.find(port);
    const int64_t n = beats == tb.overflow_beats.end() ? 0 : beats->second;
    r.overflow_flag = r.overflow_flag || flag;
    if (flag != (n > 0) && r.overflow_flag_mismatch.empty())
      r.overflow_flag_mismatch = fmt::format("{}: flag {}, {} beats with ovf set", port, flag, n);
  }
  return !r.overflow_flag && r.overflow_flag_mismatch.empty();
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

RtlTraceCheck check_rtl_trace(const dataflow::Design& d, const fs::path& trace, bool exact_times) {
  const std::vector<TraceOp> ops = read_trace(trace);
  // Per process, its ops by cycle (a step is the ops of one cycle).
  std::vector<std::map<int64_t, std::vector<dataflow::FifoOp>>> steps(d.processes.size());
  std::vector<std::vector<int64_t>> wt(d.streams.size()), rt(d.streams.size());
  for (const TraceOp& op : ops) {
    const auto& s = d.streams.at(op.stream);
    steps.at(op.write ? s.producer : s.consumer)[op.cycle].push_back({op.stream, op.write});
    (op.write ? wt : rt)[op.stream].push_back(op.cycle);
  }
  auto fail = [&](const std::string& why) { return RtlTraceCheck{false, int64_t(ops.size()), why}; };
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
  return {true, int64_t(ops.size()), ""};
}

RtlRun run_rtl(const dataflow::Design& d, const fs::path& dir, const RtlRunOptions& opt) {
  RtlRun v;
  const ModelTimes model = model_times(d);
  v.model_cycles = model.last_out;
  v.model_latency = model.latency;
  if (opt.lint) v.lint = make(dir, "lint", "lint.log", opt.budget_s) ? "clean" : "warnings: see logs/lint.log";
  if (opt.other_tools) {
    v.iverilog = make(dir, "iverilog", "iverilog.log", opt.budget_s) ? "accepted" : "rejected: see logs/iverilog.log";
    v.yosys = make(dir, "yosys", "yosys.log", opt.budget_s) ? "accepted" : "rejected: see logs/yosys.log";
  }
  if (!make(dir, "csim", "csim.log", opt.budget_s)) {
    v.error = "the HLS C simulation's bits: see logs/csim.log";
    return v;
  }
  const double work = icarus_weight(d) * double(std::max<int64_t>(v.model_cycles, 0));
  if (opt.other_tools && work > opt.icarus_max_work) {
    v.icarus = IcarusRun{fmt::format("{:.3g} process-cycles (over {:.3g}): run `make icarus` in the rtl folder", work,
                                     opt.icarus_max_work), "", std::nullopt};
  } else if (opt.other_tools) {  // Icarus runs the same design against the same bits
    make(dir, "icarus", "icarus.log", opt.budget_s);
    v.icarus = IcarusRun{"", "no result: see logs/icarus.log", testbench_run(last_json(dir / "logs" / "icarus.log"))};
  }
  if (!make(dir, "obj_dir/Vtop", "verilator.log", opt.budget_s)) {
    v.error = "verilator did not build the testbench: see logs/verilator.log";
    return v;
  }
  const std::string args = fmt::format("--data data --expect csim --out out --stall-in {} --stall-out {} --seed {}{}",
                                       opt.stall_in, opt.stall_out, opt.seed, opt.trace ? " --trace out/trace.txt" : "");
  fs::create_directories(dir / "out");
  auto run = run_command(fmt::format("cd '{}' && ./obj_dir/Vtop {} > logs/sim.log 2>&1", dir.string(), args), opt.budget_s);
  v.verilator = testbench_run(last_json(dir / "logs" / "sim.log"));
  if (!v.verilator) {
    v.error = run.timed_out ? "out of time" : "the testbench printed no result: see logs/sim.log";
    return v;
  }
  const TestbenchRun& r = *v.verilator;
  const bool unstalled = opt.stall_in == 0 && opt.stall_out == 0;
  // The event graph's time 0 is the RTL's cycle 0: the span and its end must both match, and
  // so must the last FIFO op (a gather's reads of unneeded beats may come after the outputs).
  v.cycle_exact = unstalled && r.cycles == v.model_cycles && r.last_out == v.model_cycles && r.last_op == model.latency;
  if (opt.trace && !r.hang) v.trace = check_rtl_trace(d, dir / "out" / "trace.txt", unstalled);
  // An overflow fails the run, as it fails the C simulations: the outputs are saturated.
  const bool in_range = read_overflow(r, v);
  v.pass = !r.hang && r.bit_exact == true && (!unstalled || v.cycle_exact) && (!v.trace || v.trace->pass) && in_range;
  return v;
}

}  // namespace inrarch::rtl
