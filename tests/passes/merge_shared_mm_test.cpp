// Merging products that share a weight: the rewritten graph (golden), values unchanged,
// dependence and cross-group cycles respected, group size bounded.
#include <gtest/gtest.h>

#include "autodiff/models.h"
#include "ir/interpreter.h"
#include "ir/text.h"
#include "passes/merge_shared_mm.h"
#include "passes/pipeline.h"

namespace inrarch::passes {
namespace {

ir::TensorMap ramp_params(const ir::Graph& g) {
  ir::TensorMap params;
  for (ir::NodeId v : ir::live_nodes(g)) {
    const auto& n = g.node(v);
    if (n.op != ir::Op::Param) continue;
    ir::Tensor t(n.shape);
    for (size_t i = 0; i < t.data.size(); ++i) t.data[i] = 0.01 * double(i % 7) - 0.02;
    params[n.attrs.name] = t;
  }
  return params;
}

void expect_same_values(const ir::Graph& a, const ir::Graph& b, const ir::TensorMap& inputs) {
  ir::TensorMap params = ramp_params(a);
  std::vector<ir::Tensor> x = ir::evaluate(a, inputs, params), y = ir::evaluate(b, inputs, params);
  ASSERT_EQ(x.size(), y.size());
  for (size_t i = 0; i < x.size(); ++i) EXPECT_EQ(x[i].data, y[i].data) << "output " << i;
}

TEST(MergeSharedMm, TwoIndependentProductsGolden) {
  ir::Graph g("two");
  ir::NodeId x = g.input("x", {2, 3}), y = g.input("y", {2, 3});
  ir::NodeId w = g.param("w", {3, 4});
  g.add_output("a", g.mm(x, w));
  g.add_output("b", g.mm(g.unary(ir::Op::Sin, y), w));
  PassContext ctx;
  ir::Graph m = merge_shared_mm(g, ctx, 8);
  ir::verify(m);
  EXPECT_EQ(ir::print_text(m),
            "graph @two {\n"
            "  %0 = input \"x\" : [2,3]\n"
            "  %1 = input \"y\" : [2,3]\n"
            "  %2 = param \"w\" : [3,4]\n"
            "  %3 = unsqueeze %0 {dim = 1} : [2,1,3]\n"
            "  %4 = sin %1 : [2,3]\n"
            "  %5 = unsqueeze %4 {dim = 1} : [2,1,3]\n"
            "  %6 = cat %3, %5 {dim = 1} : [2,2,3]\n"
            "  %7 = reshape %6 : [4,3]\n"
            "  %8 = mm %7, %2 : [4,4]\n"
            "  %9 = reshape %8 : [2,2,4]\n"
            "  %10 = select %9 {dim = 1, index = 0} : [2,4]\n"
            "  %11 = select %9 {dim = 1, index = 1} : [2,4]\n"
            "  output \"a\" = %10\n"
            "  output \"b\" = %11\n"
            "}\n");
  EXPECT_EQ(ctx.stats.get("merged-mm"), 1);
  ir::Tensor tx({2, 3}), ty({2, 3});
  for (int i = 0; i < 6; ++i) tx.data[i] = i * 0.5 - 1, ty.data[i] = 1 - i * 0.25;
  expect_same_values(g, m, {{"x", tx}, {"y", ty}});
}

TEST(MergeSharedMm, DependentProductsStayApart) {
  ir::Graph g;
  ir::NodeId x = g.input("x", {2, 4});
  ir::NodeId w = g.param("w", {4, 4});
  g.add_output("y", g.mm(g.unary(ir::Op::Sin, g.mm(x, w)), w));
  PassContext ctx;
  ir::Graph m = merge_shared_mm(g, ctx, 8);
  EXPECT_EQ(ctx.stats.get("merged-mm"), 0);
  EXPECT_EQ(ir::print_text(m), ir::print_text(g));
}

// W's products {a1, a2} and V's {b1, b2} are each independent, but a2 reads b1's result and
// b2 reads a1's: merging both would make each merged product wait for the other.
TEST(MergeSharedMm, GroupsThatWouldFormACycleAreNotBothMerged) {
  ir::Graph g;
  ir::NodeId x = g.input("x", {2, 4}), y = g.input("y", {2, 4});
  ir::NodeId w = g.param("w", {4, 4}), v = g.param("v", {4, 4});
  ir::NodeId a1 = g.mm(x, w), b1 = g.mm(y, v);
  g.add_output("a2", g.mm(g.unary(ir::Op::Sin, b1), w));
  g.add_output("b2", g.mm(g.unary(ir::Op::Cos, a1), v));
  PassContext ctx;
  ir::Graph m = merge_shared_mm(g, ctx, 8);
  ir::verify(m);
  EXPECT_EQ(ctx.stats.get("merge-groups"), 1);
  EXPECT_EQ(ctx.stats.get("merged-mm"), 1);
  ir::Tensor tx({2, 4}), ty({2, 4});
  for (int i = 0; i < 8; ++i) tx.data[i] = i * 0.1, ty.data[i] = -i * 0.2;
  expect_same_values(g, m, {{"x", tx}, {"y", ty}});
}

size_t count_mm(const ir::Graph& g) {
  size_t n = 0;
  for (ir::NodeId v : ir::live_nodes(g)) n += g.op(v) == ir::Op::Mm;
  return n;
}

// INSP order 1: each of the four backward weights is read by three independent products
// (one per output channel).
TEST(MergeSharedMm, InspOrder1GroupSizes) {
  autodiff::SirenSpec spec;
  spec.dims = {2, 16, 16, 16, 16, 3};
  spec.batch = 4;
  ir::Bundle b = autodiff::build_insp_bundle(spec, 1, false);
  optimize_bundle(b);
  ASSERT_EQ(count_mm(b.graph), 17u);
  PassContext all, pairs;
  ir::Graph m3 = merge_shared_mm(b.graph, all, 8);
  ir::Graph m2 = merge_shared_mm(b.graph, pairs, 2);
  ir::verify(m3);
  ir::verify(m2);
  EXPECT_EQ(count_mm(m3), 17u - 8);  // four groups of three
  EXPECT_EQ(all.stats.get("merge-groups"), 4);
  EXPECT_EQ(count_mm(m2), 17u - 4);  // four pairs, four left alone
  EXPECT_EQ(pairs.stats.get("merge-groups"), 4);
  expect_same_values(b.graph, m3, b.inputs);
  expect_same_values(b.graph, m2, b.inputs);
}

}  // namespace
}  // namespace inrarch::passes
