// CompileResult: the typed figures written by to_json over the untyped sections, the
// simulations' verdicts read from their section, the verdict words and the exit code.
#include <gtest/gtest.h>

#include "driver/compile_result.h"

namespace inrarch::driver {
namespace {

using json = nlohmann::json;

json sample_verification() {
  return json::parse(R"({
      "csim": {"pass": true, "max_abs_error": 2.5e-7, "max_rel_error": null, "overflows": 3,
               "first_overflow": "mm_4",
               "worst_columns": [{"output": "out3", "column": 1, "rel_error": 1.2e-4, "max_abs_error": 2e-7}]},
      "threaded": {"pass": false, "deadlock": true, "out_of_time": false},
      "trace": {"pass": false, "processes_checked": 0},
      "project": {"skipped": "1200 processes"}
  })");
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

TEST(CompileResult, ReadsTheVerdictsOfTheSimulations) {
  const Verification v = verification_from_json(sample_verification());
  EXPECT_EQ(v.csim.text(), "PASS");
  EXPECT_EQ(*v.csim.max_abs_error, 2.5e-7);
  EXPECT_FALSE(v.csim.max_rel_error.has_value());  // null (NaN) is no figure
  EXPECT_EQ(v.csim.overflows, 3);
  EXPECT_EQ(v.csim.first_overflow, "mm_4");
  EXPECT_EQ(v.threaded.overflows, 0);
  EXPECT_EQ(v.threaded.text(), "FAIL (deadlock)");
  EXPECT_EQ(v.trace.text(), "FAIL");
  EXPECT_EQ(v.project.text(), "skipped");
  ASSERT_TRUE(v.worst_column.has_value());
  EXPECT_EQ(v.worst_column->output, "out3");
  EXPECT_EQ(v.worst_column->column, 1);
  CompileResult r = sample_result();
  r.verification = v;
  EXPECT_EQ(r.exit_code(), 2);
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
  json v = {{"csim", {{"pass", true}}}, {"project", {{"skipped", "large"}}}};
  r.verification = verification_from_json(v);
  EXPECT_EQ(r.exit_code(), 0);
  v["csim"] = {{"pass", false}, {"out_of_time", true}};
  r.verification = verification_from_json(v);
  EXPECT_EQ(r.verification->csim.text(), "FAIL (out of time)");
  EXPECT_EQ(r.verification->threaded.text(), "not run");
  EXPECT_EQ(r.exit_code(), 2);
  // The RTL run counts like the C simulations: a failed or hung run fails the compile.
  v["csim"] = {{"pass", true}};
  v["rtl"] = {{"pass", true}, {"bit_exact", true}, {"hang", false}};
  r.verification = verification_from_json(v);
  EXPECT_EQ(r.exit_code(), 0);
  r.verification->rtl = sim_result_from_json({{"pass", false}, {"bit_exact", true}, {"hang", true}});
  EXPECT_EQ(r.verification->rtl.text(), "FAIL");
  EXPECT_EQ(r.exit_code(), 2);
  r.verification.reset();
  EXPECT_EQ(r.exit_code(), 0);
}

// The C simulations list the flagged outputs; the RTL run maps every port to its flag.
// Both read as the list of flagged ports.
TEST(CompileResult, OverflowFlagsAsAListOrAMap) {
  json s;
  s["verification"] = {{"csim", {{"pass", false}, {"overflow_flag", true}, {"overflow_flags", json::array({"out0", "out2"})}}},
                       {"rtl", {{"pass", false}, {"overflow_flag", true},
                                {"overflow_flags", {{"out_out0", true}, {"out_out1", false}, {"out_out2", true}}}}}};
  const Verification v = verification_from_json(s["verification"]);
  EXPECT_EQ(v.csim.overflow_flags, (std::vector<std::string>{"out0", "out2"}));
  EXPECT_EQ(v.rtl.overflow_flags, (std::vector<std::string>{"out_out0", "out_out2"}));
  EXPECT_EQ(v.rtl.text(), "FAIL");
  s["verification"]["rtl"] = {{"pass", true}, {"overflow_flag", false}, {"overflow_flags", {{"out_out0", false}}}};
  EXPECT_TRUE(verification_from_json(s["verification"]).rtl.overflow_flags.empty());
}

}  // namespace
}  // namespace inrarch::driver
