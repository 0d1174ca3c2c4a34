// Unit tests of the pass infrastructure: rebuild, the fixpoint driver's loop guard, param
// transforms, the pipeline (hooks, report, errors), idempotence on real graphs, the CLI.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <unistd.h>

#include "autodiff/models.h"
#include "support/error.h"
#include "ir/interpreter.h"
#include "ir/text.h"
#include "passes/fold_params.h"
#include "passes/pipeline.h"
#include "passes/rewriter.h"

namespace inrarch::passes {
namespace {

ir::Graph small_insp(int order) {
  autodiff::SirenSpec s;
  s.dims = {2, 8, 8, 8, 8, 3};
  s.batch = 4;
  return autodiff::build_insp_graph(s, order);
}

TEST(Rewriter, RebuildOfDenseGraphKeepsIds) {
  const ir::Graph g = rebuild(small_insp(1));
  const ir::Graph h = rebuild(g);
  EXPECT_EQ(ir::print_text(g, true), ir::print_text(h, true));
  EXPECT_EQ(g.size(), h.size());
}

// neg(x) -> x*(-1) and x*(-1) -> neg(x) cycle forever; the guard must stop it.
NodeId to_mul(RuleContext& c, const Node& n, NodeId) {
  return c.g.binary(Op::Mul, n.operands[0], c.splat_like(-1.0, n.operands[0]));
}
NodeId to_neg(RuleContext& c, const Node& n, NodeId) {
  return c.splat(n.operands[1]) == -1.0 ? c.g.unary(Op::Neg, n.operands[0]) : ir::kNoNode;
}

TEST(Rewriter, LoopGuardStopsCyclicRules) {
  ir::Graph g;
  g.add_output("y", g.unary(Op::Neg, g.input("x", {2, 2})));
  const Rule cyclic[] = {{"to-mul", Op::Neg, to_mul}, {"to-neg", Op::Mul, to_neg}};
  PassStats stats;
  const ir::Graph out = run_rules(g, cyclic, stats, {4, 8});
  EXPECT_GE(stats.get("fixpoint-guard"), 1);
  EXPECT_NO_THROW(ir::verify(out));
}

TEST(FoldParams, RecipeComputesTransposedWeight) {
  ir::Graph g;
  const NodeId x = g.input("x", {1, 2});
  const NodeId w = g.param("w", {3, 2});
  g.add_output("y", g.mm(x, g.transpose(w)));
  PassContext ctx;
  const ir::Graph out = fold_params(g, ctx);
  ASSERT_EQ(ctx.new_params.size(), 1u);
  EXPECT_EQ(ctx.new_params[0].name, "w.T");
  EXPECT_NE(out.find_param("w.T"), ir::kNoNode);
  EXPECT_EQ(out.find_param("w"), ir::kNoNode);
  ir::TensorMap params{{"w", Tensor({3, 2}, {1, 2, 3, 4, 5, 6})}};
  apply_param_transforms(ctx.new_params, params);
  EXPECT_EQ(params.at("w.T"), Tensor({2, 3}, {1, 3, 5, 2, 4, 6}));
}

TEST(FoldParams, NewNamesNeverCollide) {
  ir::Graph g;
  const NodeId x = g.input("x", {1, 2});
  const NodeId w = g.param("w", {3, 2});
  g.param("w.T", {2, 3});  // a param already called w.T (dead, but its name is taken)
  const NodeId wt = g.transpose(w);
  g.add_output("y", g.mm(x, g.binary(Op::Add, wt, g.param("w.T2", {2, 3}))));
  g.add_output("z", g.mm(x, wt));
  PassContext ctx;
  ctx.new_params.push_back({"w.f1", ir::Graph()});
  const ir::Graph out = fold_params(g, ctx);
  std::set<std::string> names;
  for (const auto& t : ctx.new_params) EXPECT_TRUE(names.insert(t.name).second) << t.name;
  EXPECT_EQ(ctx.stats.get("fold-param-expr"), 1);
  EXPECT_EQ(ctx.stats.get("fold-transpose"), 1);
  ir::verify(out);
}

TEST(Pipeline, UnknownPassIsAnError) {
  PipelineOptions o;
  o.passes = {"cse", "no-such-pass"};
  try {
    run_pipeline(small_insp(1), o);
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("no-such-pass"), std::string::npos);
  }
}

TEST(Pipeline, PrintAfterHookAndReport) {
  PipelineOptions o;
  o.verify_each = true;
  o.print_after = {"fold-params"};
  std::vector<std::string> printed;
  o.on_print = [&](const std::string& name, size_t, const ir::Graph& g) {
    printed.push_back(name);
    EXPECT_NO_THROW(ir::verify(g));
  };
  const PipelineResult r = run_pipeline(small_insp(1), o);
  EXPECT_EQ(printed, std::vector<std::string>{"fold-params"});
  const nlohmann::json j = pipeline_report(r);
  EXPECT_EQ(j["op_nodes_optimized"], r.op_nodes_after);
  ASSERT_EQ(j["passes"].size(), default_pipeline().size());
  for (const auto& p : j["passes"])
    for (const char* key : {"name", "op_nodes_before", "op_nodes_after", "rewrites", "ms"})
      EXPECT_TRUE(p.contains(key)) << key;
  // The first transpose-simplify of the list cancels mm's VJP W^T^T.
  const auto first = std::find_if(j["passes"].begin(), j["passes"].end(),
                                  [](const nlohmann::json& p) { return p["name"] == "transpose-simplify"; });
  ASSERT_NE(first, j["passes"].end());
  EXPECT_GT((*first)["rewrites"]["transpose-transpose"].get<int>(), 0);
}

// Each pass on its own, and the whole pipeline, is idempotent and verifier-clean on a real
// third-order gradient graph.
TEST(Pipeline, EveryPassIdempotentOnInsp) {
  const ir::Graph g = small_insp(2);
  for (const PassInfo& p : available_passes()) {
    PassContext c1, c2;
    const ir::Graph once = p.fn(g, c1);
    ir::verify(once);
    const ir::Graph twice = p.fn(once, c2);
    EXPECT_EQ(ir::print_text(twice), ir::print_text(once)) << p.name;
  }
  PipelineOptions o;
  o.verify_each = true;
  const PipelineResult r1 = run_pipeline(g, o);
  const PipelineResult r2 = run_pipeline(r1.graph, o);
  EXPECT_EQ(ir::print_text(r2.graph), ir::print_text(r1.graph));
  EXPECT_LT(r1.op_nodes_after, r1.op_nodes_before);
}

TEST(OptimizeBundle, DerivesNewParamsAndDropsUnused) {
  autodiff::SirenSpec s;
  s.dims = {2, 8, 8, 3};
  s.batch = 3;
  ir::Bundle b = autodiff::build_insp_bundle(s, 1);
  const PipelineResult r = optimize_bundle(b);
  for (const ir::Node& n : b.graph.nodes())
    if (n.op == Op::Param) {
      EXPECT_TRUE(b.params.count(n.attrs.name)) << n.attrs.name;
    }
  for (const auto& [name, t] : b.params) EXPECT_NE(b.graph.find_param(name), ir::kNoNode) << name;
  EXPECT_FALSE(r.new_params.empty());
}

// ---- CLI ----------------------------------------------------------------------------------

int run_cli(const std::string& args, std::string* out = nullptr) {
  const std::string cmd = std::string(INRARCH_BINARY) + " " + args + " 2>&1";
  FILE* p = popen(cmd.c_str(), "r");
  std::string text;
  char buf[4096];
  while (size_t n = fread(buf, 1, sizeof buf, p)) text.append(buf, n);
  const int rc = pclose(p);
  if (out) *out = text;
  return WEXITSTATUS(rc);
}

// A small graph file for the CLI: T(T(w)) to cancel and a transposed weight to fold.
std::string layer_file() {
  const auto file = std::filesystem::temp_directory_path() / ("inrarch-opt-cli-layer-" + std::to_string(::getpid()) + ".ir");
  ir::Graph g("t");
  const NodeId x = g.input("x", {4, 3});
  const NodeId wt = g.transpose(g.param("w", {5, 3}));
  g.add_output("y", g.mm(g.mm(x, wt), g.transpose(wt)));
  FILE* f = std::fopen(file.c_str(), "w");
  std::fputs(ir::print_text(g).c_str(), f);
  std::fclose(f);
  return file.string();
}
const std::string kLayer = layer_file();

TEST(OptCli, PrintsIrAndStats) {
  std::string out;
  ASSERT_EQ(run_cli("opt " + kLayer + " --stats --print-after fold-params", &out), 0) << out;
  EXPECT_NE(out.find("graph @t"), std::string::npos);
  EXPECT_NE(out.find("transpose-transpose=1"), std::string::npos) << out;
  EXPECT_NE(out.find("// ----- IR after fold-params"), std::string::npos);
  EXPECT_NE(out.find("param \"w.T\""), std::string::npos) << out;
}

TEST(OptCli, ErrorsExitOne) {
  std::string out;
  EXPECT_EQ(run_cli("opt " + kLayer + " --passes cse,bogus", &out), 1);
  EXPECT_NE(out.find("unknown pass \"bogus\""), std::string::npos) << out;
  EXPECT_EQ(run_cli("opt " + kLayer + " -o /tmp/inrarch-opt-never", &out), 1);
  EXPECT_FALSE(std::filesystem::exists("/tmp/inrarch-opt-never"));
}

TEST(OptCli, WritesOptimizedBundleThatChecks) {
  const auto dir = std::filesystem::temp_directory_path() / ("inrarch-opt-cli-test-" + std::to_string(::getpid()));
  std::filesystem::remove_all(dir);
  ASSERT_EQ(run_cli("model insp --order 2 --batch 4 --width 8 -o " + (dir / "in").string()), 0);
  std::string out;
  ASSERT_EQ(run_cli("opt " + (dir / "in").string() + " -o " + (dir / "out").string(), &out), 0) << out;
  EXPECT_EQ(run_cli("eval --check -q " + (dir / "out").string(), &out), 0) << out;
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace inrarch::passes
