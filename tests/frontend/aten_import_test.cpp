// The aten importer: rules checked by value through the reference interpreter, error
// messages, and the Python mirror of the rule table (python/inrarch_torch/aten_ops.txt).
#include "frontend/aten_import.h"

#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <limits>
#include <nlohmann/json.hpp>

#include "frontend/aten_context.h"
#include "frontend/load.h"
#include "support/error.h"
#include "ir/interpreter.h"
#include "../io_test_util.h"

namespace inrarch::frontend {
namespace {

using nlohmann::json;

json ref(int id) { return json{{"node", id}}; }

// x: input [2,3] = 0.5, -1, 2 / 3, -0.25, 1; then the given aten nodes; output = last node.
json graph_with(std::vector<json> nodes) {
  json g = {{"format", "inrarch-aten"}, {"version", 1}, {"name", "t"}};
  g["nodes"] = json::array({{{"id", 0}, {"op", "input"}, {"name", "x"}, {"shape", {2, 3}}}});
  for (auto& n : nodes) g["nodes"].push_back(n);
  g["outputs"] = json::array({{{"name", "y"}, {"node", g["nodes"].back()["id"]}}});
  return g;
}

json aten(int id, const std::string& op, json args, json shape, json kwargs = nullptr) {
  json n = {{"id", id}, {"op", op}, {"args", std::move(args)}, {"shape", std::move(shape)}};
  if (!kwargs.is_null()) n["kwargs"] = std::move(kwargs);
  return n;
}

std::vector<double> run(const json& g) {
  ir::Graph graph = graph_from_aten_json(g, "test.json");
  ir::verify(graph);
  ir::TensorMap inputs{{"x", Tensor({2, 3}, {0.5, -1, 2, 3, -0.25, 1})}};
  return ir::evaluate(graph, inputs, {}).at(0).data;
}

void expect_near(const std::vector<double>& got, const std::vector<double>& want) {
  ASSERT_EQ(got.size(), want.size());
  for (size_t i = 0; i < got.size(); ++i) EXPECT_NEAR(got[i], want[i], 1e-12) << "element " << i;
}

TEST(AtenImport, BroadcastAddWithAlphaAndScalar) {
  // x + 2 * [1, 2, 3]  (the [3] constant broadcasts over rows)
  json c = {{"id", 1}, {"op", "const"}, {"shape", {3}}, {"value", {1.0, 2.0, 3.0}}};
  expect_near(run(graph_with({c, aten(2, "aten.add.Tensor", {ref(0), ref(1)}, {2, 3}, {{"alpha", 2}})})),
              {2.5, 3, 8, 5, 3.75, 7});
}

TEST(AtenImport, InPlaceVariantUsesFunctionalRule) {
  expect_near(run(graph_with({aten(1, "aten.mul_.Tensor", {ref(0), 2}, {2, 3})})),
              {1, -2, 4, 6, -0.5, 2});
}

TEST(AtenImport, SelectBackwardScattersIntoZeros) {
  json sel = aten(1, "aten.select.int", {ref(0), 1, 1}, {2});
  json back = aten(2, "aten.select_backward.default", {ref(1), {2, 3}, 1, 1}, {2, 3});
  expect_near(run(graph_with({sel, back})), {0, -1, 0, 0, -0.25, 0});
}

TEST(AtenImport, SliceBackwardScattersIntoZeros) {
  json sl = aten(1, "aten.slice.Tensor", {ref(0), 1, 1, 3, 1}, {2, 2});
  json back = aten(2, "aten.slice_backward.default", {ref(1), {2, 3}, 1, 1, 3, 1}, {2, 3});
  expect_near(run(graph_with({sl, back})), {0, -1, 2, 0, -0.25, 1});
}

TEST(AtenImport, SliceBackwardWithAStep) {
  json sl = aten(1, "aten.slice.Tensor", {ref(0), 1, 0, 3, 2}, {2, 2});
  json back = aten(2, "aten.slice_backward.default", {ref(1), {2, 3}, 1, 0, 3, 2}, {2, 3});
  expect_near(run(graph_with({sl, back})), {0.5, 0, 2, 3, 0, 1});
}

// What in-place updates of views become (python/inrarch_torch/functional.py).
json const_node(int id, json shape, json value) {
  return {{"id", id}, {"op", "const"}, {"shape", std::move(shape)}, {"value", std::move(value)}};
}

TEST(AtenImport, SelectScatterReplacesOneIndex) {  // x[:, i] = [7, 8]
  json src = const_node(1, {2}, {7.0, 8.0});
  expect_near(run(graph_with({src, aten(2, "aten.select_scatter.default", {ref(0), ref(1), 1, 1}, {2, 3})})),
              {0.5, 7, 2, 3, 8, 1});
  expect_near(run(graph_with({src, aten(2, "aten.select_scatter.default", {ref(0), ref(1), -1, -1}, {2, 3})})),
              {0.5, -1, 7, 3, -0.25, 8});
}

TEST(AtenImport, SliceScatterWithAndWithoutAStep) {  // x[:, 1:] = src, x[:, ::2] = src
  json src = const_node(1, {2, 2}, {7.0, 8.0, 9.0, 10.0});
  const json end = std::numeric_limits<int64_t>::max();
  expect_near(run(graph_with({src, aten(2, "aten.slice_scatter.default", {ref(0), ref(1), 1, 1, end, 1}, {2, 3})})),
              {0.5, 7, 8, 3, 9, 10});
  expect_near(run(graph_with({src, aten(2, "aten.slice_scatter.default", {ref(0), ref(1), 1, 0, nullptr, 2}, {2, 3})})),
              {7, -1, 8, 9, -0.25, 10});
  expect_near(run(graph_with({src, aten(2, "aten.slice_scatter.default", {ref(0), ref(1)}, {2, 3},
                                        {{"dim", 1}, {"start", -2}})})),
              {0.5, 7, 8, 3, 9, 10});
}

TEST(AtenImport, ScatterOfTheWrongSizeNamesTheNode) {
  json src = const_node(1, {2, 2}, {7.0, 8.0, 9.0, 10.0});
  json g = graph_with({src, aten(2, "aten.slice_scatter.default", {ref(0), ref(1), 1, 2, 3, 1}, {2, 3})});
  try {
    graph_from_aten_json(g, "g.json");
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("g.json: node 2"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("the source has 2 elements along dim 1, the slice 1"), std::string::npos)
        << e.what();
  }
}

TEST(AtenImport, CopyBroadcastsTheSource) {
  json src = const_node(1, {3}, {1.0, 2.0, 3.0});
  expect_near(run(graph_with({src, aten(2, "aten.copy.default", {ref(0), ref(1)}, {2, 3})})), {1, 2, 3, 1, 2, 3});
}

TEST(AtenImport, PowBySmallIntegersIsMultiplication) {
  expect_near(run(graph_with({aten(1, "aten.pow.Tensor_Scalar", {ref(0), 3}, {2, 3})})),
              {0.125, -1, 8, 27, -0.015625, 1});
  expect_near(run(graph_with({aten(1, "aten.pow.Tensor_Scalar", {ref(0), -2.0}, {2, 3})})),
              {4, 1, 0.25, 1.0 / 9, 16, 1});
}

TEST(AtenImport, SigmoidSoftplusAndTheirBackward) {
  std::vector<double> x = {0.5, -1, 2, 3, -0.25, 1}, sig, sp;
  for (double v : x) sig.push_back(1 / (1 + std::exp(-v)));
  for (double v : x) sp.push_back(std::log1p(std::exp(v)));
  expect_near(run(graph_with({aten(1, "aten.sigmoid.default", {ref(0)}, {2, 3})})), sig);
  expect_near(run(graph_with({aten(1, "aten.softplus.default", {ref(0), 1, 20}, {2, 3})})), sp);
  expect_near(run(graph_with({aten(1, "aten.softplus_backward.default", {ref(0), ref(0), 1, 20}, {2, 3})})),
              {0.5 * sig[0], -sig[1], 2 * sig[2], 3 * sig[3], -0.25 * sig[4], sig[5]});
}

TEST(AtenImport, ReluDerivativeAndComparisons) {
  expect_near(run(graph_with({aten(1, "aten.threshold_backward.default", {ref(0), ref(0), 0}, {2, 3})})),
              {0.5, 0, 2, 3, 0, 1});
  expect_near(run(graph_with({aten(1, "aten.lt.Scalar", {ref(0), 1}, {2, 3})})), {1, 1, 0, 0, 1, 0});
  expect_near(run(graph_with({aten(1, "aten.ge.Scalar", {ref(0), 1}, {2, 3})})), {0, 0, 1, 1, 0, 1});
}

// Masks of x = [0.5, -1, 2, 3, -0.25, 1]: x > 1 or x < 0, its negation, and isnan (the IR
// holds no NaN, so none is one), as the inf-norm's backward combines them.
TEST(AtenImport, LogicalOrNotAndIsnanOfMasks) {
  json above = aten(1, "aten.gt.Scalar", {ref(0), 1}, {2, 3});
  json below = aten(2, "aten.lt.Scalar", {ref(0), 0}, {2, 3});
  json either = aten(3, "aten.logical_or.default", {ref(1), ref(2)}, {2, 3});
  expect_near(run(graph_with({above, below, either})), {0, 1, 1, 1, 1, 0});
  expect_near(run(graph_with({above, below, either, aten(4, "aten.logical_not.default", {ref(3)}, {2, 3})})),
              {1, 0, 0, 0, 0, 1});
  expect_near(run(graph_with({aten(1, "aten.isnan.default", {ref(0)}, {2, 3})})), {0, 0, 0, 0, 0, 0});
}

TEST(AtenImport, MatrixProductsAndReductions) {
  json t = aten(1, "aten.t.default", {ref(0)}, {3, 2});
  json b = {{"id", 2}, {"op", "const"}, {"shape", {2}}, {"value", {1.0, -1.0}}};
  json mm = aten(3, "aten.addmm.default", {ref(2), ref(0), ref(1)}, {2, 2}, {{"beta", 2}});
  // x x^T = [[5.25, 3.75], [3.75, 10.0625]], plus 2 * [1, -1] on every row
  expect_near(run(graph_with({t, b, mm})), {7.25, 1.75, 5.75, 8.0625});
  expect_near(run(graph_with({aten(1, "aten.mean.dim", {ref(0), {1}, true}, {2, 1})})),
              {0.5, 3.75 / 3});
  expect_near(run(graph_with({aten(1, "aten.sum.default", {ref(0)}, json::array())})), {5.25});
}

TEST(AtenImport, StackCatAndViews) {
  json s = aten(1, "aten.stack.default", {{ref(0), ref(0)}, 0}, {2, 2, 3});
  json v = aten(2, "aten.view.default", {ref(1), {4, 3}}, {4, 3});
  json sel = aten(3, "aten.select.int", {ref(2), 0, 2}, {3});
  expect_near(run(graph_with({s, v, sel})), {0.5, -1, 2});
}

json with_item(json n, int item) {
  n["item"] = item;
  return n;
}

// x's rows [0.5, -1, 2] and [3, -0.25, 1]: means 0.5 and 1.25, biased variances 1.5 and
// 5.375 / 3; eps = 0.25 inside the sqrt.
TEST(AtenImport, LayerNormItemsAreOutputMeanAndRstd) {
  json args = {ref(0), {3}, nullptr, nullptr, 0.25};
  expect_near(run(graph_with({with_item(aten(1, "aten.native_layer_norm.default", args, {2, 3}), 0)})),
              {0.0, -1.1338934190276817, 1.1338934190276817, 1.224744871391589, -1.0497813183356477,
               -0.17496355305594127});
  expect_near(run(graph_with({with_item(aten(1, "aten.native_layer_norm.default", args, {2, 1}), 1)})),
              {0.5, 1.25});
  expect_near(run(graph_with({with_item(aten(1, "aten.native_layer_norm.default", args, {2, 1}), 2)})),
              {0.7559289460184544, 0.6998542122237651});
}

TEST(AtenImport, AnItemOfASingleOutputOpOrPastTheOutputsIsRefused) {
  ir::testing::expect_error(
      [&] { graph_from_aten_json(graph_with({with_item(aten(1, "aten.sin.default", {ref(0)}, {2, 3}), 1)}), "g.json"); },
      {"g.json: node 1 (#1) (aten.sin.default)", "\"item\" is given but sin has a single output"});
  json ln = aten(1, "aten.native_layer_norm.default", {ref(0), {3}, nullptr, nullptr, 1e-5}, {2, 3});
  ir::testing::expect_error([&] { graph_from_aten_json(graph_with({with_item(ln, 3)}), "g.json"); },
                            {"g.json: node 1 (#1)", "\"item\" must be an output index in [0, 3), got 3"});
}

TEST(AtenImport, RepeatTilesAndNormsOfOtherOrders) {
  expect_near(run(graph_with({aten(1, "aten.repeat.default", {ref(0), {1, 2}}, {2, 6})})),
              {0.5, -1, 2, 0.5, -1, 2, 3, -0.25, 1, 3, -0.25, 1});
  expect_near(run(graph_with({aten(1, "aten.repeat.default", {ref(0), {2, 1, 1}}, {2, 2, 3})})),
              {0.5, -1, 2, 3, -0.25, 1, 0.5, -1, 2, 3, -0.25, 1});
  const double inf = std::numeric_limits<double>::infinity();
  auto norm = [&](double p, json shape = {2}) {
    json pj = std::isinf(p) ? json{{"float", p > 0 ? "inf" : "-inf"}} : json(p);
    return run(graph_with({aten(1, "aten.linalg_vector_norm.default", {ref(0), pj, {1}}, shape)}));
  };
  expect_near(norm(1), {3.5, 4.25});
  expect_near(norm(inf), {2, 3});
  expect_near(norm(-inf), {0.5, 0.25});
  expect_near(norm(3), {2.089669598190616, 3.0371537085395803});
  expect_near(norm(0), {3, 3});
  expect_near(run(graph_with({aten(1, "aten.amin.default", {ref(0), {0}, true}, {1, 3})})), {0.5, -1, 1});
}

// The erf decomposition against std::erf on a grid over [-8, 8] (docs/pytorch.md
// "Decompositions" states the bound).
TEST(AtenImport, ErfAndExactGeluMatchTheLibraryErf) {
  constexpr int n = 4001;
  json g = {{"format", "inrarch-aten"}, {"version", 1}, {"name", "t"}};
  g["nodes"] = json::array({{{"id", 0}, {"op", "input"}, {"name", "x"}, {"shape", {n}}},
                            aten(1, "aten.erf.default", {ref(0)}, {n}), aten(2, "aten.gelu.default", {ref(0)}, {n})});
  g["outputs"] = json::array({{{"name", "erf"}, {"node", 1}}, {{"name", "gelu"}, {"node", 2}}});
  ir::Graph graph = graph_from_aten_json(g, "erf.json");
  Tensor x({n});
  for (int i = 0; i < n; ++i) x.data[i] = -8.0 + 16.0 * i / (n - 1);
  const auto out = ir::evaluate(graph, {{"x", x}}, {});
  double worst = 0, worst_gelu = 0;
  for (int i = 0; i < n; ++i) {
    const double v = x.data[i];
    worst = std::max(worst, std::fabs(out.at(0).data[i] - std::erf(v)));
    worst_gelu = std::max(worst_gelu, std::fabs(out.at(1).data[i] - 0.5 * v * (1 + std::erf(v * M_SQRT1_2))));
  }
  EXPECT_LT(worst, 2e-14);
  EXPECT_LT(worst_gelu, 2e-14);
}

TEST(AtenImport, UnsupportedOpNamesOpAndNode) {
  json g = graph_with({aten(1, "aten.tan.default", {ref(0)}, {2, 3})});
  try {
    graph_from_aten_json(g, "g.json");
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("unsupported aten op 'tan'"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("g.json: node 1 (#1)"), std::string::npos) << e.what();
  }
}

TEST(AtenImport, ShapeDisagreementIsAnError) {
  json g = graph_with({aten(1, "aten.sin.default", {ref(0)}, {3, 2})});
  EXPECT_THROW(graph_from_aten_json(g, "g.json"), Error);
  json bad_ref = graph_with({aten(1, "aten.sin.default", {ref(7)}, {2, 3})});
  EXPECT_THROW(graph_from_aten_json(bad_ref, "g.json"), Error);
  json no_outputs = graph_with({});
  no_outputs["outputs"] = json::array();
  EXPECT_THROW(graph_from_aten_json(no_outputs, "g.json"), Error);
}

TEST(SourceDtype, FromTheExportersMetaJsonElseFloat64) {
  ir::testing::TempDir dir;
  EXPECT_EQ(source_dtype(dir.path()), "float64");  // a bundle the C++ side wrote
  ir::testing::spit(dir / "meta.json", R"({"source_dtype": "float32"})");
  EXPECT_EQ(source_dtype(dir.path()), "float32");
  ir::testing::spit(dir / "meta.json", R"({"source_dtype": 32})");
  ir::testing::expect_error([&] { source_dtype(dir.path()); }, {"meta.json", "must be a string"});
  ir::testing::spit(dir / "meta.json", "{\"source_dtype\": ");
  ir::testing::expect_error([&] { source_dtype(dir.path()); }, {"meta.json:1:", "malformed JSON"});
}

TEST(AtenImport, PythonMirrorOfTheRuleTableIsCurrent) {
  std::ifstream f(INRARCH_SOURCE_DIR "/python/inrarch_torch/aten_ops.txt");
  ASSERT_TRUE(f) << "python/inrarch_torch/aten_ops.txt is missing";
  std::vector<std::string> listed;
  for (std::string line; std::getline(f, line);)
    if (!line.empty()) listed.push_back(line);
  EXPECT_EQ(listed, supported_aten_ops())
      << "regenerate python/inrarch_torch/aten_ops.txt from src/frontend/aten_rules.cpp";
}

}  // namespace
}  // namespace inrarch::frontend
