// The timing estimate on Yosys's own netlists (synth_xilinx -family xcup, as `inrarch
// synth` runs it per class): one 64-bit add of registered inputs against four such adds
// in a row. Yosys 0.23 maps a 64-bit add to 16 CARRY4 after one LUT2 per bit; the sum of
// five operands becomes a LUT/MUXF compressor tree, then one 64-bit carry chain.
#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>

#include "backend/rtl/timing.h"
#include "rtl_test_util.h"
#include "support/files.h"
#include "support/process.h"

namespace inrarch::rtl {
namespace {

namespace fs = std::filesystem;

constexpr const char* kAdds = R"(
module add1(input logic clk, input logic [63:0] a, b, output logic [63:0] y);
  logic [63:0] ra, rb;
  always_ff @(posedge clk) begin ra <= a; rb <= b; y <= ra + rb; end
endmodule
module add4(input logic clk, input logic [63:0] a, b, c, d, e, output logic [63:0] y);
  logic [63:0] ra, rb, rc, rd, re;
  always_ff @(posedge clk) begin ra <= a; rb <= b; rc <= c; rd <= d; re <= e; y <= ra + rb + rc + rd + re; end
endmodule
)";

TimingResult synthesize_and_time(const fs::path& dir, const std::string& top) {
  const std::string script = "read_verilog -sv adds.sv; synth_xilinx -family xcup -noiopad -top " + top +
                             "; flatten; hierarchy -top " + top + " -purge_lib; write_json " + top + ".json";
  auto run = run_command("cd '" + dir.string() + "' && yosys -q -p '" + script + "' > " + top + ".log 2>&1", 120);
  EXPECT_EQ(run.exit_code, 0) << "see " << (dir / (top + ".log"));
  return analyze_timing(nlohmann::json::parse(read_file(dir / (top + ".json"))));
}

TEST(RtlTimingSynth, FourAddsInARowAreFoundLongerThanOne) {
  INRARCH_NEED_TOOL("yosys");
  const fs::path dir = fs::temp_directory_path() / ("inrarch_timing_synth_" + std::to_string(getpid()));
  fs::create_directories(dir);
  write_file_atomic(dir / "adds.sv", kAdds);
  const TimingResult one = synthesize_and_time(dir, "add1"), four = synthesize_and_time(dir, "add4");
  fs::remove_all(dir);
  ASSERT_TRUE(one.reg_to_reg.found);
  ASSERT_TRUE(four.reg_to_reg.found);
  EXPECT_TRUE(one.uncosted.empty());
  EXPECT_TRUE(four.uncosted.empty());
  // One add: a LUT2 then the carry chain, 16 CARRY4 for 64 bits (the top bits may leave
  // the chain a cell early).
  EXPECT_GE(one.reg_to_reg.counts.lut, 1);
  EXPECT_LE(one.reg_to_reg.counts.lut, 2);
  EXPECT_GE(one.reg_to_reg.counts.carry, 14);
  EXPECT_LE(one.reg_to_reg.counts.carry, 16);
  // Four: the compressor's LUT levels before a carry chain of the same length.
  EXPECT_GE(four.reg_to_reg.counts.lut, 2);
  EXPECT_GE(four.reg_to_reg.counts.carry, 14);
  EXPECT_GT(four.reg_to_reg.est_ns, one.reg_to_reg.est_ns + 0.5);
  EXPECT_EQ(four.worst_kind, "reg_to_reg");
  // Plausible magnitudes: about 3 ns for one 64-bit add at 0.30 ns a net, not ten.
  EXPECT_GT(one.worst_ns, 2.0);
  EXPECT_LT(one.worst_ns, 12.0);
  EXPECT_LT(four.worst_ns, 25.0);
}

}  // namespace
}  // namespace inrarch::rtl
