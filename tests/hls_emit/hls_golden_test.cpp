// Golden tests of the generated code for two small graphs: every emitted text file must
// equal tests/golden/hls/<case>/<file>. INRARCH_UPDATE_GOLDEN=1 rewrites the goldens
// (review the diff). Emission is deterministic: no time stamps, no absolute paths.
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <sstream>

#include "hls_test_util.h"

namespace inrarch::hls {
namespace {

const fs::path kGolden = fs::path(INRARCH_SOURCE_DIR) / "tests/golden/hls";
const char* const kFiles[] = {"model.h", "model.cpp", "weights.h", "testbench.cpp",
                              "sim_main.cpp", "run_hls.tcl", "Makefile",
                              // the memory-mapped kernel (emit_kernel.cpp)
                              "kernel/kernel.h", "kernel/kernel.cpp", "kernel/kernel_tb.cpp",
                              "kernel/Makefile", "kernel/u50.cfg"};

std::string read(const fs::path& f) {
  std::ifstream in(f, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

void check_golden(const std::string& name, const ir::Bundle& b, const dataflow::Design& d,
                  const HlsOptions& opt) {
  fs::path dir = hls_test::out_dir("golden_" + name);
  emit_hls(d, b, opt, dir);
  bool update = std::getenv("INRARCH_UPDATE_GOLDEN") != nullptr;
  for (const char* f : kFiles) {
    fs::path want = kGolden / name / f;
    if (update) {
      fs::create_directories(want.parent_path());
      fs::copy_file(dir / f, want, fs::copy_options::overwrite_existing);
      continue;
    }
    ASSERT_TRUE(fs::exists(want)) << want << " missing (INRARCH_UPDATE_GOLDEN=1)";
    EXPECT_EQ(read(dir / f), read(want)) << name << "/" << f << " differs from the golden";
  }
  EXPECT_TRUE(fs::exists(dir / "include" / "inrarch" / "kernels.h"));
  EXPECT_TRUE(fs::exists(dir / "data" / "in_x.bin"));
}

// One SIREN layer: mm with a weight ROM, bias ROM add, sin.
TEST(HlsGolden, SirenLayer) {
  ir::Bundle b;
  ir::Graph& g = b.graph;
  g.set_name("siren_layer");
  ir::NodeId x = g.input("x", {4, 2});
  ir::NodeId h = g.mm(x, g.param("w", {2, 3}));
  ir::NodeId z = g.binary(ir::Op::Add, h, g.expand(g.param("b", {1, 3}), {4, 3}));
  g.add_output("y", g.unary(ir::Op::Sin, z));
  hls_test::fill_bundle(b, 3);
  dataflow::Design d = dataflow::lower(b.graph);
  d.streams.at(1).depth = 5;  // depths are the sizer's business; fixed here so the golden is stable
  check_golden("siren_layer", b, d, HlsOptions{});
  // The same layer with its 4 samples independent: one sample per port type, the sample
  // count a run-time argument of the top (s_axilite), one row of the bias in ROM.
  HlsOptions rows;
  rows.rows = 4;
  check_golden("siren_layer_rows", b, d, rows);
}

// Fan-out to one consumer twice (copy, slot-named streams), transpose, a splat, a sum;
// float type, blocks of 2.
TEST(HlsGolden, FanoutAndMovement) {
  ir::Bundle b;
  ir::Graph& g = b.graph;
  g.set_name("fanout");
  ir::NodeId x = g.input("x", {2, 4});
  ir::NodeId n = g.unary(ir::Op::Neg, x);
  g.add_output("sq", g.binary(ir::Op::Mul, n, n));
  ir::NodeId t = g.transpose(x);
  g.add_output("s", g.sum(g.binary(ir::Op::Div, t, g.constant(4.0, {4, 2})), {1}, false));
  hls_test::fill_bundle(b, 4);
  dataflow::LowerOptions lo;
  lo.block = 2;
  dataflow::Design d = dataflow::lower(b.graph, lo);
  d.streams.at(5).depth = 3;
  HlsOptions opt;
  opt.type = parse_number_type("float");
  check_golden("fanout", b, d, opt);
}

// Fixed-point ROM values are emitted on the type's grid, rounded to nearest: every literal
// of weights.h times 2^(W-I) is an integer within half an LSB of the exact weight (an mm's
// B is emitted column-major: literal i is w[k][n] with i = n*3 + k).
TEST(HlsGolden, FixedRomValuesAreRoundedToTheGrid) {
  ir::Bundle b;
  ir::Graph& g = b.graph;
  ir::NodeId x = g.input("x", {2, 3});
  g.add_output("y", g.mm(x, g.param("w", {3, 40})));
  hls_test::fill_bundle(b, 7);
  HlsOptions opt;
  opt.type = parse_number_type("fixed<16,4>");
  opt.pow2_scaling = false;  // the values as they are
  fs::path dir = hls_test::out_dir("rom_grid");
  emit_hls(dataflow::lower(b.graph), b, opt, dir);
  std::string text = read(dir / "weights.h");
  size_t at = text.find("#define INRARCH_VALUES_");
  ASSERT_NE(at, std::string::npos) << text;
  std::istringstream values(text.substr(text.find('\n', at), text.find("#ifdef") - text.find('\n', at)));
  const std::vector<double>& w = b.params.at("w").data;
  size_t i = 0;
  for (std::string tok; values >> tok;) {
    if (tok == "\\") continue;
    double v = std::stod(tok), scaled = std::ldexp(v, 12);
    ASSERT_LT(i, w.size());
    const double want = w[(i % 3) * 40 + i / 3];
    EXPECT_EQ(scaled, std::nearbyint(scaled)) << tok;
    EXPECT_LE(std::fabs(v - want), std::ldexp(0.5, -12) + 1e-15) << tok << " vs " << want;
    ++i;
  }
  EXPECT_EQ(i, w.size());
}

}  // namespace
}  // namespace inrarch::hls
