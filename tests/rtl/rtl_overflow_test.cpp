// The RTL top's sticky overflow flags (docs/rtl.md "Top ports", docs/hls.md "Range safety").
// Two outputs, a = -(x + x) and b = -(y + y), with exponents chosen for inputs in
// [-0.1, 0.1]: the sums' streams are scaled by 2^10 (ports carry true values, so only an
// inner stream can saturate). x ten times that range saturates the sum of a, y within it
// leaves b alone. The flag register of a
// is set and b's is not, the run fails, and the saturated bits still equal the HLS C
// simulation's, in Verilator and in Icarus. The same hardware on x within the range clears
// every flag and passes.
#include <fstream>

#include "rtl_test_util.h"

namespace inrarch::rtl {
namespace {

constexpr double kRange = 0.1;

// x uniform in [-1, 1) (ten times the range), y in [-0.1, 0.1).
ir::Bundle two_sums() {
  ir::Bundle b{ir::Graph("two_sums"), {}, {}, {}};
  ir::NodeId x = b.graph.input("x", {4, 8}), y = b.graph.input("y", {4, 8});
  b.graph.add_output("a", b.graph.unary(ir::Op::Neg, b.graph.binary(ir::Op::Add, x, x)));
  b.graph.add_output("b", b.graph.unary(ir::Op::Neg, b.graph.binary(ir::Op::Add, y, y)));
  hls::hls_test::fill_bundle(b, 3);
  for (double& v : b.inputs.at("y").data) v *= kRange;
  return b;
}

// Rewrites the input file of `input` in the RTL folder (the testbench and csim_dump read it
// at run time, so the built model is reused).
void write_input(const rtl_test::Case& c, const std::string& input, const Tensor& t) {
  for (const dataflow::Process& p : c.design.processes) {
    if (p.kind != dataflow::Kind::Source || c.bundle.graph.node(p.node).attrs.name != input) continue;
    std::ofstream o(c.dir / "rtl" / "data" / (p.name + ".bin"), std::ios::binary);
    o.write(reinterpret_cast<const char*>(t.data.data()), std::streamsize(t.data.size() * sizeof(double)));
    return;
  }
  FAIL() << "no source of input " << input;
}

// The output port (sink process) of graph output `name`.
std::string port_of(const rtl_test::Case& c, const std::string& name) {
  for (const ir::Output& o : c.bundle.graph.outputs())
    for (const dataflow::Process& p : c.design.processes)
      if (o.name == name && p.kind == dataflow::Kind::Sink && p.node == o.node) return p.name;
  return "?";
}

TEST(RtlOverflow, FlagOfTheSaturatedOutputOnlyAndClearedWithinRange) {
  INRARCH_NEED_TOOL("verilator");
  hls::HlsOptions ho;
  ho.input_range = std::pair(-kRange, kRange);
  const rtl_test::Case c = rtl_test::emit_case(two_sums(), "overflow", 1, ho);
  const std::string a = port_of(c, "a"), b = port_of(c, "b");
  RtlRunOptions ro;
  ro.other_tools = rtl_test::have("iverilog") && rtl_test::have("yosys");
  RtlRun r = run_rtl(c.design, c.dir / "rtl", ro);
  SCOPED_TRACE(to_json(r).dump());
  EXPECT_EQ(r.lint, "clean");  // the flag registers are warning-free under -Wall
  EXPECT_TRUE(r.bit_exact());  // saturated as the C simulation saturates, ovf bits included
  EXPECT_TRUE(r.cycle_exact);
  EXPECT_EQ(r.verilator->overflow_flags, (std::map<std::string, bool>{{a, true}, {b, false}}));
  EXPECT_GT(r.verilator->overflow_beats.at(a), 0);
  EXPECT_EQ(r.verilator->overflow_beats.at(b), 0);
  EXPECT_TRUE(r.overflow_flag);
  EXPECT_TRUE(r.overflow_flag_mismatch.empty());
  EXPECT_FALSE(r.pass);  // an overflow fails the run, as it fails the C simulations
  if (ro.other_tools) {  // Icarus reads the same flag registers
    EXPECT_EQ(r.icarus->run->bit_exact, std::optional<bool>(true));
    EXPECT_EQ(r.icarus->run->overflow_flags, r.verilator->overflow_flags);
    EXPECT_EQ(r.icarus->run->overflow_beats, r.verilator->overflow_beats);
  }

  // The same hardware on x within the range: no flag, and the run passes.
  Tensor x = c.bundle.inputs.at("x");
  for (double& v : x.data) v *= kRange;
  write_input(c, "x", x);
  ro.lint = ro.other_tools = false;
  r = run_rtl(c.design, c.dir / "rtl", ro);
  SCOPED_TRACE(to_json(r).dump());
  EXPECT_EQ(r.verilator->overflow_flags, (std::map<std::string, bool>{{a, false}, {b, false}}));
  EXPECT_EQ(r.verilator->overflow_beats, (std::map<std::string, int64_t>{{a, 0}, {b, 0}}));
  EXPECT_FALSE(r.overflow_flag);
  EXPECT_TRUE(r.pass);
}

}  // namespace
}  // namespace inrarch::rtl
