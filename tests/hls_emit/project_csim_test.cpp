// The generated project's own C simulation, run as a user runs it (`make run` in OUT/hls:
// testbench.cpp + model.cpp with g++, no golden text involved), passes for INSP; and it is
// really those files that are checked: a changed weight in weights.h makes it fail. The
// other simulations run that same model.cpp under the driver: a change to it shows there.
#include <gtest/gtest.h>

#include <fstream>
#include <regex>

#include "hls_test_util.h"
#include "support/process.h"

namespace inrarch::hls {
namespace {

int make_run(const fs::path& dir, const std::string& log) {
  return run_command("make -C '" + dir.string() + "' run > '" + (dir / log).string() + "' 2>&1", 600)
      .exit_code;
}

TEST(ProjectCsim, MakeRunPassesAndFailsOnAChangedWeight) {
  hls_test::InspCase c = hls_test::insp_case(16);
  HlsOptions opt;
  opt.rows = 8;
  const fs::path dir = hls_test::out_dir("project_csim");
  emit_hls(c.design, c.bundle, opt, dir);
  ASSERT_EQ(make_run(dir, "run1.log"), 0) << hls_test::read_file(dir / "run1.log");
  const std::string log = hls_test::read_file(dir / "run1.log");
  EXPECT_NE(log.find(": PASS"), std::string::npos) << log;
  // The same run as compile makes it, with the testbench's figures read back.
  fs::create_directories(dir / "sim");
  ProjectRun v = run_project_csim(dir, SimOptions{});
  EXPECT_TRUE(v.run.pass()) << to_json(v).dump();
  EXPECT_GT(v.run.max_abs_error.value(), 0.0) << to_json(v).dump();
  EXPECT_LT(v.run.max_abs_error.value(), 1e-3) << to_json(v).dump();

  // The first value of the first ROM (a weight of the first layer), made 1.5 larger.
  std::string weights = hls_test::read_file(dir / "weights.h");
  std::smatch m;
  const std::regex first_value(R"(#define INRARCH_VALUES_\w+ \\\n\s*(-?[0-9.]+))");
  ASSERT_TRUE(std::regex_search(weights, m, first_value));
  const double w = std::stod(m[1]);
  weights.replace(m.position(1), m.length(1), std::to_string(w + 1.5));
  std::ofstream(dir / "weights.h") << weights;
  EXPECT_NE(make_run(dir, "run2.log"), 0);
  EXPECT_NE(hls_test::read_file(dir / "run2.log").find(": FAIL"), std::string::npos)
      << hls_test::read_file(dir / "run2.log");
  v = run_project_csim(dir, SimOptions{});
  EXPECT_FALSE(v.run.pass()) << to_json(v).dump();
  EXPECT_GT(v.run.max_abs_error.value(), 1e-3) << to_json(v).dump();
}


// run_simulations builds the shipped model.cpp (make sim), not a copy of its kernel calls:
// one sin made a cos in model.cpp fails the sequential and threaded runs on the values,
// while every process still follows its schedule (the trace passes).
TEST(ProjectCsim, TheSimulationsRunTheShippedTop) {
  hls_test::InspCase c = hls_test::insp_case(16);
  HlsOptions opt;
  opt.rows = 8;
  const fs::path dir = hls_test::out_dir("project_sims");
  emit_hls(c.design, c.bundle, opt, dir);
  SimVerdicts v = run_simulations(c.design, dir, opt);
  ASSERT_TRUE(v.csim->pass()) << to_json(v).dump();
  ASSERT_TRUE(v.threaded->pass()) << to_json(v).dump();

  std::string model = hls_test::read_file(dir / "model.cpp");
  const size_t at = model.find("op_sin");
  ASSERT_NE(at, std::string::npos);
  model.replace(at, 6, "op_cos");
  std::ofstream(dir / "model.cpp") << model;
  v = run_simulations(c.design, dir, opt);
  EXPECT_FALSE(v.csim->pass()) << to_json(v).dump();
  EXPECT_GT(v.csim->max_abs_error.value(), 1e-2) << to_json(v).dump();
  EXPECT_FALSE(v.threaded->pass()) << to_json(v).dump();
  EXPECT_TRUE(v.trace->pass) << to_json(v).dump();

  // A top whose region is never closed cannot run threaded, and says why.
  model.erase(model.find("INRARCH_DATAFLOW_END"), std::string("INRARCH_DATAFLOW_END").size());
  std::ofstream(dir / "model.cpp") << model;
  v = run_simulations(c.design, dir, opt);
  EXPECT_FALSE(v.threaded->pass()) << to_json(v).dump();
  EXPECT_NE(v.threaded->error.find("INRARCH_DATAFLOW_END"), std::string::npos) << to_json(v).dump();
}

// One value output under three names (as Taylor mode's symmetric partials are): the copy
// that writes the ports sets every overflow flag (copy_stream_ports), 0 within the range
// and 1 when an input saturates.
TEST(ProjectCsim, AValueOutputUnderSeveralNamesSetsEveryFlag) {
  for (double scale : {1.0, 100.0}) {
    // 100: outside fixed<16,4>'s [-8, 8)
    const ir::Bundle b = hls_test::one_value_named({"a", "b", "c"}, scale);
    HlsOptions opt;
    opt.type = parse_number_type("fixed<16,4>");
    opt.pow2_scaling = false;
    const dataflow::Design d = dataflow::lower(b.graph);
    const fs::path dir = hls_test::out_dir("two_names");
    emit_hls(d, b, opt, dir);
    EXPECT_NE(hls_test::read_file(dir / "model.cpp").find("copy_stream_ports("), std::string::npos);
    const bool out = scale > 1;
    EXPECT_EQ(make_run(dir, "run.log") != 0, out);
    const std::string log = hls_test::read_file(dir / "run.log");
    EXPECT_NE(log.find(out ? "overflow_flag: 1 a, b, c" : "overflow_flag: 0"), std::string::npos) << log;
    const SimVerdicts v = run_simulations(d, dir, opt);
    const std::vector<std::string> flagged = out ? std::vector<std::string>{"a", "b", "c"} : std::vector<std::string>{};
    EXPECT_EQ(v.threaded->overflow.flagged, flagged) << to_json(v).dump();
  }
}

}  // namespace
}  // namespace inrarch::hls
