// Memory layout of the mm kernels (include/inrarch/mm.h): B is held column-major, so the
// PAR reads of one dot product are consecutive addresses. weights.h must emit an mm's
// constant B transposed and every other ROM (a constant A, elementwise operands) as it
// is; the kernels must read what was emitted, which C simulation against the reference
// interpreter shows for every mm form (ROM B, ROM A, both streamed) with K not a multiple
// of PAR and with beats of 2.
#include "hls_test_util.h"

namespace inrarch::hls {
namespace {

// The values of ROM `name` in weights.h, in emitted order.
std::vector<double> rom_values(const std::string& weights, const std::string& name) {
  std::string key = "#define INRARCH_VALUES_" + name + " ";
  size_t at = weights.find(key);
  if (at == std::string::npos) return {};
  size_t end = weights.find("#ifdef", at);
  std::istringstream in(weights.substr(at + key.size(), end - at - key.size()));
  std::vector<double> v;
  for (std::string tok; in >> tok;)
    if (tok != "\\") v.push_back(std::stod(tok));
  return v;
}

std::vector<double> iota(int n, double first) {
  std::vector<double> v(n);
  for (int i = 0; i < n; ++i) v[i] = first + i;
  return v;
}

// B = [[1 2 3] [4 5 6]] is emitted 1 4 2 5 3 6 (column-major); a constant A and an
// elementwise ROM keep their row-major order.
TEST(HlsMmLayout, ConstantBIsEmittedColumnMajorOthersRowMajor) {
  ir::Bundle b;
  ir::Graph& g = b.graph;
  ir::NodeId x = g.input("x", {4, 2});
  g.add_output("y", g.mm(x, g.param("w", {2, 3})));          // mm_rom_b
  g.add_output("z", g.mm(g.param("wa", {3, 4}), x));         // mm_rom_a
  g.add_output("s", g.binary(ir::Op::Add, x, g.param("c", {4, 2})));  // elementwise ROM
  hls_test::fill_bundle(b, 2);
  b.params["w"] = Tensor({2, 3}, iota(6, 1));
  b.params["wa"] = Tensor({3, 4}, iota(12, 11));
  b.params["c"] = Tensor({4, 2}, iota(8, 31));
  dataflow::Design d = dataflow::lower(b.graph);
  HlsOptions opt;
  opt.type = parse_number_type("double");  // literals exactly the values
  fs::path dir = hls_test::out_dir("mm_layout_rom");
  emit_hls(d, b, opt, dir);
  std::string weights = hls_test::read_file(dir / "weights.h");

  int checked = 0;
  for (const auto& p : d.processes) {
    if (p.kind == dataflow::Kind::Mm && p.operands.at(1).stream < 0) {
      EXPECT_EQ(rom_values(weights, "rom_" + p.name + "_1"),
                (std::vector<double>{1, 4, 2, 5, 3, 6})) << weights;
      EXPECT_NE(weights.find("// [2,3], column-major"), std::string::npos) << weights;
      ++checked;
    } else if (p.kind == dataflow::Kind::Mm) {
      EXPECT_EQ(rom_values(weights, "rom_" + p.name + "_0"), iota(12, 11)) << weights;
      ++checked;
    } else if (p.kind == dataflow::Kind::Unary) {
      EXPECT_EQ(rom_values(weights, "rom_" + p.name + "_1"), iota(8, 31)) << weights;
      ++checked;
    }
  }
  EXPECT_EQ(checked, 3);
}

// The three mm forms chained, non-square and non-symmetric: m1 = x·Wb (ROM B, K=5),
// m2 = Wa·m1 (ROM A, streamed B, K=4), m3 = x·y (both streamed, K=5).
ir::Bundle mm_forms_bundle() {
  ir::Bundle b;
  ir::Graph& g = b.graph;
  ir::NodeId x = g.input("x", {4, 5});
  ir::NodeId y = g.input("y", {5, 6});
  ir::NodeId m1 = g.mm(x, g.param("wb", {5, 6}));
  g.add_output("m1", m1);
  g.add_output("m2", g.mm(g.param("wa", {3, 4}), m1));
  g.add_output("m3", g.mm(x, y));
  hls_test::fill_bundle(b, 11);
  return b;
}

void expect_mm_forms_simulate(int64_t block, int64_t par, const std::string& name) {
  ir::Bundle b = mm_forms_bundle();
  dataflow::LowerOptions lo;
  lo.block = block;
  lo.mm_par = par;
  dataflow::Design d = dataflow::lower(b.graph, lo);
  hls_test::size_design(d);
  HlsOptions opt;
  opt.type = parse_number_type("double");
  opt.rel_tol = 1e-12;  // only the summation's rounding: a misplaced element is O(1)
  fs::path dir = hls_test::out_dir(name);
  emit_hls(d, b, opt, dir);
  const SimVerdicts v = run_simulations(d, dir, opt);
  EXPECT_TRUE(v.csim->pass()) << to_json(v).dump();
  EXPECT_TRUE(v.threaded->pass()) << to_json(v).dump();
  EXPECT_TRUE(v.trace->pass) << to_json(*v.trace).dump();
}

TEST(HlsMmLayout, EveryMmFormSimulatesAtPar3) { expect_mm_forms_simulate(1, 3, "mm_forms_b1"); }

// Beats of 2: the streamed B's beats are scattered to column-major addresses.
TEST(HlsMmLayout, EveryMmFormSimulatesWithBeatsOf2AtPar4) {
  expect_mm_forms_simulate(2, 4, "mm_forms_b2");
}

}  // namespace
}  // namespace inrarch::hls
