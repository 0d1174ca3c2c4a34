// Trace check: the FIFO ops each generated kernel performs in C simulation, grouped by
// loop iteration, equal the dataflow schedule of its process (src/dataflow/schedule*.cpp).
// One graph holds every kernel kind and variant (streamed/ROM/splat operands, both mm
// operand forms, every gather op) with beats of 1 and 2 elements; a corrupted trace must
// be rejected.
#include <fstream>
#include <set>
#include <sstream>

#include "hls_test_util.h"

namespace inrarch::hls {
namespace {

using hls_test::out_dir;

ir::Bundle all_kinds_bundle() {
  ir::Bundle b;
  ir::Graph& g = b.graph;
  ir::NodeId x = g.input("x", {4, 6});
  ir::NodeId y = g.input("y", {6, 4});
  ir::NodeId a = g.unary(ir::Op::Sin, x);                                   // unary
  ir::NodeId s = g.binary(ir::Op::Mul, a, g.constant(2.0, {4, 6}));        // splat operand
  ir::NodeId m1 = g.mm(s, y);                                               // mm, A and B streamed
  ir::NodeId t = g.transpose(m1);                                           // transpose
  ir::NodeId bias = g.expand(g.param("bias", {1, 4}), {4, 4});
  ir::NodeId tb = g.binary(ir::Op::Add, bias, t);                           // ROM operand (slot 0)
  ir::NodeId d = g.binary(ir::Op::Sub, tb, m1);                             // binary + copy
  ir::NodeId ma = g.mm(g.param("wa", {3, 4}), d);                           // mm, ROM A
  ir::NodeId mb = g.mm(d, g.param("wb", {4, 5}));                           // mm, ROM B
  ir::NodeId p = g.permute(g.reshape(x, {2, 2, 6}), {2, 0, 1});             // reshape, permute
  ir::NodeId sq = g.squeeze(g.unsqueeze(g.select(p, 0, 1), 0), 0);         // select/unsqueeze/squeeze
  ir::NodeId c = g.cat({g.slice(x, 1, 1, 5, 2), g.slice(x, 1, 0, 2, 1)}, 0);  // slice, cat
  ir::NodeId su = g.sum(c, {0}, false);                                     // sum
  ir::NodeId e = g.expand(g.unsqueeze(su, 0), {3, 2});                      // expand
  ir::NodeId k = g.sum(x, {1}, true);                                       // sum, keepdim
  g.add_output("ma", ma);
  g.add_output("mb", mb);
  g.add_output("sq", sq);
  g.add_output("e", e);
  g.add_output("k", k);
  hls_test::fill_bundle(b, 7);
  return b;
}

TEST(HlsTrace, EveryKernelKindMatchesItsSchedule) {
  ir::Bundle b = all_kinds_bundle();
  dataflow::LowerOptions lo;
  lo.block = 2;
  lo.mm_par = 2;
  dataflow::Design d = dataflow::lower(b.graph, lo);
  std::set<dataflow::Kind> kinds;
  for (const auto& p : d.processes) kinds.insert(p.kind);
  EXPECT_EQ(kinds.size(), 14u);  // every kind but mm_reduce and custom, the six gather maps included
  std::set<ir::Op> gather_ops;
  for (const auto& p : d.processes)
    if (dataflow::is_gather(p.kind)) gather_ops.insert(p.op);
  EXPECT_EQ(gather_ops.size(), 8u);  // reshape unsqueeze squeeze expand select slice cat sum
  hls_test::size_design(d);
  HlsOptions opt;
  opt.type = parse_number_type("double");
  opt.rel_tol = 1e-5;  // the sin ROM's interpolation error, relative
  fs::path dir = out_dir("all_kinds");
  emit_hls(d, b, opt, dir);
  const SimVerdicts v = run_simulations(d, dir, opt);
  std::printf("%s\n", to_json(v).dump(2).c_str());
  EXPECT_TRUE(v.trace->pass) << to_json(*v.trace).dump();
  EXPECT_EQ(size_t(v.trace->processes_checked), d.processes.size());
  EXPECT_TRUE(v.csim->pass());
  EXPECT_TRUE(v.threaded->pass());

  // A kernel that grouped two steps differently must be caught: merge two steps' ops.
  std::ifstream in(dir / "sim" / "trace.txt");
  std::stringstream all;
  all << in.rdbuf();
  std::string text = all.str();
  size_t pos = text.find("\n1 r");  // a single-step run of a read (elementwise fill step)
  ASSERT_NE(pos, std::string::npos);
  text.insert(text.find('\n', pos + 1), " w0");
  std::ofstream(dir / "sim" / "bad_trace.txt") << text;
  const TraceCheck bad = check_trace(d, dir / "sim" / "bad_trace.txt");
  EXPECT_FALSE(bad.pass);
  EXPECT_FALSE(bad.mismatch_process.empty());
  EXPECT_FALSE(bad.mismatch_detail.empty());
}

}  // namespace
}  // namespace inrarch::hls
