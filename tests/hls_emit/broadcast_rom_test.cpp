// Broadcast constants in the generated code: a ROM at the source's size read with a
// wrapping index (rom<B, P>, rom_source<P>), next to the ROMs that stay expanded; the
// project C-simulates in all three modes and matches the reference interpreter.
#include "hls_test_util.h"

namespace inrarch::hls {
namespace {

// Biases of period 6 (the last dim) and 12 (through reshape/unsqueeze), a [1,1] scale
// (period 1), two ROMs that must stay expanded (a column broadcast, a period of 3 that a
// beat of 2 would straddle), an mm with a broadcast B, a constant broadcast output; blocks
// of 2.
ir::Bundle broadcast_bundle() {
  ir::Bundle b;
  ir::Graph& g = b.graph;
  g.set_name("broadcast");
  ir::NodeId x = g.input("x", {4, 6});
  ir::NodeId a = g.binary(ir::Op::Add, g.expand(g.param("bias", {1, 6}), {4, 6}), x);
  ir::NodeId p12 = g.unsqueeze(g.reshape(g.param("p12", {12}), {2, 6}), 0);
  ir::NodeId a2 = g.binary(ir::Op::Add, a, g.reshape(g.expand(p12, {2, 2, 6}), {4, 6}));
  ir::NodeId m = g.binary(ir::Op::Mul, a2, g.expand(g.param("s", {1, 1}), {4, 6}));
  ir::NodeId c = g.binary(ir::Op::Sub, m, g.expand(g.param("col", {4, 1}), {4, 6}));
  ir::NodeId p3 = g.expand(g.unsqueeze(g.param("p3", {3}), 0), {8, 3});
  ir::NodeId t = g.unary(ir::Op::Sin, g.binary(ir::Op::Add, c, g.reshape(p3, {4, 6})));
  g.add_output("y", g.mm(t, g.expand(g.param("w", {1, 5}), {6, 5})));
  g.add_output("k", g.expand(g.param("k", {1, 6}), {3, 6}));
  hls_test::fill_bundle(b, 5);
  return b;
}

TEST(HlsBroadcastRom, SourceSizedRomsSimulate) {
  ir::Bundle b = broadcast_bundle();
  dataflow::LowerOptions lo;
  lo.block = 2;
  dataflow::Design d = dataflow::lower(b.graph, lo);
  hls_test::size_design(d);
  HlsOptions opt;  // fixed<32,10>, power-of-two scaling
  fs::path dir = hls_test::out_dir("broadcast_rom");
  emit_hls(d, b, opt, dir);

  // ROM sizes: 6, 12, 1 (periodic), 24, 24 (expanded), 30 (mm), 6 (constant output).
  std::string weights = hls_test::read_file(dir / "weights.h");
  std::string model = hls_test::read_file(dir / "model.cpp");
  std::vector<std::pair<std::string, std::string>> want;  // ROM declaration, reader
  for (const auto& p : d.processes) {
    for (size_t k = 0; k < p.operands.size(); ++k) {
      const auto& od = p.operands[k];
      if (od.stream >= 0 || od.splat) continue;
      std::string name = "rom_" + p.name + "_" + std::to_string(k);
      int64_t n = od.rom_period ? od.rom_period : numel(od.shape);
      std::string reader = p.kind == dataflow::Kind::Source
                               ? "rom_source<" + std::to_string(n) + ">(1, " + name
                               : "rom<2, " + std::to_string(n) + ">(" + name;
      if (!od.rom_period) reader = p.kind == dataflow::Kind::Mm ? name : "rom<2>(" + name;
      want.emplace_back("data_t " + name + "[" + std::to_string(n) + "]", reader);
    }
  }
  std::vector<int64_t> sizes;
  for (const auto& p : d.processes)
    for (const auto& od : p.operands)
      if (od.stream < 0 && !od.splat) sizes.push_back(od.rom_elems());
  EXPECT_EQ(sizes, (std::vector<int64_t>{6, 12, 1, 24, 24, 30, 6}));
  for (const auto& [decl, reader] : want) {
    EXPECT_NE(weights.find(decl), std::string::npos) << decl << "\n" << weights;
    EXPECT_NE(model.find(reader), std::string::npos) << reader << "\n" << model;
  }

  const SimVerdicts v = run_simulations(d, dir, opt);
  std::printf("%s\n", to_json(v).dump().c_str());
  EXPECT_TRUE(v.csim->pass()) << to_json(v).dump();
  EXPECT_LE(v.csim->max_abs_error.value(), 1e-5);
  EXPECT_TRUE(v.threaded->pass()) << to_json(v).dump();
  EXPECT_TRUE(v.trace->pass) << to_json(*v.trace).dump();
  EXPECT_EQ(size_t(v.trace->processes_checked), d.processes.size());
}

}  // namespace
}  // namespace inrarch::hls
