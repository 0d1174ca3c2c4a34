// The memory-mapped kernel (docs/deploy.md) of a SIREN at 1,023 rows, whose buffers span
// several 4 KB lines and whose output ends inside a word (a partial strobe): under Verilator with device memory of random latency and
// back-pressure, two back-to-back runs (auto_restart) equal the C simulation bit for bit and
// the register map behaves; a dropped beat and a burst across a 4 KB line are caught; and
// `inrarch run` on the verilator device gives the C simulation's values, or one clear error
// and no results folder for a bad input. INSP order 1 runs the same way.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <cmath>
#include <fstream>

#include "../e2e/run_cli.h"
#include "../hls_emit/hls_test_util.h"
#include "ir/bundle.h"
#include "rtl_test_util.h"

namespace inrarch::rtl {
namespace {

namespace fs = std::filesystem;
using test::run_cli;

struct Sim {
  int code;
  nlohmann::json j;
};

// Runs a command in `dir`; its last line of output is the testbench's JSON.
Sim run_in(const fs::path& dir, const std::string& cmd) {
  const fs::path log = dir / "logs" / "test_run.txt";
  fs::create_directories(log.parent_path());
  const int status = std::system(("cd " + dir.string() + " && " + cmd + " > " + log.string() + " 2>&1").c_str());
  std::ifstream in(log);
  std::string line, last;
  while (std::getline(in, line))
    if (!line.empty() && line[0] == '{') last = line;
  Sim s{WIFEXITED(status) ? WEXITSTATUS(status) : -1, nlohmann::json::parse(last.empty() ? "{}" : last)};
  return s;
}

class RtlAxiKernel : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ = new fs::path(hls::hls_test::out_dir("axi_kernel"));
    ASSERT_EQ(run_cli("model siren --batch 1023 --width 4 -o " + (*dir_ / "bundle").string()).code, 0);
    const auto c = run_cli("compile " + (*dir_ / "bundle").string() + " -o " + (*dir_ / "out").string() +
                           " --rtl --no-rtl-sim");
    ASSERT_EQ(c.code, 0) << c.output;
    // -O0: the testbench builds faster, and these runs are short.
    built_ = std::system(("make -C " + rtl().string() + " obj_kernel/Vkernel csim KERNEL_OPT=-O0 > /dev/null 2>&1").c_str()) == 0;
  }
  static void TearDownTestSuite() { delete dir_; }
  static fs::path rtl() { return *dir_ / "out" / "rtl"; }
  static fs::path* dir_;
  static bool built_;
};
fs::path* RtlAxiKernel::dir_ = nullptr;
bool RtlAxiKernel::built_ = false;

TEST_F(RtlAxiKernel, LintsCleanAndTheBuffersCrossFourKbLines) {
  INRARCH_NEED_TOOL("verilator");
  EXPECT_EQ(run_in(rtl(), "make kernel-lint").code, 0);
  const auto k = nlohmann::json::parse(hls::hls_test::read_file(rtl() / "kernel.json"));
  EXPECT_EQ(k["ports"][0]["bytes"], 1023 * 2 * 4);  // x: 1,023 x 2 in 32-bit containers
  EXPECT_EQ(k["ports"][1]["bytes"], 1023 * 3 * 4);  // y: 12,276 bytes in 768 words of 16
  EXPECT_EQ(k["ports"][1]["words"], 768);
  // The last word holds one element: its strobe keeps the rest of the word out of memory.
  EXPECT_NE(hls::hls_test::read_file(rtl() / "inrarch_kernel.sv").find(".LAST_STRB(16'b0000000000001111)"),
            std::string::npos);
  EXPECT_EQ(k["ports"][1]["arg_offset"], 0x18);
  EXPECT_EQ(k["flags_offset"], 0x20);
}

TEST_F(RtlAxiKernel, BitExactUnderRandomLatencyAndBackPressure) {
  INRARCH_NEED_TOOL("verilator");
  ASSERT_TRUE(built_);
  std::vector<int64_t> first_run;
  for (const char* timing : {"--seed 1 --lat-min 1 --lat-max 1", "--seed 2 --lat-min 2 --lat-max 60 --stall 0.3",
                             "--seed 3 --lat-min 100 --lat-max 300 --stall 0.6"}) {
    const Sim s = run_in(rtl(), std::string("./obj_kernel/Vkernel --data data --expect csim --runs 2 ") + timing);
    SCOPED_TRACE(s.j.dump());
    EXPECT_EQ(s.code, 0);
    EXPECT_EQ(s.j["bit_exact"], true);
    EXPECT_EQ(s.j["protocol_errors"], 0);
    EXPECT_EQ(s.j["axi_error"], false);
    ASSERT_EQ(s.j["runs"].size(), 2u);  // auto_restart: two runs, then it stops
    // start, done, idle, the arguments read back, the interrupt and its status
    EXPECT_EQ(s.j["registers_ok"], true);
    EXPECT_EQ(s.j["registers"]["extra_run"], 0);
    first_run.push_back(s.j["runs"][0]);
  }
  EXPECT_LT(first_run[0], first_run[2]);  // the memory's latency is in the cycles
}

TEST_F(RtlAxiKernel, ADroppedBeatEndsTheRunWithAnError) {
  INRARCH_NEED_TOOL("verilator");
  ASSERT_TRUE(built_);
  const Sim s = run_in(rtl(), "./obj_kernel/Vkernel --data data --expect csim --fault drop-beat");
  SCOPED_TRACE(s.j.dump());
  EXPECT_EQ(s.code, 1);
  EXPECT_EQ(s.j["axi_error"], true);
  EXPECT_EQ(s.j["bit_exact"], false);
}

TEST_F(RtlAxiKernel, ABurstAcrossAFourKbLineIsCaught) {
  INRARCH_NEED_TOOL("verilator");
  const Sim s = run_in(rtl(), "make KERNEL_OBJ=obj_8k KERNEL_OPT=-O0 KERNEL_VFLAGS=-GAXI_BOUNDARY=8192 obj_8k/Vkernel > /dev/null && "
                              "./obj_8k/Vkernel --data data --expect csim --seed 4");
  SCOPED_TRACE(s.j.dump());
  EXPECT_EQ(s.code, 1);
  EXPECT_GT(s.j["protocol_errors"].get<int>(), 0);
  EXPECT_NE(s.j["first_protocol_error"].get<std::string>().find("crosses a 4 KB boundary"), std::string::npos);
}

// The C simulation's beats of output `port` as values ("<ovf> <e0> <e1> ..." in hex, W bits).
std::vector<double> csim_values(const fs::path& file, int w, int frac) {
  std::vector<double> v;
  std::ifstream in(file);
  for (std::string line; std::getline(in, line);) {
    std::istringstream ls(line);
    int ovf;
    ls >> ovf;
    for (std::string hex; ls >> hex;) {
      const int64_t raw = int64_t(std::stoull(hex, nullptr, 16) << (64 - w)) >> (64 - w);
      v.push_back(std::ldexp(double(raw), -frac));
    }
  }
  return v;
}

TEST_F(RtlAxiKernel, RunOnTheVerilatorDeviceGivesTheCsimValues) {
  INRARCH_NEED_TOOL("verilator");
  ASSERT_TRUE(built_);
  const fs::path res = *dir_ / "results";
  const auto r = run_cli("run " + (*dir_ / "out").string() + " --input x=" + (*dir_ / "bundle/inputs/x.npy").string() +
                         " -o " + res.string());
  ASSERT_EQ(r.code, 0) << r.output;
  const ir::Tensor y = ir::read_npy(res / "y.npy");
  EXPECT_EQ(y.shape, (ir::Shape{1023, 3}));
  EXPECT_EQ(y.data, csim_values(rtl() / "csim" / "out_y.txt", 32, 22));
  const auto run = nlohmann::json::parse(hls::hls_test::read_file(res / "run.json"));
  EXPECT_GT(run["cycles"].get<int64_t>(), 1023);
  EXPECT_EQ(run["overflow"].size(), 0u);
  // Within the C simulation's own error of the reference (the same bits).
  const ir::Tensor ref = ir::read_npy(*dir_ / "bundle/reference/y.npy");
  const auto report = nlohmann::json::parse(hls::hls_test::read_file(*dir_ / "out/report.json"));
  // report.json keeps six significant digits of the C simulation's error.
  const double bound = report["verification"]["csim"]["max_abs_error"].get<double>() * (1 + 1e-5);
  for (size_t i = 0; i < y.data.size(); ++i) ASSERT_LE(std::abs(y.data[i] - ref.data[i]), bound) << i;
}

// A .npy of int64 values, as NumPy writes one.
void write_int_npy(const fs::path& f, const ir::Shape& shape) {
  std::string dict = "{'descr': '<i8', 'fortran_order': False, 'shape': (" + std::to_string(shape[0]) + ", " +
                     std::to_string(shape[1]) + "), }";
  while ((10 + dict.size() + 1) % 64) dict += ' ';
  dict += '\n';
  std::ofstream o(f, std::ios::binary);
  o << "\x93NUMPY" << char(1) << char(0) << char(dict.size() & 0xff) << char(dict.size() >> 8) << dict;
  o << std::string(size_t(shape[0] * shape[1] * 8), '\0');
}

TEST_F(RtlAxiKernel, BadInputsGetOneErrorAndWriteNothing) {
  const fs::path res = *dir_ / "bad_results";
  ir::Tensor small;
  small.shape = {8, 2};
  small.data.assign(16, 0.5);
  ir::write_npy(small, *dir_ / "x_small.npy");
  write_int_npy(*dir_ / "x_int.npy", {1023, 2});
  const std::string out = (*dir_ / "out").string(), x = (*dir_ / "bundle/inputs/x.npy").string();
  const std::pair<std::string, std::string> cases[] = {
      {"--input x=" + (*dir_ / "x_small.npy").string(), "shape (8, 2); input 'x' of this kernel is (1023, 2)"},
      {"--input x=" + (*dir_ / "x_int.npy").string(), "dtype '<i8'"},
      {"--input z=" + x, "the kernel has no input 'z' (its inputs: x)"},
      {"--input x=" + x + " --input x=" + x, "--input x is given twice"},
      {"--input x=" + (*dir_ / "missing.npy").string(), "missing.npy"},
      {"--input x=" + x + " --device xrt", "no XRT support"},
  };
  for (const auto& [args, message] : cases) {
    const auto r = run_cli("run " + out + " " + args + " -o " + res.string());
    SCOPED_TRACE(args + "\n" + r.output);
    EXPECT_EQ(r.code, 1);
    EXPECT_NE(r.output.find(message), std::string::npos);
    EXPECT_EQ(r.output.find("error"), r.output.rfind("error"));  // one error line
    EXPECT_FALSE(fs::exists(res));
  }
}

// compile --kernel-sim: the kernel's verdict and its end-to-end cycles in report.json; the
// flag without --rtl is refused.
TEST(RtlAxiKernelCompile, KernelSimReportsItsVerdictAndCycles) {
  INRARCH_NEED_TOOL("verilator");
  const fs::path dir = hls::hls_test::out_dir("axi_kernel_compile");
  ASSERT_EQ(run_cli("model siren --batch 8 --width 4 -o " + (dir / "bundle").string()).code, 0);
  const auto refused = run_cli("compile " + (dir / "bundle").string() + " -o " + (dir / "no").string() + " --kernel-sim");
  EXPECT_EQ(refused.code, 1);
  EXPECT_NE(refused.output.find("--kernel-sim: the kernel is written with the RTL; add --rtl"), std::string::npos);
  EXPECT_FALSE(fs::exists(dir / "no"));
  const auto c = run_cli("compile " + (dir / "bundle").string() + " -o " + (dir / "out").string() + " --rtl --kernel-sim");
  ASSERT_EQ(c.code, 0) << c.output;
  EXPECT_NE(c.output.find("rtl PASS, kernel PASS"), std::string::npos) << c.output;
  const auto r = nlohmann::json::parse(hls::hls_test::read_file(dir / "out/report.json"));
  const auto& k = r["verification"]["kernel"];
  EXPECT_EQ(k["pass"], true) << k;
  EXPECT_EQ(k["runs"].size(), 2u);
  // The design's own latency plus at least a read's and a write's 40-cycle memory latency.
  const int64_t latency = r["fifo"]["latency_cycles"];
  EXPECT_GE(r["interface"]["kernel_cycles"].get<int64_t>(), latency + 80);
  EXPECT_EQ(r["interface"]["kernel_cycles"], k["cycles"]);
}

// INSP order 1 (width 4, 8 rows): nine outputs, each its own master.
TEST(RtlAxiKernelInsp, OrderOneIsBitExactUnderRandomLatency) {
  INRARCH_NEED_TOOL("verilator");
  const fs::path dir = hls::hls_test::out_dir("axi_kernel_insp");
  const auto c = run_cli("compile --builtin insp --order 1 --width 4 --batch 8 -o " + (dir / "out").string() +
                         " --rtl --no-rtl-sim");
  ASSERT_EQ(c.code, 0) << c.output;
  const Sim s = run_in(dir / "out" / "rtl", "make kernel-sim KERNEL_OPT=-O0 "
                                            "KERNEL_SIM_FLAGS='--runs 2 --lat-min 5 --lat-max 80 --stall 0.3 --seed 7'");
  SCOPED_TRACE(s.j.dump());
  EXPECT_EQ(s.code, 0);
  EXPECT_EQ(s.j["bit_exact"], true);
  EXPECT_EQ(s.j["registers_ok"], true);
  EXPECT_EQ(s.j["overflow_flags"].size(), 9u);
  EXPECT_EQ(s.j["runs"].size(), 2u);
}

}  // namespace
}  // namespace inrarch::rtl
