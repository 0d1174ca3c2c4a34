// Block-of-rows evaluation must give exactly (bit for bit) what the whole-batch interpreter
// gives: rows are independent and each block sums in the same order.
#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <mutex>

#include "autodiff/models.h"
#include "ir/interpreter.h"
#include "passes/evaluate_rows.h"
#include "passes/pipeline.h"

namespace inrarch::passes {
namespace {

ir::Bundle insp(int order, int64_t batch) {
  autodiff::SirenSpec spec;
  spec.dims = {2, 16, 16, 3};
  spec.batch = batch;
  ir::Bundle b = autodiff::build_insp_bundle(spec, order, false);
  optimize_bundle(b);
  return b;
}

TEST(EvaluateRows, BlocksGiveTheWholeBatchBitForBit) {
  for (int order : {1, 2})
    for (int64_t block : {1, 7, 32, 100}) {
      ir::Bundle b = insp(order, 100);
      std::vector<ir::Tensor> whole = ir::evaluate(b.graph, b.inputs, b.params);
      std::vector<ir::Tensor> blocks = evaluate_in_rows(b.graph, b.inputs, b.params, block);
      ASSERT_EQ(whole.size(), blocks.size());
      for (size_t i = 0; i < whole.size(); ++i) {
        EXPECT_EQ(whole[i].shape, blocks[i].shape);
        EXPECT_EQ(whole[i].data, blocks[i].data) << "order " << order << " block " << block << " output " << i;
      }
    }
}

TEST(EvaluateRows, VisitSeesEveryBlockOfEveryNode) {
  ir::Bundle b = insp(1, 90);
  std::vector<ir::NodeId> nodes;
  for (ir::NodeId n : ir::live_nodes(b.graph))
    if (b.graph.node(n).op != ir::Op::Param) nodes.push_back(n);
  std::map<ir::NodeId, double> whole, blocks;
  std::map<ir::NodeId, int64_t> elems;
  auto max_abs = [](std::map<ir::NodeId, double>& m, ir::NodeId n, const ir::Tensor& v) {
    for (double x : v.data) m[n] = std::max(m[n], std::fabs(x));
  };
  ir::evaluate_visit(b.graph, nodes, b.inputs, b.params, [&](ir::NodeId n, const ir::Tensor& v) { max_abs(whole, n, v); });
  std::mutex mu;
  visit_in_rows(b.graph, nodes, b.inputs, b.params, [&](ir::NodeId n, const ir::Tensor& v) {
    std::lock_guard<std::mutex> lock(mu);
    max_abs(blocks, n, v);
    elems[n] += static_cast<int64_t>(v.data.size());
  }, 16);
  EXPECT_EQ(whole, blocks);
  // A per-row node is seen in 6 blocks that together hold all its elements.
  ir::NodeId out = b.graph.outputs().front().node;
  EXPECT_EQ(elems.at(out), ir::numel(b.graph.shape(out)));
}

TEST(EvaluateRows, GraphsWithoutRowsAreEvaluatedWhole) {
  ir::Graph g;
  ir::NodeId x = g.input("x", {4, 3});
  g.add_output("y", g.transpose(x));
  ir::TensorMap in{{"x", ir::Tensor({4, 3}, {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12})}};
  EXPECT_EQ(evaluate_in_rows(g, in, {}, 2).at(0).data, ir::evaluate(g, in, {}).at(0).data);
}

}  // namespace
}  // namespace inrarch::passes
