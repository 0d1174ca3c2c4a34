// Values unchanged: optimized graphs (with their derived params) evaluate to the reference,
// for the built-in INSP model at orders 1-3 and for any bundle under tests/data. Also the
// node-count targets on the full-size benchmark model.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>

#include "autodiff/models.h"
#include "frontend/load.h"
#include "ir/interpreter.h"
#include "passes/pipeline.h"

namespace inrarch::passes {
namespace {

namespace fs = std::filesystem;

// max |got - ref| / max |ref| over one output (the `eval --check` measure).
double rel_error(const Tensor& got, const Tensor& ref) {
  EXPECT_EQ(got.shape, ref.shape);
  double diff = 0, scale = 0;
  for (size_t i = 0; i < ref.data.size() && i < got.data.size(); ++i) {
    diff = std::max(diff, std::abs(got.data[i] - ref.data[i]));
    scale = std::max(scale, std::abs(ref.data[i]));
  }
  return scale > 0 ? diff / scale : diff;
}

// Optimizes a copy of `b` and checks every output against the reference values.
void expect_same_values(const ir::Bundle& b, const std::string& what) {
  ASSERT_FALSE(b.reference.empty()) << what;
  ir::Bundle opt = b;
  PipelineOptions o;
  o.verify_each = true;
  const PipelineResult r = optimize_bundle(opt, o);
  EXPECT_LE(r.op_nodes_after, r.op_nodes_before) << what;
  const auto got = ir::evaluate(opt.graph, opt.inputs, opt.params);
  ASSERT_EQ(got.size(), opt.graph.outputs().size());
  for (size_t i = 0; i < got.size(); ++i) {
    const std::string& name = opt.graph.outputs()[i].name;
    ASSERT_TRUE(b.reference.count(name)) << what << ": " << name;
    EXPECT_LE(rel_error(got[i], b.reference.at(name)), 1e-9) << what << ": output " << name;
  }
}

autodiff::SirenSpec small_spec() {
  autodiff::SirenSpec s;
  s.dims = {2, 12, 12, 12, 12, 3};
  s.batch = 5;
  s.seed = 7;
  return s;
}

TEST(PassValues, InspOrder1) { expect_same_values(autodiff::build_insp_bundle(small_spec(), 1), "insp-1"); }
TEST(PassValues, InspOrder2) { expect_same_values(autodiff::build_insp_bundle(small_spec(), 2), "insp-2"); }
TEST(PassValues, InspOrder3) { expect_same_values(autodiff::build_insp_bundle(small_spec(), 3), "insp-3"); }

TEST(PassValues, InspOrder1FullWidth) {
  autodiff::SirenSpec s;
  s.batch = 16;
  expect_same_values(autodiff::build_insp_bundle(s, 1), "insp-1-256");
}

// PyTorch-exported bundles checked in under tests/data/ (python/export_test_data.py writes
// them: tanh PINN, relu net, mixed net, INSP order 2 by make_fx and by the autograd walk);
// every one is optimized and compared with its PyTorch reference.
TEST(PassValues, BundlesInTestData) {
  const fs::path dir = fs::path(INRARCH_SOURCE_DIR) / "tests/data";
  int n = 0;
  if (fs::exists(dir))
    for (const auto& e : fs::directory_iterator(dir))
      if (fs::exists(e.path() / "graph.json") && fs::exists(e.path() / "reference")) {
        expect_same_values(frontend::load_bundle(e.path()), e.path().string());
        ++n;
      }
  EXPECT_GE(n, 5) << "bundles missing under " << dir;
}

// Targets at batch 64 against INR-Arch's function nodes (88 at order 1, 1744 at order 3),
// with the weights held as ROM counted too: order 1 once folded each output channel's
// layer-3 row scaling into its own copy of W3^T (53 op nodes, 8 weights of 256 x 256);
// keeping one W3^T and three elementwise multiplies costs 6 op nodes and saves two
// 2-Mbit ROMs (algebra's row-scale-into-mm folds only into a weight its product alone
// reads). Hand count: 3 forward and 3 backward 256 x 256 weights, one per layer and direction.
PipelineResult optimized(int order) {
  autodiff::SirenSpec s;  // 2-256-256-256-256-3, batch 64: the benchmark
  PipelineOptions o;
  o.verify_each = true;
  return run_pipeline(autodiff::build_insp_graph(s, order), o);
}
size_t optimized_op_nodes(int order) { return optimized(order).op_nodes_after; }

TEST(PassTargets, InspOrder1AtMost59With6LargeWeights) {
  PipelineResult r = optimized(1);
  EXPECT_LE(r.op_nodes_after, 59u);
  int large = 0;
  for (ir::NodeId v : ir::live_nodes(r.graph))
    large += r.graph.op(v) == ir::Op::Param && r.graph.shape(v) == ir::Shape{256, 256};
  EXPECT_EQ(large, 6);
}
TEST(PassTargets, InspOrder3AtMost1046) { EXPECT_LE(optimized_op_nodes(3), 1046u); }

}  // namespace
}  // namespace inrarch::passes
