// Rebatching: the graph at k rows is the model built at k rows (node for node), it computes
// the first k rows of the reference, B rows give the graph back, and graphs that mix rows
// or move the batch are refused with a reason naming the node.
#include <gtest/gtest.h>

#include "autodiff/models.h"
#include "support/error.h"
#include "ir/interpreter.h"
#include "passes/merge_shared_mm.h"
#include "passes/pipeline.h"
#include "passes/rebatch.h"
#include "passes/rewriter.h"

namespace inrarch::passes {
namespace {

using ir::Op;

constexpr int64_t kBatch = 8;
constexpr int64_t kRows = 3;

autodiff::SirenSpec small_siren(int64_t batch) {
  autodiff::SirenSpec spec;
  spec.dims = {2, 16, 16, 16, 3};
  spec.batch = batch;
  return spec;
}

// Same nodes (op, operands, attrs, shape) in the same order, same outputs.
void expect_same_graph(const ir::Graph& a, const ir::Graph& b) {
  ASSERT_EQ(a.size(), b.size());
  for (ir::NodeId v = 0; v < a.size(); ++v) {
    ASSERT_EQ(a.op(v), b.op(v)) << "node %" << v;
    EXPECT_EQ(a.node(v).operands, b.node(v).operands) << "node %" << v;
    EXPECT_EQ(a.node(v).attrs, b.node(v).attrs) << "node %" << v;
    EXPECT_EQ(a.shape(v), b.shape(v)) << "node %" << v;
  }
  EXPECT_EQ(a.outputs(), b.outputs());
  ASSERT_EQ(a.tensor_count(), b.tensor_count());
  for (size_t t = 0; t < a.tensor_count(); ++t)
    EXPECT_EQ(a.tensor(int32_t(t)), b.tensor(int32_t(t))) << "tensor " << t;
}

// The bundle's graph at kRows rows computes the first kRows rows of its reference.
void expect_first_rows(const ir::Bundle& b) {
  std::string why;
  ASSERT_EQ(graph_rows(b.graph, &why), kBatch) << why;
  const ir::Graph r = rebatch(b.graph, kRows);
  ir::verify(r);
  EXPECT_EQ(graph_rows(r), kRows);
  const ir::TensorMap want = first_rows(b.reference, kBatch, kRows);
  const ir::TensorMap inputs = first_rows(b.inputs, kBatch, kRows);
  const std::vector<ir::Tensor> got = ir::evaluate(r, inputs, b.params);
  ASSERT_EQ(got.size(), r.outputs().size());
  for (size_t i = 0; i < got.size(); ++i) {
    const ir::Tensor& w = want.at(r.outputs()[i].name);
    ASSERT_EQ(got[i].shape, w.shape) << r.outputs()[i].name;
    EXPECT_EQ(got[i].shape[0], kRows) << r.outputs()[i].name;
    for (size_t k = 0; k < w.data.size(); ++k)
      ASSERT_NEAR(got[i].data[k], w.data[k], 1e-12) << r.outputs()[i].name << "[" << k << "]";
  }
}

ir::Bundle insp(int order, int64_t batch) {
  return autodiff::build_insp_bundle(small_siren(batch), order, true);
}

// grad() leaves dead adjoints behind; rebatch keeps the live nodes, in order, as every pass.
TEST(Rebatch, InspIsTheModelBuiltAtFewerRows) {
  for (int order : {1, 2}) {
    SCOPED_TRACE(order);
    const ir::Bundle full = insp(order, kBatch);
    const ir::Graph small = autodiff::build_insp_graph(small_siren(kRows), order);
    expect_same_graph(rebatch(full.graph, kRows), rebuild(small));
    expect_first_rows(full);
  }
}

TEST(Rebatch, OptimizedInspIsTheOptimizedModelAtFewerRows) {
  for (int order : {1, 2}) {
    SCOPED_TRACE(order);
    ir::Bundle full = insp(order, kBatch), small = insp(order, kRows);
    optimize_bundle(full);
    optimize_bundle(small);
    expect_same_graph(rebatch(full.graph, kRows), small.graph);
    expect_first_rows(full);
  }
}

// merge_shared_mm stacks m row streams as reshape(cat(...), [M*m, K]): rows with f = m.
TEST(Rebatch, MergedProductsKeepTheirStackedRows) {
  for (int order : {1, 2}) {
    SCOPED_TRACE(order);
    ir::Bundle full = insp(order, kBatch), small = insp(order, kRows);
    optimize_bundle(full);
    optimize_bundle(small);
    PassContext ctx, ctx_small;
    full.graph = merge_shared_mm(full.graph, ctx, 2);
    small.graph = merge_shared_mm(small.graph, ctx_small, 2);
    ASSERT_GT(ctx.stats.get("merged-mm"), 0);
    bool stacked = false;
    for (ir::NodeId v : ir::live_nodes(full.graph))
      stacked |= full.graph.op(v) == Op::Reshape && full.graph.shape(v).at(0) == 2 * kBatch;
    EXPECT_TRUE(stacked) << "no [2B, K] reshape to rebatch";
    expect_same_graph(rebatch(full.graph, kRows), small.graph);
    expect_first_rows(full);
  }
}

TEST(Rebatch, FullBatchGivesTheGraphBack) {
  ir::Bundle b = insp(2, kBatch);
  expect_same_graph(rebatch(b.graph, kBatch), rebuild(b.graph));
  optimize_bundle(b);
  ASSERT_EQ(ir::live_nodes(b.graph).size(), b.graph.size());
  expect_same_graph(rebatch(b.graph, kBatch), b.graph);
  PassContext ctx;
  const ir::Graph merged = merge_shared_mm(b.graph, ctx, 2);
  expect_same_graph(rebatch(merged, kBatch), merged);
}

TEST(Rebatch, FirstRowsCutsBatchedTensorsOnly) {
  ir::TensorMap m;
  m["x"] = ir::Tensor({4, 2}, {0, 1, 2, 3, 4, 5, 6, 7});
  m["stacked"] = ir::Tensor({8}, {0, 1, 2, 3, 4, 5, 6, 7});
  m["other"] = ir::Tensor({3}, {1, 2, 3});
  const ir::TensorMap r = first_rows(m, 4, 1);
  EXPECT_EQ(r.at("x"), ir::Tensor({1, 2}, {0, 1}));
  EXPECT_EQ(r.at("stacked"), ir::Tensor({2}, {0, 1}));
  EXPECT_EQ(r.at("other"), m.at("other"));
  EXPECT_THROW(first_rows(m, 4, 5), Error);
  EXPECT_THROW(first_rows(m, 4, 0), Error);
}

// ---- refusals

bool has(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

std::string refusal(const ir::Graph& g) {
  std::string why;
  EXPECT_EQ(graph_rows(g, &why), std::nullopt);
  EXPECT_THROW(rebatch(g, 2), Error);
  return why;
}

// [4,8] transposed is [8,4]: still a multiple of the batch, but no longer grouped by row.
TEST(Rebatch, RefusesTransposeOfRows) {
  ir::Graph g;
  ir::NodeId x = g.input("x", {4, 8});
  g.add_output("y", g.transpose(x));
  EXPECT_EQ(refusal(g), "node %1 (transpose) moves the batch dimension of %0");
}

// [4,8,2] summed over dim 0 is [8,2]: a multiple of the batch, but every row mixed in.
TEST(Rebatch, RefusesSumOverTheBatch) {
  ir::Graph g;
  ir::NodeId x = g.input("x", {4, 8, 2});
  g.add_output("y", g.sum(g.unary(Op::Sin, x), {-3}, false));
  EXPECT_EQ(refusal(g), "node %2 (sum) sums over the batch dimension of %1");
}

TEST(Rebatch, RefusesProductContractingTheBatch) {
  ir::Graph g;
  ir::NodeId x = g.input("x", {4, 3});
  ir::NodeId w = g.param("w", {5, 4});
  g.add_output("y", g.mm(w, x));
  EXPECT_EQ(refusal(g), "node %2 (mm) contracts over the batch of %0");
}

TEST(Rebatch, RefusesSelectOfARow) {
  ir::Graph g;
  ir::NodeId x = g.input("x", {4, 8, 2});
  g.add_output("y", g.select(x, 0, 1));
  EXPECT_EQ(refusal(g), "node %1 (select) indexes the batch dimension of %0");
}

// Permutes that keep dim 0 outermost keep the rows; any other moves the batch.
TEST(Rebatch, RefusesPermuteOfTheBatch) {
  ir::Graph g;
  ir::NodeId x = g.input("x", {4, 8, 2});
  g.add_output("y", g.permute(x, {0, 2, 1}));
  EXPECT_EQ(graph_rows(g), 4);
  EXPECT_EQ(rebatch(g, 1).shape(1), (Shape{1, 2, 8}));
  g.add_output("z", g.permute(x, {1, 0, 2}));
  EXPECT_EQ(refusal(g), "node %2 (permute) moves the batch dimension of %0");
}

TEST(Rebatch, RefusesCatAlongTheBatch) {
  ir::Graph g;
  ir::NodeId x = g.input("x", {4, 3});
  g.add_output("y", g.cat({x, g.unary(Op::Neg, x)}, 0));
  EXPECT_EQ(refusal(g), "node %2 (cat) concatenates along the batch dimension of %0");
}

TEST(Rebatch, RefusesDenseDataMeetingRows) {
  ir::Graph g;
  ir::NodeId x = g.input("x", {2, 3});
  ir::NodeId c = g.constant(ir::Tensor({2, 3}, {1, 2, 3, 4, 5, 6}));
  g.add_output("y", g.binary(Op::Add, x, c));
  EXPECT_PRED2(has, refusal(g),
               "node %2 (add) meets the rows of %0 with %1 (const), fixed data of shape [2,3]");
}

TEST(Rebatch, RefusesInputsThatDisagree) {
  ir::Graph g;
  ir::NodeId x = g.input("x", {64, 2}), y = g.input("y", {32, 2});
  g.add_output("a", g.unary(Op::Sin, x));
  g.add_output("b", g.unary(Op::Sin, y));
  EXPECT_EQ(refusal(g), "inputs disagree on the batch: x has 64, y has 32");
}

TEST(Rebatch, RefusesABatchOfOne) {
  ir::Graph g;
  ir::NodeId x = g.input("x", {1, 3});
  g.add_output("y", g.unary(Op::Sin, x));
  EXPECT_PRED2(has, refusal(g), "input x has a batch of 1");
}

TEST(Rebatch, RefusesAGraphWithoutInputs) {
  ir::Graph g;
  g.add_output("w", g.param("w", {4, 3}));
  EXPECT_EQ(refusal(g), "no input");
}

// A broadcast row read per row by one node and at its old size by another would need two
// copies.
TEST(Rebatch, RefusesABroadcastRowAlsoReadAtItsSize) {
  ir::Graph g;
  ir::NodeId x = g.input("x", {4, 3});
  ir::NodeId b = g.expand(g.param("b", {1, 3}), {4, 3});
  g.add_output("y", g.binary(Op::Add, x, b));
  g.add_output("z", g.select(b, 0, 3));
  EXPECT_EQ(refusal(g), "node %2 (expand) is needed per row by %3 and at its fixed size by %4");
}

// At 2 rows the splat added to x becomes the [2,3] splat output "c": hash-consing would merge
// the two and renumber the nodes after them.
TEST(Rebatch, RefusesARowCountThatMergesNodes) {
  ir::Graph g;
  ir::NodeId x = g.input("x", {4, 3});
  g.add_output("c", g.constant(1.0, {2, 3}));
  g.add_output("y", g.binary(Op::Add, x, g.constant(1.0, {4, 3})));
  ir::verify(rebatch(g, 3));
  try {
    rebatch(g, 2);
    ADD_FAILURE() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(std::string(e.what()), "rebatch: at 2 rows node %2 (const) becomes equal to %1, "
                                     "which would renumber the nodes after it");
  }
}

// Splats and expands of a [1, N] weight are resized with the rows they meet; a weight that
// only multiplies rows is not.
TEST(Rebatch, ResizesBroadcastRowsAndNothingElse) {
  ir::Graph g;
  ir::NodeId x = g.input("x", {4, 3});
  ir::NodeId w = g.param("w", {3, 4});
  ir::NodeId b = g.expand(g.param("b", {1, 4}), {4, 4});
  ir::NodeId h = g.binary(Op::Mul, g.constant(2.0, {4, 4}), g.binary(Op::Add, g.mm(x, w), b));
  g.add_output("y", h);
  ir::Graph r = rebatch(g, 2);
  ir::verify(r);
  EXPECT_EQ(r.shape(x), (Shape{2, 3}));
  EXPECT_EQ(r.shape(w), (Shape{3, 4}));
  EXPECT_EQ(r.shape(b), (Shape{2, 4}));
  EXPECT_EQ(r.shape(g.node(b).operands[0]), (Shape{1, 4}));
  EXPECT_EQ(r.shape(r.outputs()[0].node), (Shape{2, 4}));
  EXPECT_THROW(rebatch(g, 0), Error);
}

}  // namespace
}  // namespace inrarch::passes
