// The memory-mapped kernel emitted beside every project (OUT/hls/kernel/, docs/hls.md
// "Memory-mapped kernel"), run as a user runs it: `make csim` builds kernel_tb with g++
// against the project's model.cpp and passes with the project testbench's own figures; it
// fails on a changed weight as the project's csim does, and on output bits that differ
// from model_top's on streams even where the error is within the bound. Float containers,
// a design streamed as whole arrays, 16-bit containers and saturated inputs; the v++
// targets without Vitis.
#include <gtest/gtest.h>

#include <fstream>
#include <regex>

#include "hls_test_util.h"
#include "support/process.h"

namespace inrarch::hls {
namespace {

// `make TARGET` in dir with its output in dir/log; the exit code.
int make(const fs::path& dir, const std::string& target, const std::string& log, const std::string& env = "") {
  return run_command(env + "make -C '" + dir.string() + "' " + target + " > '" + (dir / log).string() + "' 2>&1",
                     600)
      .exit_code;
}

std::string first_line(const std::string& log, const std::string& start) {
  const size_t at = log.find(start);
  return at == std::string::npos ? "" : log.substr(at, log.find('\n', at) - at);
}

void replace_once(const fs::path& file, const std::string& from, const std::string& to) {
  std::string text = hls_test::read_file(file);
  const size_t at = text.find(from);
  ASSERT_NE(at, std::string::npos) << from << " not in " << file;
  text.replace(at, from.size(), to);
  std::ofstream(file) << text;
}

TEST(HlsKernel, MakeCsimPassesAndFailsOnAChangedWeight) {
  hls_test::InspCase c = hls_test::insp_case(8);
  HlsOptions opt;
  opt.rows = 8;
  const fs::path dir = hls_test::out_dir("kernel_csim");
  emit_hls(c.design, c.bundle, opt, dir);
  ASSERT_EQ(make(dir / "kernel", "csim", "csim1.log"), 0) << hls_test::read_file(dir / "kernel" / "csim1.log");
  ASSERT_EQ(make(dir, "run", "run1.log"), 0) << hls_test::read_file(dir / "run1.log");
  std::string log = hls_test::read_file(dir / "kernel" / "csim1.log");
  EXPECT_NE(log.find(": PASS"), std::string::npos) << log;
  EXPECT_NE(log.find("kernel vs model_top on streams: bit-identical"), std::string::npos) << log;
  // The same figures as the project's testbench, to the printed digit.
  EXPECT_EQ(first_line(log, "type "), first_line(hls_test::read_file(dir / "run1.log"), "type ")) << log;
  // Fewer samples than compiled: rows is a run-time argument.
  EXPECT_EQ(run_command("cd '" + (dir / "kernel").string() + "' && ./kernel_tb ../data 3 > rows3.log 2>&1").exit_code, 0)
      << hls_test::read_file(dir / "kernel" / "rows3.log");

  // The first value of the first ROM (a weight of the first layer), made 1.5 larger.
  std::string weights = hls_test::read_file(dir / "weights.h");
  std::smatch m;
  ASSERT_TRUE(std::regex_search(weights, m, std::regex(R"(#define INRARCH_VALUES_\w+ \\\n\s*(-?[0-9.]+))")));
  weights.replace(m.position(1), m.length(1), std::to_string(std::stod(m[1]) + 1.5));
  std::ofstream(dir / "weights.h") << weights;
  EXPECT_NE(make(dir / "kernel", "csim", "csim2.log"), 0);
  EXPECT_NE(make(dir, "run", "run2.log"), 0);
  log = hls_test::read_file(dir / "kernel" / "csim2.log");
  EXPECT_NE(log.find(": FAIL"), std::string::npos) << log;
  EXPECT_EQ(first_line(log, "type "), first_line(hls_test::read_file(dir / "run2.log"), "type ")) << log;
}

// One LSB added to every output container by the write mover: within the error bound, so
// only the bit-for-bit comparison with model_top can fail the run, and it does.
TEST(HlsKernel, OutputBitsMustEqualTheStreamTops) {
  hls_test::InspCase c = hls_test::insp_case(8, 1, 2);
  HlsOptions opt;
  opt.rows = 2;
  const fs::path dir = hls_test::out_dir("kernel_bits");
  emit_hls(c.design, c.bundle, opt, dir);
  replace_once(dir / "include" / "inrarch" / "axi_movers.h", "mem[i * S::block + k] = container<T>::encode(b.v[k]);",
               "mem[i * S::block + k] = container<T>::encode(b.v[k]) + 1;");
  EXPECT_NE(make(dir / "kernel", "csim", "csim.log"), 0);
  const std::string log = hls_test::read_file(dir / "kernel" / "csim.log");
  EXPECT_NE(log.find("max scaled error"), std::string::npos) << log;
  EXPECT_NE(log.find(": FAIL"), std::string::npos) << log;
  EXPECT_NE(log.find("kernel vs model_top on streams: DIFFERENT"), std::string::npos) << log;
  EXPECT_NE(log.find("element 0 differs from the stream top's"), std::string::npos) << log;
}

// float elements, beats of 2, a transpose: the arrays are streamed whole, so the kernel
// ignores rows and the top takes none.
TEST(HlsKernel, FloatWholeArrayDesignSimulates) {
  ir::Bundle b;
  ir::Graph& g = b.graph;
  ir::NodeId x = g.input("x", {2, 4});
  ir::NodeId n = g.unary(ir::Op::Neg, x);
  g.add_output("sq", g.binary(ir::Op::Mul, n, n));
  g.add_output("s", g.sum(g.transpose(x), {1}, false));
  hls_test::fill_bundle(b, 4);
  dataflow::LowerOptions lo;
  lo.block = 2;
  HlsOptions opt;
  opt.type = parse_number_type("float");
  const fs::path dir = hls_test::out_dir("kernel_float");
  emit_hls(dataflow::lower(b.graph, lo), b, opt, dir);
  const std::string kernel = hls_test::read_file(dir / "kernel" / "kernel.cpp");
  EXPECT_NE(kernel.find("(void)rows;"), std::string::npos) << kernel;
  EXPECT_NE(kernel.find("model_top(str_in_x, "), std::string::npos) << kernel;
  EXPECT_NE(hls_test::read_file(dir / "kernel" / "kernel.h").find("binary32"), std::string::npos);
  EXPECT_EQ(make(dir / "kernel", "csim", "csim.log"), 0) << hls_test::read_file(dir / "kernel" / "csim.log");
  EXPECT_NE(hls_test::read_file(dir / "kernel" / "csim.log").find("bit-identical"), std::string::npos);
}

// fixed<16,4> in 16-bit containers, one value under three output names. Inputs 100x
// outside the range saturate in the host's encoding: counted, so the run fails as the
// project's does, with the kernel's outputs still equal to model_top's.
TEST(HlsKernel, SixteenBitContainersAndSaturatedInputs) {
  for (double scale : {1.0, 100.0}) {
    const ir::Bundle b = hls_test::one_value_named({"a", "b"}, scale);
    HlsOptions opt;
    opt.type = parse_number_type("fixed<16,4>");
    opt.pow2_scaling = false;
    const fs::path dir = hls_test::out_dir("kernel_16");
    emit_hls(dataflow::lower(b.graph), b, opt, dir);
    EXPECT_NE(hls_test::read_file(dir / "kernel" / "kernel.h").find("a 16-bit two's complement"), std::string::npos);
    const bool out = scale > 1;
    EXPECT_EQ(make(dir / "kernel", "csim", "csim.log") != 0, out);
    EXPECT_EQ(make(dir, "run", "run.log") != 0, out);
    const std::string log = hls_test::read_file(dir / "kernel" / "csim.log");
    EXPECT_EQ(first_line(log, "type "), first_line(hls_test::read_file(dir / "run.log"), "type ")) << log;
    EXPECT_EQ(first_line(log, "overflows: "), first_line(hls_test::read_file(dir / "run.log"), "overflows: ")) << log;
    EXPECT_NE(log.find("bit-identical"), std::string::npos) << log;
  }
}

TEST(HlsKernel, VppTargetsStopWithOneLineWithoutVitis) {
  ir::Bundle b;
  b.graph.add_output("y", b.graph.unary(ir::Op::Neg, b.graph.input("x", {2, 2})));
  hls_test::fill_bundle(b, 1);
  const fs::path dir = hls_test::out_dir("kernel_vpp");
  emit_hls(dataflow::lower(b.graph), b, HlsOptions{}, dir);
  const std::string u50 = hls_test::read_file(dir / "kernel" / "u50.cfg");
  EXPECT_NE(u50.find("nk=inrarch_kernel:1\nsp=inrarch_kernel_1.in_x:HBM[0]\nsp=inrarch_kernel_1.out_y:HBM[1]\n"),
            std::string::npos) << u50;
  for (const char* target : {"xo", "xclbin", "hw_emu"}) {
    const std::string log = std::string("make_") + target + ".log";
    EXPECT_NE(make(dir / "kernel", target, log, "PATH=/usr/bin:/bin "), 0) << target;
    const std::string text = hls_test::read_file(dir / "kernel" / log);
    EXPECT_NE(text.find("v++ not found: install Vitis and source settings64.sh"), std::string::npos) << text;
  }
  EXPECT_FALSE(fs::exists(dir / "kernel" / "inrarch_kernel.xo"));
}

}  // namespace
}  // namespace inrarch::hls
