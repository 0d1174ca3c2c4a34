// CompileResult: the typed figures read from report sections, written back by to_json,
// the verdict words and the exit code.
#include <gtest/gtest.h>

#include "driver/compile_result.h"

namespace inrarch::driver {
namespace {

using json = nlohmann::json;

json sample_sections() {
  return json::parse(R"({
    "graph": {"name": "insp", "outputs": 9, "op_nodes_imported": 95, "op_nodes_optimized": 59,
              "passes": [{"name": "cse"}]},
    "design": {"processes": 73, "streams": 81, "kernels": {"mm": 9}},
    "analysis": {"deadlock_free": true, "rows": 8},
    "fifo": {"method": "min", "latency_cycles": 306, "peak_latency_cycles": 304,
             "total_depth": 393, "total_bits": 12576, "bram18k": 6, "depths": {"s": 3}},
    "floor": {"cycles": 19, "latency_over_floor": 16.11},
    "resources": {"part": {"name": "u50", "dsp": 5952},
                  "utilisation": {"dsp": 0.171, "bram18k": 0.014, "uram": 0, "lut": 0.057, "ff": 0.022},
                  "fits": false, "over": "dsp"},
    "hls": {"type": "fixed<32,10>", "top": "model_top"},
    "verification": {
      "csim": {"pass": true, "max_abs_error": 2.5e-7, "max_rel_error": null, "overflows": 3,
               "first_overflow": "mm_4",
               "worst_columns": [{"output": "out3", "column": 1, "rel_error": 1.2e-4, "max_abs_error": 2e-7}]},
      "threaded": {"pass": false, "deadlock": true, "out_of_time": false},
      "trace": {"pass": false, "processes_checked": 0},
      "project": {"skipped": "1200 processes"}}
  })");
}

TEST(CompileResult, ReadsTheTypedFiguresFromTheSections) {
  CompileResult r = result_from_sections(sample_sections(), "out");
  EXPECT_EQ(r.graph.name, "insp");
  EXPECT_EQ(r.graph.op_nodes_optimized, 59);
  EXPECT_EQ(r.design.processes, 73);
  EXPECT_TRUE(r.design.deadlock_free);
  ASSERT_TRUE(r.fifo.latency_cycles.has_value());
  EXPECT_EQ(*r.fifo.latency_cycles, 306);
  EXPECT_EQ(r.fifo.bram18k, 6);
  EXPECT_DOUBLE_EQ(r.performance.latency_over_floor, 16.11);
  EXPECT_EQ(r.performance.part, "u50");
  EXPECT_DOUBLE_EQ(r.performance.dsp, 0.171);
  EXPECT_FALSE(r.performance.fits);
  EXPECT_EQ(r.performance.over, "dsp");
  EXPECT_EQ(r.number_type, "fixed<32,10>");
  ASSERT_TRUE(r.verification.has_value());
  const Verification& v = *r.verification;
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
  EXPECT_EQ(r.exit_code(), 2);
}

TEST(CompileResult, ToJsonWritesTheTypedFiguresAndKeepsTheRest) {
  CompileResult r = result_from_sections(sample_sections(), "out");
  r.fifo.latency_cycles.reset();  // a deadlocked design: null, as docs/report.md says
  r.design.processes = 74;
  json j = r.to_json();
  EXPECT_TRUE(j["fifo"]["latency_cycles"].is_null());
  EXPECT_EQ(j["design"]["processes"], 74);
  EXPECT_EQ(j["fifo"]["depths"]["s"], 3);          // untyped detail kept
  EXPECT_EQ(j["graph"]["passes"][0]["name"], "cse");
  EXPECT_EQ(j["resources"]["part"]["dsp"], 5952);
  CompileResult back = result_from_sections(j, "out");
  EXPECT_FALSE(back.fifo.latency_cycles.has_value());
  EXPECT_EQ(back.design.processes, 74);
  EXPECT_EQ(back.performance.over, "dsp");
}

TEST(CompileResult, ExitCodeIgnoresSkippedAndMissingModes) {
  json s = sample_sections();
  s["verification"] = {{"csim", {{"pass", true}}}, {"project", {{"skipped", "large"}}}};
  EXPECT_EQ(result_from_sections(s, "out").exit_code(), 0);
  s["verification"]["csim"] = {{"pass", false}, {"out_of_time", true}};
  CompileResult r = result_from_sections(s, "out");
  EXPECT_EQ(r.verification->csim.text(), "FAIL (out of time)");
  EXPECT_EQ(r.verification->threaded.text(), "not run");
  EXPECT_EQ(r.exit_code(), 2);
  // The RTL run counts like the C simulations: a failed or hung run fails the compile.
  s["verification"]["csim"] = {{"pass", true}};
  s["verification"]["rtl"] = {{"pass", true}, {"bit_exact", true}, {"hang", false}};
  EXPECT_EQ(result_from_sections(s, "out").exit_code(), 0);
  s["verification"]["rtl"] = {{"pass", false}, {"bit_exact", true}, {"hang", true}};
  EXPECT_EQ(result_from_sections(s, "out").verification->rtl.text(), "FAIL");
  EXPECT_EQ(result_from_sections(s, "out").exit_code(), 2);
  s.erase("verification");
  EXPECT_FALSE(result_from_sections(s, "out").verification.has_value());
  EXPECT_EQ(result_from_sections(s, "out").exit_code(), 0);
}

// The C simulations list the flagged outputs; the RTL run maps every port to its flag.
// Both read as the list of flagged ports.
TEST(CompileResult, OverflowFlagsAsAListOrAMap) {
  json s = sample_sections();
  s["verification"] = {{"csim", {{"pass", false}, {"overflow_flag", true}, {"overflow_flags", json::array({"out0", "out2"})}}},
                       {"rtl", {{"pass", false}, {"overflow_flag", true},
                                {"overflow_flags", {{"out_out0", true}, {"out_out1", false}, {"out_out2", true}}}}}};
  const Verification v = *result_from_sections(s, "out").verification;
  EXPECT_EQ(v.csim.overflow_flags, (std::vector<std::string>{"out0", "out2"}));
  EXPECT_EQ(v.rtl.overflow_flags, (std::vector<std::string>{"out_out0", "out_out2"}));
  EXPECT_EQ(v.rtl.text(), "FAIL");
  s["verification"]["rtl"] = {{"pass", true}, {"overflow_flag", false}, {"overflow_flags", {{"out_out0", false}}}};
  EXPECT_TRUE(result_from_sections(s, "out").verification->rtl.overflow_flags.empty());
}

}  // namespace
}  // namespace inrarch::driver
