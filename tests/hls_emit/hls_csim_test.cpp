// The generated project computes what the reference interpreter computes: INSP orders 1
// and 2 (batch 8; width 16, and the paper's 256 at order 1) in ap_fixed<32,10> and in
// float, through all three simulation modes of one generated driver (sequential csim,
// threaded at the sized depths, trace).

#include "hls_test_util.h"

namespace inrarch::hls {
namespace {

using hls_test::insp_case;
using hls_test::out_dir;

SimVerdicts run_insp(int64_t width, const std::string& type, const std::string& name,
                        int order = 1, int64_t batch = 8) {
  auto c = insp_case(width, order, batch);
  HlsOptions opt;
  opt.type = parse_number_type(type);
  fs::path dir = out_dir(name);
  emit_hls(c.design, c.bundle, opt, dir);
  const SimVerdicts v = run_simulations(c.design, dir, opt);
  std::printf("%s\n", to_json(v).dump().c_str());
  return v;
}

void expect_all_modes_pass(const SimVerdicts& v, int min_processes) {
  EXPECT_TRUE(v.csim->pass()) << to_json(v).dump();
  EXPECT_TRUE(v.threaded->pass()) << to_json(v).dump();
  EXPECT_FALSE((v.threaded->status == SimRun::Status::Deadlock));
  EXPECT_TRUE(v.trace->pass) << to_json(*v.trace).dump();
  EXPECT_GE(int(v.trace->processes_checked), min_processes);
}

// Float is judged by the relative error (its resolution is relative).
void expect_float_pass(const SimVerdicts& v) {
  EXPECT_TRUE(v.csim->pass()) << to_json(v).dump();
  EXPECT_LE(v.csim->max_rel_error.value(), 1e-4);
}

TEST(HlsCsim, InspOrder1Fixed32_10AllModes) {
  const SimVerdicts v = run_insp(16, "fixed<32,10>", "insp_fixed");
  expect_all_modes_pass(v, 51);
  EXPECT_EQ(v.type, "fixed<32,10>");
  EXPECT_LE(v.csim->max_abs_error.value(), 1e-3);
  EXPECT_GE(v.csim->max_abs_error.value(), 0.0);
}

TEST(HlsCsim, InspOrder1Float) { expect_float_pass(run_insp(16, "float", "insp_float")); }

// INSP order 2 (21 outputs, 250 processes at width 16) in the paper's type.
TEST(HlsCsim, InspOrder2Fixed32_10AllModes) {
  const SimVerdicts v = run_insp(16, "fixed<32,10>", "insp2_fixed", 2);
  expect_all_modes_pass(v, 200);
  EXPECT_LE(v.csim->max_abs_error.value(), 1e-3);
}

TEST(HlsCsim, InspOrder2Float) { expect_float_pass(run_insp(16, "float", "insp2_float", 2)); }

// The paper's width (256) at the test batch: 4 x 65,536-entry weight ROMs per chain.
TEST(HlsCsim, InspOrder1Width256Fixed32_10) {
  const SimVerdicts v = run_insp(256, "fixed<32,10>", "insp_256", 1);
  expect_all_modes_pass(v, 70);
  EXPECT_LE(v.csim->max_abs_error.value(), 1e-3);
}

// The PASS bound is real: 12-bit fixed point cannot meet 1e-3.
TEST(HlsCsim, NarrowFixedFails) {
  auto c = insp_case(16);
  HlsOptions opt;
  opt.type = parse_number_type("fixed<12,6>");
  fs::path dir = out_dir("insp_narrow");
  emit_hls(c.design, c.bundle, opt, dir);
  SimOptions sim;
  sim.threaded = sim.trace = false;
  const SimVerdicts v = run_simulations(c.design, dir, opt, sim);
  EXPECT_FALSE(v.csim->pass()) << to_json(v).dump();
  EXPECT_GT(v.csim->max_abs_error.value(), 1e-3);
}

TEST(HlsOptions, NumberTypes) {
  EXPECT_EQ(parse_number_type("fixed<24,8>").cpp(), "ap_fixed<24,8>");
  EXPECT_EQ(parse_number_type("ap_fixed<32,10>").name(), "fixed<32,10>");
  EXPECT_EQ(parse_number_type("float").cpp(), "float");
  EXPECT_EQ(parse_number_type("double").name(), "double");
  EXPECT_THROW(parse_number_type("fixed<80,10>"), Error);
  EXPECT_THROW(parse_number_type("half"), Error);
  EXPECT_EQ(HlsOptions{}.type.name(), "fixed<32,10>");
}

}  // namespace
}  // namespace inrarch::hls
