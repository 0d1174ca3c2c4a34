// Emitted MLIR through the real LLVM 19 tools: it parses with mlir-opt-19, the reference
// pipeline lowers it to loops, and executed (LLVM dialect -> llc -> C driver) it computes
// what the reference interpreter computes. These tests fail (not skip) without the tools:
// scripts/install-deps.sh installs mlir-19-tools and llvm-19.
#include <gtest/gtest.h>

#include <chrono>
#include <cstdio>
#include <fstream>
#include <iterator>

#include "autodiff/models.h"
#include "backend/mlir/emit.h"
#include "backend/mlir/toolchain.h"
#include "graphs.h"
#include "support/error.h"
#include "ir/interpreter.h"
#include "ir/text.h"

namespace inrarch::backend::mlir::testing {
namespace {

namespace fs = std::filesystem;

double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

// Runs the reference bufferize pipeline (mlir-opt parses and verifies the input first); checks that no tensor is left and that loops
// (or, for pure data movement, copies) remain. Returns the lowered text.
std::string lower_to_loops(const Graph& g, const MlirOptions& opt = {},
                           const ir::TensorMap* params = nullptr) {
  TempDir tmp(g.name());
  const std::string text = emit_mlir(g, opt, params);
  std::string loops = run_mlir_opt(text, kLinalgToLoopsPipeline, tmp.path(), "loops");
  EXPECT_EQ(loops.find("tensor<"), std::string::npos) << "not fully bufferized:\n" << loops;
  EXPECT_EQ(loops.find("linalg."), std::string::npos) << "linalg left:\n" << loops;
  return loops;
}

TEST(MlirLowering, MlpToLoops) {
  const std::string loops = lower_to_loops(mlp_graph());
  EXPECT_NE(loops.find("scf.for"), std::string::npos);
  EXPECT_NE(loops.find("math.sin"), std::string::npos);
  // Out-params: 3 arguments + 2 results, all identity-layout memrefs.
  EXPECT_NE(loops.find("func.func @mlp(%arg0: memref<4x2xf64>, %arg1: memref<3x2xf64>, "
                       "%arg2: memref<3xf64>, %arg3: memref<4xf64>, %arg4: memref<4x1xf64>)"),
            std::string::npos)
      << loops;
}

TEST(MlirLowering, ShapesToLoops) { lower_to_loops(shapes_graph()); }

TEST(MlirLowering, InlineParamsToLoops) {
  ir::TensorMap inputs, params;
  random_values(mlp_graph(), inputs, params);
  MlirOptions opt;
  opt.inline_params = true;
  const std::string loops = lower_to_loops(mlp_graph(), opt, &params);
  EXPECT_NE(loops.find("memref.global"), std::string::npos) << loops;
}

TEST(MlirLowering, NonFiniteConstantsParse) {
  Graph g("nonfinite");
  NodeId x = g.input("x", {3});
  NodeId c = g.constant(Tensor({3}, {INFINITY, -INFINITY, 1.0}));
  g.add_output("y", g.binary(Op::Mul, x, g.binary(Op::Add, c, g.constant(NAN, {3}))));
  lower_to_loops(g);
}

TEST(MlirLowering, BrokenMlirIsReported) {
  TempDir tmp("broken");
  try {
    run_mlir_opt("func.func @f() { %0 = linalg.nonsense }", "", tmp.path(), "bad");
    FAIL() << "mlir-opt accepted broken input";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("mlir-opt-19 (bad) failed"), std::string::npos) << e.what();
  }
}

// Every graph of the project's golden IR files (tests/golden/**/*.ir; pass goldens hold
// input and expected graphs separated by "// -----"). Chunks that do not parse are the
// parser's negative cases and are skipped; the rest must lower.
TEST(MlirLowering, GoldenIrGraphs) {
  const fs::path root = fs::path(INRARCH_SOURCE_DIR) / "tests/golden";
  int lowered = 0, negative = 0;
  for (const auto& entry : fs::recursive_directory_iterator(root)) {
    if (entry.path().extension() != ".ir") continue;
    std::ifstream f(entry.path());
    const std::string text((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
    for (size_t begin = 0; begin < text.size();) {
      size_t end = text.find("\n// -----", begin);
      if (end == std::string::npos) end = text.size();
      const std::string chunk = text.substr(begin, end - begin);
      begin = end == text.size() ? end : text.find('\n', end + 1);
      if (chunk.find("graph") == std::string::npos) continue;
      Graph g;
      try {
        g = ir::parse_text(chunk, entry.path().string());
      } catch (const Error&) {
        ++negative;
        continue;
      }
      SCOPED_TRACE(entry.path().string() + " graph @" + g.name());
      EXPECT_NO_THROW(lower_to_loops(g));
      ++lowered;
    }
  }
  std::printf("golden .ir graphs lowered: %d (negative cases skipped: %d)\n", lowered, negative);
  EXPECT_GE(lowered, 20);
}

autodiff::SirenSpec insp_spec(int64_t batch, int64_t width) {
  autodiff::SirenSpec spec;
  spec.dims = {2, width, width, width, width, 3};
  spec.batch = batch;
  return spec;
}

TEST(MlirLowering, InspOrder1And2ToLoops) {
  for (int order : {1, 2}) {
    auto t0 = std::chrono::steady_clock::now();
    Graph g = autodiff::build_insp_graph(insp_spec(4, 16), order);
    lower_to_loops(g);
    std::printf("INSP order %d (batch 4, width 16, %zu nodes): emitted+parsed+lowered in %.2f s\n",
                order, g.size(), seconds_since(t0));
  }
}

// Executes g and compares every output with the interpreter (normwise relative error,
// as driver::compare_outputs defines it) at rtol.
void check_numbers(const Graph& g, const ir::TensorMap& inputs, const ir::TensorMap& params,
                   double rtol) {
  TempDir tmp(g.name() + "-exec");
  auto t0 = std::chrono::steady_clock::now();
  std::vector<Tensor> got = execute_mlir(g, inputs, params, tmp.path());
  const double t_exec = seconds_since(t0);
  std::vector<Tensor> want = ir::evaluate(g, inputs, params);
  ASSERT_EQ(got.size(), want.size());
  Errors worst;
  for (size_t i = 0; i < got.size(); ++i) {
    ASSERT_EQ(got[i].shape, want[i].shape);
    Errors e = rel_errors(got[i], want[i]);
    EXPECT_LE(e.normwise, rtol) << "output " << g.outputs()[i].name;
    worst.normwise = std::max(worst.normwise, e.normwise);
    worst.elementwise = std::max(worst.elementwise, e.elementwise);
  }
  std::printf("%s: %zu outputs, MLIR-executed vs interpreter: worst normwise rel %.3e, "
              "worst elementwise rel %.3e (lower+build+run %.2f s)\n",
              g.name().c_str(), got.size(), worst.normwise, worst.elementwise, t_exec);
}

TEST(MlirExecute, MlpMatchesInterpreter) {
  ir::TensorMap inputs, params;
  random_values(mlp_graph(), inputs, params, 7);
  check_numbers(mlp_graph(), inputs, params, 1e-12);
}

TEST(MlirExecute, ShapesMatchInterpreter) {
  ir::TensorMap inputs, params;
  random_values(shapes_graph(), inputs, params, 8);
  check_numbers(shapes_graph(), inputs, params, 1e-12);
}

// Guards the harness itself: a wrong answer must be caught.
TEST(MlirExecute, DetectsAWrongResult) {
  Graph g("wrong");
  g.add_output("y", g.unary(Op::Sin, g.input("x", {2})));
  ir::TensorMap inputs{{"x", Tensor({2}, {0.5, 1.0})}};
  TempDir tmp("wrong");
  std::vector<Tensor> got = execute_mlir(g, inputs, {}, tmp.path());
  Graph other("other");
  other.add_output("y", other.unary(Op::Cos, other.input("x", {2})));
  EXPECT_GT(rel_errors(got[0], ir::evaluate(other, inputs, {})[0]).normwise, 1e-3);
  EXPECT_EQ(rel_errors(got[0], ir::evaluate(g, inputs, {})[0]).normwise, 0.0);
}

// The issue's acceptance check: INSP order 1, batch 4, width 256.
TEST(MlirExecute, InspOrder1Batch4MatchesInterpreter) {
  ir::Bundle b = autodiff::build_insp_bundle(insp_spec(4, 256), 1, false);
  ASSERT_EQ(b.graph.outputs().size(), 9u);
  check_numbers(b.graph, b.inputs, b.params, 1e-9);
}

TEST(MlirExecute, InspOrder2SmallMatchesInterpreter) {
  ir::Bundle b = autodiff::build_insp_bundle(insp_spec(4, 16), 2, false);
  ASSERT_EQ(b.graph.outputs().size(), 21u);
  check_numbers(b.graph, b.inputs, b.params, 1e-9);
}

}  // namespace
}  // namespace inrarch::backend::mlir::testing
