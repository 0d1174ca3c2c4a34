// What run_rtl finds, typed: the testbenches' result lines, the trace check, the tools'
// verdicts. The driver reads these fields; to_json writes report.json's verification.rtl
// (docs/report.md, docs/rtl.md), the only place they become JSON.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>

#include <nlohmann/json_fwd.hpp>

namespace inrarch::rtl {

// A testbench's result line (Verilator's tb_main.cpp and Icarus's tb_top.sv print the same).
struct TestbenchRun {
  bool hang = false;
  int64_t cycles = -1;  // from the first input beat to the last output beat
  int64_t first_in = -1, last_out = -1, last_op = -1;
  std::optional<bool> bit_exact;  // none: no expected bits were given
  int64_t mismatches = 0;
  std::string first_mismatch;
  std::map<std::string, bool> overflow_flags;     // output port: the top's sticky flag
  std::map<std::string, int64_t> overflow_beats;  // output port: beats with ovf set
};

// A recorded trace against the schedules (check_rtl_trace).
struct RtlTraceCheck {
  bool pass = false;
  int64_t ops_checked = 0;
  std::string mismatch;  // the first, when !pass
};

// Icarus's run of the same testbench, or why there is none.
struct IcarusRun {
  std::string skipped, error;
  std::optional<TestbenchRun> run;
};

struct RtlRun {
  bool pass = false;
  int64_t model_cycles = -1, model_latency = -1;  // the event graph's (model_times), -1: it deadlocks
  std::string lint, iverilog, yosys;              // each tool's verdict, "" when not run
  std::optional<IcarusRun> icarus;
  std::optional<TestbenchRun> verilator;  // none when the testbench did not build or print
  bool cycle_exact = false;  // unstalled, and every end time equals the event graph's
  std::optional<RtlTraceCheck> trace;
  bool overflow_flag = false;          // any of the top's flags set
  std::string overflow_flag_mismatch;  // a flag that disagrees with its port's beats
  std::string error;                   // why there is no verdict on the bits
  bool hang() const { return verilator && verilator->hang; }
  bool bit_exact() const { return verilator && verilator->bit_exact.value_or(false); }
  int64_t cycles() const { return verilator ? verilator->cycles : -1; }
};

// A testbench's result line as a run; nullopt when it is not one.
std::optional<TestbenchRun> testbench_run(const nlohmann::json& line);

// report.json's verification.rtl, and the parts of it.
nlohmann::json to_json(const RtlRun& r);
nlohmann::json to_json(const TestbenchRun& r);
nlohmann::json to_json(const RtlTraceCheck& t);

}  // namespace inrarch::rtl
