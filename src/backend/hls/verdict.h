// The C simulations' verdicts (run_simulations, run_project_csim, check_trace), typed. The
// driver reads these fields; report.json's `verification` section is written from them by
// to_json, the only place they become JSON (keys: docs/report.md).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json_fwd.hpp>

namespace inrarch::hls {

// An output column's error (the testbench's worst columns, largest relative error first).
struct ColumnError {
  std::string output;
  int64_t column = -1;
  double max_abs_error = 0, rel_error = 0;
};

// One output's errors against the reference, as the run's own (the scaled error judges
// fixed point, docs/hls.md "Verification"); NaN where the run measured NaN.
struct OutputError {
  std::string output;
  double max_abs_error = 0, max_rel_error = 0, max_scaled_error = 0;
};

// Values that left the number type's range in one run (docs/hls.md "Range safety").
struct OverflowReport {
  int64_t count = 0;                 // values the C simulation saturated
  std::optional<bool> flag;          // any of the top's flags, when the run read them
  std::vector<std::string> flagged;  // the outputs whose flag is set
  std::string first;                 // the process of the first overflow, when count > 0
  std::optional<std::pair<double, double>> first_reached;  // its values out of range, as stored
  std::string cause;                 // why, and the fix (sim.cpp overflow_cause)
  bool any() const { return count > 0 || flag.value_or(false); }
  // The first overflowing process, or "?" when the run named none (a flag without a count).
  std::string first_process() const { return first.empty() ? "?" : first; }
};

// One C simulation: the sequential run (`csim`), the threaded one, or the shipped project's.
struct SimRun {
  enum class Status { Pass, Fail, Deadlock, OutOfTime };
  Status status = Status::Fail;
  bool completed = false;  // the run reached its end (errors measured)
  // The errors against the reference; none when the run did not complete, or NaN.
  std::optional<double> max_abs_error, max_rel_error, max_scaled_error, max_column_rel_error;
  std::vector<ColumnError> worst_columns;
  std::vector<OutputError> outputs;  // each output's, in the design's output order
  OverflowReport overflow;
  // Threaded, at a deadlock: each blocked process and the FIFO op it waits on.
  std::vector<std::pair<std::string, std::string>> waits;
  std::string error;  // why it failed without a verdict on the numbers ("" otherwise)
  bool pass() const { return status == Status::Pass; }
};

// The recorded FIFO ops against dataflow::schedule (check_trace).
struct TraceCheck {
  bool pass = false;
  int64_t processes_checked = 0;
  std::string mismatch_process, mismatch_detail;  // the first mismatch, when !pass
};

// The shipped project's `make csim && ./csim data`, or why it was not run.
struct ProjectRun {
  std::string command;
  std::string skipped;  // non-empty: not run, and why
  SimRun run;
};

// Everything run_simulations ran; a mode not run is absent.
struct SimVerdicts {
  std::string type;  // the number type simulated (csim's `type`)
  std::optional<SimRun> csim, threaded;
  std::optional<TraceCheck> trace;
  std::optional<ProjectRun> project;
};

// A simulation driver's result line (inrarch/sim_driver.h prints one JSON object) as a run:
// its figures, deadlock or out-of-time status and error; Fail until the caller judges it.
SimRun sim_run_from_driver(const nlohmann::json& line);

// report.json's verification section (docs/report.md), and one mode's part of it.
nlohmann::json to_json(const SimVerdicts& v);
nlohmann::json to_json(const TraceCheck& t);
nlohmann::json to_json(const ProjectRun& p);

}  // namespace inrarch::hls
