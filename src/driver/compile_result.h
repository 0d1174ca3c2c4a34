// What `compile` produces (driver::compile), typed: the figures the summary, the exit code
// and callers need, and report.json as its serialisation (to_json; keys in
// docs/report.md). The detailed sections (passes, the search's front, resources by kind,
// FIFO depths, timings) stay JSON in `sections`: they are only ever written out, never
// read by a later stage.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "backend/hls/verdict.h"
#include "backend/rtl/kernel_run.h"
#include "backend/rtl/rtl_run.h"

namespace inrarch::driver {

// One C simulation's outcome (docs/hls.md §5).
struct SimResult {
  enum class Status { NotRun, Skipped, Pass, Fail, Deadlock, OutOfTime };
  Status status = Status::NotRun;
  std::optional<double> max_abs_error, max_rel_error;  // only from a run that completed
  int64_t overflows = 0;       // values that left the number type's range
  std::string first_overflow;  // the process of the first one
  std::string overflow_cause;  // an input outside the calibrated range, or the design's own value
  std::vector<std::string> overflow_flags;  // output ports whose hardware overflow flag is set
  // "PASS", "FAIL", "FAIL (deadlock)", "FAIL (out of time)", "skipped" or "not run".
  std::string text() const;
  bool failed() const {
    return status == Status::Fail || status == Status::Deadlock || status == Status::OutOfTime;
  }
};

// The output column with the largest relative error (reported, not judged).
struct WorstColumn {
  std::string output;
  int64_t column = -1;
  std::optional<double> rel_error, max_abs_error;
};

// The verdicts of every simulation run: a summary per mode (what the summary line and the
// exit code read) and the backends' own results, from which report.json's verification
// section is written.
struct Verification {
  SimResult csim, threaded, trace, project;
  SimResult rtl;  // `compile --rtl`'s Verilator run (docs/rtl.md); a hang is a Fail
  SimResult kernel;  // `--kernel-sim`: the memory-mapped kernel's testbench (docs/deploy.md)
  std::optional<WorstColumn> worst_column;
  std::optional<hls::SimVerdicts> sims;  // hls::run_simulations'
  std::optional<rtl::RtlRun> rtl_run;    // rtl::run_rtl's
  std::optional<rtl::KernelRun> kernel_run;  // rtl::run_kernel's
  bool failed() const {
    return csim.failed() || threaded.failed() || trace.failed() || project.failed() || rtl.failed() ||
           kernel.failed();
  }
};

// The summaries of the C simulations' verdicts, and of an RTL run.
Verification verification_of(const hls::SimVerdicts& v);
SimResult sim_result_of(const rtl::RtlRun& r);
// Sets an RTL run's verdict into v (the run and its summary).
void add_rtl_run(Verification& v, const rtl::RtlRun& r);

struct CompileResult {
  std::filesystem::path out_dir;
  struct Graph {
    std::string name;
    int64_t outputs = 0, op_nodes_imported = 0, op_nodes_optimized = 0;
  } graph;
  struct Design {
    int64_t processes = 0, streams = 0;
    bool deadlock_free = true;
    int64_t block = 1;  // elements per stream beat asked of the lowering (given or searched)
  } design;
  struct Fifo {
    std::string method;
    std::optional<int64_t> latency_cycles;  // none on a deadlock
    int64_t peak_latency_cycles = 0, total_depth = 0, total_bits = 0, bram18k = 0;
  } fifo;
  struct Performance {
    int64_t floor_cycles = 0;
    double latency_over_floor = 0;
    std::string part;
    double dsp = 0, bram18k = 0, uram = 0, lut = 0, ff = 0;  // fractions of the part
    bool fits = true;
    std::string over;  // the first resource over the budget
  } performance;
  std::string number_type;                  // of the HLS code ("" without it)
  std::optional<Verification> verification;  // with the HLS C simulations only
  nlohmann::json sections = nlohmann::json::object();  // every other report section

  // report.json: `sections` with the typed figures written over their keys, and the
  // verification section from `verification`'s results. The flow sets the typed figures
  // from its stages' typed results (driver/flow.cpp).
  nlohmann::json to_json() const;
  // 0, or 2 when the design failed its own verification (resources over budget are
  // reported, not fatal).
  int exit_code() const { return verification && verification->failed() ? 2 : 0; }
};

}  // namespace inrarch::driver
