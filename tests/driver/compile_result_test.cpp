// CompileResult: the typed figures written by to_json over the untyped sections, the
// simulations' verdicts summarised and written as report.json's verification section, the
// verdict words and the exit code.
#include <gtest/gtest.h>

#include "driver/compile_result.h"

namespace inrarch::driver {
namespace {

using json = nlohmann::json;

// The C simulations' verdicts as hls::run_simulations returns them: csim passed with three
// saturated values, threaded deadlocked, the trace failed, the project skipped.
hls::SimVerdicts sample_verdicts() {
  hls::SimVerdicts v;
  v.type = "fixed<32,10>";
  hls::SimRun csim;
  csim.status = hls::SimRun::Status::Pass;
  csim.completed = true;
  csim.max_abs_error = 2.5e-7;  // max_rel_error: NaN, no figure
  csim.overflow.count = 3;
  csim.overflow.first = "mm_4";
  csim.worst_columns = {{"out3", 1, 2e-7, 1.2e-4}};
  v.csim = csim;
  hls::SimRun threaded;
  threaded.status = hls::SimRun::Status::Deadlock;
  threaded.waits = {{"mul_4", "read s_mm_2__mul_4"}};
  v.threaded = threaded;
  v.trace = hls::TraceCheck{false, 0, "", ""};
  v.project = hls::ProjectRun{"", "1200 processes", {}};
  return v;
}

// A result as the flow sets it (driver/flow.cpp), with untyped sections beside.
CompileResult sample_result() {
  CompileResult r;
  r.out_dir = "out";
  r.graph = {"insp", 9, 95, 59};
  r.design = {73, 81, true};
  r.fifo = {"min", 306, 304, 393, 12576, 6};
  r.performance = {19, 16.11, "u50", 0.171, 0.014, 0, 0.057, 0.022, false, "dsp"};
  r.number_type = "fixed<32,10>";
  r.sections = json::parse(R"({
    "graph": {"nodes_imported": 120, "passes": [{"name": "cse"}]},
    "design": {"kernels": {"mm": 9}},
    "analysis": {"rows": 8},
    "fifo": {"depths": {"s": 3}},
    "resources": {"part": {"dsp": 5952}},
    "hls": {"top": "model_top"}
  })");
  return r;
}

TEST(CompileResult, SummarisesTheVerdictsOfTheSimulations) {
  const Verification v = verification_of(sample_verdicts());
  EXPECT_EQ(v.csim.text(), "PASS");
  EXPECT_EQ(*v.csim.max_abs_error, 2.5e-7);
  EXPECT_FALSE(v.csim.max_rel_error.has_value());  // NaN is no figure
  EXPECT_EQ(v.csim.overflows, 3);
  EXPECT_EQ(v.csim.first_overflow, "mm_4");
  EXPECT_EQ(v.threaded.overflows, 0);
  EXPECT_EQ(v.threaded.text(), "FAIL (deadlock)");
  EXPECT_EQ(v.trace.text(), "FAIL");
  EXPECT_EQ(v.project.text(), "skipped");
  EXPECT_EQ(v.rtl.text(), "not run");
  ASSERT_TRUE(v.worst_column.has_value());
  EXPECT_EQ(v.worst_column->output, "out3");
  EXPECT_EQ(v.worst_column->column, 1);
  EXPECT_EQ(*v.worst_column->rel_error, 1.2e-4);
  CompileResult r = sample_result();
  r.verification = v;
  EXPECT_EQ(r.exit_code(), 2);
}

// report.json's verification section is written from the typed verdicts, with the keys
// docs/report.md lists.
TEST(CompileResult, WritesTheVerificationSectionFromTheVerdicts) {
  CompileResult r = sample_result();
  r.verification = verification_of(sample_verdicts());
  const json v = r.to_json()["verification"];
  EXPECT_EQ(v["csim"]["pass"], true);
  EXPECT_EQ(v["csim"]["type"], "fixed<32,10>");
  EXPECT_EQ(v["csim"]["max_abs_error"], 2.5e-7);
  EXPECT_TRUE(v["csim"]["max_rel_error"].is_null());
  EXPECT_EQ(v["csim"]["overflows"], 3);
  EXPECT_EQ(v["csim"]["first_overflow"], "mm_4");
  EXPECT_EQ(v["csim"]["worst_columns"][0]["output"], "out3");
  EXPECT_EQ(v["csim"]["worst_columns"][0]["rel_error"], 1.2e-4);
  EXPECT_EQ(v["threaded"]["deadlock"], true);
  EXPECT_EQ(v["threaded"]["out_of_time"], false);
  EXPECT_EQ(v["threaded"]["waits"][0]["process"], "mul_4");
  EXPECT_EQ(v["threaded"]["waits"][0]["waits"], "read s_mm_2__mul_4");
  EXPECT_EQ(v["trace"], (json{{"pass", false}, {"processes_checked", 0}}));
  EXPECT_EQ(v["project"], (json{{"skipped", "1200 processes"}}));
  EXPECT_FALSE(v.contains("rtl"));
  rtl::RtlRun run;
  run.pass = true;
  run.model_cycles = 40;
  run.verilator = rtl::TestbenchRun{false, 40, 1, 40, 41, true, 0, "", {{"out_y", false}}, {{"out_y", 0}}};
  add_rtl_run(*r.verification, run);
  const json rj = r.to_json()["verification"]["rtl"];
  EXPECT_EQ(rj["pass"], true);
  EXPECT_EQ(rj["bit_exact"], true);
  EXPECT_EQ(rj["cycles"], 40);
  EXPECT_EQ(rj["model_cycles"], 40);
  EXPECT_EQ(rj["overflow_flags"], (json{{"out_y", false}}));
}

TEST(CompileResult, ToJsonWritesTheTypedFiguresAndKeepsTheRest) {
  CompileResult r = sample_result();
  json j = r.to_json();
  EXPECT_EQ(j["graph"]["name"], "insp");
  EXPECT_EQ(j["graph"]["op_nodes_optimized"], 59);
  EXPECT_EQ(j["design"]["processes"], 73);
  EXPECT_EQ(j["analysis"]["deadlock_free"], true);
  EXPECT_EQ(j["fifo"]["latency_cycles"], 306);
  EXPECT_EQ(j["fifo"]["bram18k"], 6);
  EXPECT_EQ(j["floor"]["latency_over_floor"], 16.11);
  EXPECT_EQ(j["resources"]["part"]["name"], "u50");
  EXPECT_EQ(j["resources"]["utilisation"]["dsp"], 0.171);
  EXPECT_EQ(j["resources"]["fits"], false);
  EXPECT_EQ(j["resources"]["over"], "dsp");
  EXPECT_EQ(j["hls"]["type"], "fixed<32,10>");
  EXPECT_EQ(j["fifo"]["depths"]["s"], 3);          // untyped detail kept
  EXPECT_EQ(j["graph"]["passes"][0]["name"], "cse");
  EXPECT_EQ(j["resources"]["part"]["dsp"], 5952);
  EXPECT_EQ(j["hls"]["top"], "model_top");
  r.fifo.latency_cycles.reset();  // a deadlocked design: null, as docs/report.md says
  r.performance.over.clear();
  r.number_type.clear();         // no HLS code: no type written
  r.sections["hls"].erase("top");
  j = r.to_json();
  EXPECT_TRUE(j["fifo"]["latency_cycles"].is_null());
  EXPECT_TRUE(j["resources"]["over"].is_null());
  EXPECT_FALSE(j["hls"].contains("type"));
}

TEST(CompileResult, ExitCodeIgnoresSkippedAndMissingModes) {
  CompileResult r = sample_result();
  hls::SimVerdicts v;
  v.csim = hls::SimRun{};
  v.csim->status = hls::SimRun::Status::Pass;
  v.project = hls::ProjectRun{"", "large", {}};
  r.verification = verification_of(v);
  EXPECT_EQ(r.exit_code(), 0);
  v.csim->status = hls::SimRun::Status::OutOfTime;
  r.verification = verification_of(v);
  EXPECT_EQ(r.verification->csim.text(), "FAIL (out of time)");
  EXPECT_EQ(r.verification->threaded.text(), "not run");
  EXPECT_EQ(r.exit_code(), 2);
  // The RTL run counts like the C simulations: a failed or hung run fails the compile.
  v.csim->status = hls::SimRun::Status::Pass;
  r.verification = verification_of(v);
  rtl::RtlRun run;
  run.pass = true;
  add_rtl_run(*r.verification, run);
  EXPECT_EQ(r.exit_code(), 0);
  run.pass = false;
  run.verilator = rtl::TestbenchRun{};
  run.verilator->hang = true;
  add_rtl_run(*r.verification, run);
  EXPECT_EQ(r.verification->rtl.text(), "FAIL");
  EXPECT_EQ(r.exit_code(), 2);
  r.verification.reset();
  EXPECT_EQ(r.exit_code(), 0);
}

// The C simulations list the flagged outputs; the RTL run maps every port to its flag.
// Both summarise as the list of flagged ports.
TEST(CompileResult, OverflowFlagsAsAListOrAMap) {
  hls::SimVerdicts v;
  v.csim = hls::SimRun{};
  v.csim->overflow.flag = true;
  v.csim->overflow.flagged = {"out0", "out2"};
  Verification s = verification_of(v);
  EXPECT_EQ(s.csim.overflow_flags, (std::vector<std::string>{"out0", "out2"}));
  EXPECT_EQ(s.csim.first_overflow, "?");  // a flag without a count names no process
  rtl::RtlRun run;
  run.verilator = rtl::TestbenchRun{};
  run.verilator->overflow_flags = {{"out_out0", true}, {"out_out1", false}, {"out_out2", true}};
  add_rtl_run(s, run);
  EXPECT_EQ(s.rtl.overflow_flags, (std::vector<std::string>{"out_out0", "out_out2"}));
  EXPECT_EQ(s.rtl.text(), "FAIL");
  run.pass = true;
  run.verilator->overflow_flags = {{"out_out0", false}};
  add_rtl_run(s, run);
  EXPECT_TRUE(s.rtl.overflow_flags.empty());
}

}  // namespace
}  // namespace inrarch::driver
