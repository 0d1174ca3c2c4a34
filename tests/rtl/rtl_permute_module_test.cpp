// inrarch_permute on its own under Icarus, at blocks the lowering never gives: an input
// block that does not divide the input's last dim, so that a beat holds parts of two rows.
// Only then do the lanes of the buffer's words carry and borrow in every direction (in a
// lowered design the lane is the input's last index mod the block, and never borrows). The
// expected beats are the permutation computed here from the shape and perm, fed and drained
// under random valid and ready.
#include <fmt/format.h>

#include <fstream>

#include "backend/rtl/rtl_detail.h"
#include "rtl_test_util.h"

namespace inrarch::rtl {
namespace {

namespace fs = std::filesystem;

struct Params {
  ir::Shape in;
  std::vector<int64_t> perm;
  int64_t bi, bo;
};

constexpr int kW = 16;

// `values` as beats of `block`, one hex word each: {ovf, element block-1, ..., element 0}.
std::string hex_beats(const std::vector<int64_t>& values, int64_t block) {
  std::string s;
  for (size_t k = 0; k < values.size(); k += block) {
    std::string line = "0";  // the ovf bit: clear
    for (int64_t e = block - 1; e >= 0; --e) line += fmt::format("{:04x}", values[k + e] & 0xffff);
    s += line + "\n";
  }
  return s;
}

// Output element o (row-major) is input element ii with ii[perm[d]] = oi[d].
std::vector<int64_t> permuted(const Params& p, const std::vector<int64_t>& in) {
  const size_t rank = p.in.size();
  ir::Shape out(rank);
  for (size_t d = 0; d < rank; ++d) out[d] = p.in[p.perm[d]];
  std::vector<int64_t> v;
  std::vector<int64_t> oi(rank, 0), ii(rank);
  for (size_t o = 0; o < in.size(); ++o) {
    for (size_t d = 0; d < rank; ++d) ii[p.perm[d]] = oi[d];
    int64_t a = 0;
    for (size_t d = 0; d < rank; ++d) a = a * p.in[d] + ii[d];
    v.push_back(in[a]);
    for (size_t d = rank; d-- > 0 && ++oi[d] == out[d];) oi[d] = 0;
  }
  return v;
}

std::string packed(const std::vector<int64_t>& v) {
  std::string s;
  for (size_t d = v.size(); d-- > 0;) s += fmt::format("{}32'd{}", s.empty() ? "" : ", ", v[d]);
  return "{" + s + "}";
}

// A testbench feeding beats while a random valid holds and taking them while a random ready
// does; it prints the beats that differ from exp.hex and how many it took.
std::string testbench(const Params& p) {
  const int64_t num = numel(p.in);
  std::vector<int64_t> dims, strides;
  const auto in_strides = strides_of(p.in);
  for (int64_t k : p.perm) dims.push_back(p.in[k]), strides.push_back(in_strides[k]);
  return fmt::format(R"(module tb;
  logic clk = 1'b0, rst = 1'b1;
  always #5 clk = ~clk;
  logic [{0}:0] in_mem[0:{2}-1], in_data;
  logic [{1}:0] exp_mem[0:{3}-1], out_data;
  logic in_valid = 1'b0, in_ready, out_valid, out_ready = 1'b0;
  int ni = 0, no = 0, bad = 0, cycles = 0;
  inrarch_permute #(.W({4}), .BI({5}), .BO({6}), .NUM({7}), .RANK({8}), .DIMS({9}), .STRIDES({10})) dut (
      .clk, .rst, .in_data, .in_valid, .in_ready, .out_data, .out_valid, .out_ready);
  assign in_data = in_mem[ni < {2} ? ni : 0];
  initial begin
    $readmemh("in.hex", in_mem);
    $readmemh("exp.hex", exp_mem);
    repeat (2) @(posedge clk);
    rst <= 1'b0;
  end
  always @(negedge clk) begin
    in_valid <= ni < {2} && $urandom % 3 != 0;
    out_ready <= $urandom % 3 != 0;
  end
  always @(posedge clk) if (!rst) begin
    cycles <= cycles + 1;
    if (in_valid && in_ready) ni <= ni + 1;
    if (out_valid && out_ready) begin
      if (out_data !== exp_mem[no]) begin
        bad = bad + 1;
        $display("beat %0d: %h, expected %h", no, out_data, exp_mem[no]);
      end
      no <= no + 1;
    end
    if (no == {3} || cycles > 10000) begin
      $display("RESULT taken=%0d bad=%0d", no, bad);
      $finish;
    end
  end
endmodule
)",
                     p.bi * kW, p.bo * kW, num / p.bi, num / p.bo, kW, p.bi, p.bo, num, p.in.size(),
                     packed(dims), packed(strides));
}

// Runs one case in dir; returns the RESULT line and the mismatches Icarus printed.
std::string run_case(const Params& p, const fs::path& dir) {
  fs::create_directories(dir);
  for (const auto& f : detail::library_files()) std::ofstream(dir / f.name) << f.text;
  std::vector<int64_t> in(numel(p.in));
  for (size_t k = 0; k < in.size(); ++k) in[k] = 0x100 * int64_t(k + 1) + int64_t(k);  // distinct words
  std::ofstream(dir / "in.hex") << hex_beats(in, p.bi);
  std::ofstream(dir / "exp.hex") << hex_beats(permuted(p, in), p.bo);
  std::ofstream(dir / "tb.sv") << testbench(p);
  const std::string cmd = fmt::format(
      "cd '{}' && iverilog -g2012 -s tb -o tb.vvp tb.sv inrarch_permute.sv inrarch_steps.sv > log.txt 2>&1 && "
      "vvp -n tb.vvp >> log.txt 2>&1", dir.string());
  if (std::system(cmd.c_str()) != 0) return "iverilog or vvp failed";
  std::ifstream log(dir / "log.txt");
  std::string all, line;
  while (std::getline(log, line)) all += line + "\n";
  return all;
}

TEST(RtlPermuteModule, BlocksThatSplitRows) {
  INRARCH_NEED_TOOL("iverilog");
  const std::vector<Params> cases = {
      {{2, 3}, {1, 0}, 2, 1},        // rows of 3 in beats of 2: the lane borrows on a wrap
      {{2, 3}, {1, 0}, 2, 2},        // and element 1 of a beat is a lane carry away
      {{3, 2}, {1, 0}, 3, 3},        // beats across rows, rows across beats
      {{2, 3, 4}, {2, 0, 1}, 8, 3},  // a beat of 8 over rows of 4
      {{4, 6}, {1, 0}, 4, 2},
      {{2, 3, 5}, {1, 2, 0}, 6, 2},
  };
  const fs::path root = hls::hls_test::out_dir("rtl_permute_module");
  for (size_t k = 0; k < cases.size(); ++k) {
    const std::string log = run_case(cases[k], root / std::to_string(k));
    SCOPED_TRACE(log);
    EXPECT_NE(log.find(fmt::format("RESULT taken={} bad=0", numel(cases[k].in) / cases[k].bo)), std::string::npos)
        << "case " << k;
  }
}

}  // namespace
}  // namespace inrarch::rtl
