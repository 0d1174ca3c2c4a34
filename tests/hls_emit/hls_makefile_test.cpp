// The generated Makefile as a user runs it: `make sim` builds the simulation driver into
// sim/ (where compile's runs leave it and their logs), even though sim/ already exists;
// `make run` builds and runs the testbench.
#include <cstdlib>

#include "hls_test_util.h"

namespace inrarch::hls {
namespace {

int make(const fs::path& dir, const std::string& target) {
  std::string cmd = "make -s -C '" + dir.string() + "' " + target + " > '" +
                    (dir / ("make_" + target + ".log")).string() + "' 2>&1";
  return std::system(cmd.c_str());
}

TEST(HlsMakefile, SimTargetBuildsTheDriverBesideTheLogs) {
  auto c = hls_test::insp_case(8, 1, 2);
  HlsOptions opt;
  fs::path dir = hls_test::out_dir("makefile");
  emit_hls(c.design, c.bundle, opt, dir);
  SimOptions sim;
  sim.threaded = sim.trace = false;
  ASSERT_TRUE(run_simulations(c.design, dir, opt, sim).csim->pass());
  ASSERT_TRUE(fs::is_directory(dir / "sim"));
  fs::remove(dir / "sim" / "sim");
  EXPECT_EQ(make(dir, "sim"), 0) << hls_test::read_file(dir / "make_sim.log");
  EXPECT_TRUE(fs::exists(dir / "sim" / "sim"));
  EXPECT_EQ(make(dir, "run"), 0) << hls_test::read_file(dir / "make_run.log");
  EXPECT_NE(hls_test::read_file(dir / "make_run.log").find("PASS"), std::string::npos);
}

}  // namespace
}  // namespace inrarch::hls
