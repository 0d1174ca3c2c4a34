// MLIR emitter: golden text, op-table coverage, inline params, literals, CLI.
// Regenerate the goldens with INRARCH_UPDATE_GOLDEN=1 (then review the diff).
#include "backend/mlir/emit.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <sstream>
#include <sys/wait.h>

#include "backend/mlir/toolchain.h"
#include "support/error.h"
#include "ir/text.h"
#include "graphs.h"

namespace inrarch::backend::mlir::testing {
namespace {

namespace fs = std::filesystem;

std::string slurp(const fs::path& p) {
  std::ifstream f(p, std::ios::binary);
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

void check_golden(const std::string& got, const std::string& name) {
  const fs::path file = fs::path(INRARCH_SOURCE_DIR) / "tests/golden/mlir" / name;
  if (std::getenv("INRARCH_UPDATE_GOLDEN")) {
    std::ofstream(file, std::ios::binary) << got;
    GTEST_SKIP() << "rewrote " << file;
  }
  ASSERT_TRUE(fs::exists(file)) << file << " missing (run with INRARCH_UPDATE_GOLDEN=1)";
  EXPECT_EQ(got, slurp(file)) << "emitted MLIR differs from " << file;
}

TEST(MlirGolden, Mlp) { check_golden(emit_mlir(mlp_graph()), "mlp.mlir"); }

TEST(MlirGolden, Shapes) { check_golden(emit_mlir(shapes_graph()), "shapes.mlir"); }

TEST(MlirEmit, TestGraphsCoverEveryOp) {
  std::set<Op> ops = ops_used(mlp_graph());
  for (Op op : ops_used(shapes_graph())) ops.insert(op);
  EXPECT_EQ(ops.size(), size_t(ir::kNumOps)) << "extend tests/mlir/graphs.h with the new op";
}

TEST(MlirEmit, SignatureAndResults) {
  const std::string t = emit_mlir(mlp_graph());
  EXPECT_NE(t.find("func.func @mlp(%in_x: tensor<4x2xf64>, %p_l0.weight: tensor<3x2xf64>, "
                   "%p_l0.bias: tensor<3xf64>) -> (tensor<4xf64>, tensor<4x1xf64>)"),
            std::string::npos)
      << t;
  EXPECT_NE(t.find("linalg.matmul"), std::string::npos);
  EXPECT_NE(t.find("linalg.transpose"), std::string::npos);
  EXPECT_NE(t.find("linalg.broadcast"), std::string::npos);
  EXPECT_NE(t.find("linalg.reduce { arith.addf }"), std::string::npos);
  EXPECT_EQ(mlir_arguments(mlp_graph(), false).size(), 3u);
  EXPECT_EQ(mlir_arguments(mlp_graph(), true).size(), 1u);
}

TEST(MlirEmit, InlineParams) {
  Graph g = mlp_graph();
  ir::TensorMap params;
  params["l0.weight"] = Tensor({3, 2}, {1, 2, 3, 4, 5, 0.25});
  params["l0.bias"] = Tensor({3}, 7.0);
  MlirOptions opt;
  opt.inline_params = true;
  const std::string t = emit_mlir(g, opt, &params);
  EXPECT_NE(t.find("func.func @mlp(%in_x: tensor<4x2xf64>) -> ("), std::string::npos) << t;
  EXPECT_NE(t.find("arith.constant dense<[[1.0, 2.0], [3.0, 4.0], [5.0, 0.25]]> : tensor<3x2xf64>"),
            std::string::npos) << t;
  EXPECT_NE(t.find("arith.constant dense<7.0> : tensor<3xf64>"), std::string::npos) << t;

  EXPECT_THROW(emit_mlir(g, opt, nullptr), Error);
  params.erase("l0.bias");
  EXPECT_THROW(emit_mlir(g, opt, &params), Error);
  params["l0.bias"] = Tensor({4}, 1.0);
  EXPECT_THROW(emit_mlir(g, opt, &params), Error);
}

TEST(MlirEmit, FuncNameAndCInterface) {
  MlirOptions opt;
  opt.func_name = "kernel";
  opt.c_interface = true;
  const std::string t = emit_mlir(mlp_graph(), opt);
  EXPECT_NE(t.find("func.func @kernel("), std::string::npos);
  EXPECT_NE(t.find("attributes {llvm.emit_c_interface}"), std::string::npos);
  Graph odd("my graph");
  odd.add_output("o", odd.input("x", {2}));
  EXPECT_NE(emit_mlir(odd).find("func.func @\"my graph\"(%in_x: tensor<2xf64>) -> tensor<2xf64>"),
            std::string::npos);
}

TEST(MlirEmit, F64Literals) {
  EXPECT_EQ(mlir_f64(30.0), "30.0");
  EXPECT_EQ(mlir_f64(0.25), "0.25");
  EXPECT_EQ(mlir_f64(1e-08), "1.0e-08");
  EXPECT_EQ(mlir_f64(-0.0), "-0.0");
  EXPECT_EQ(mlir_f64(0.1), "0.1");
  EXPECT_EQ(mlir_f64(INFINITY), "0x7FF0000000000000");
  EXPECT_EQ(mlir_f64(-INFINITY), "0xFFF0000000000000");
  EXPECT_EQ(std::stod(mlir_f64(0.005291005291005291)), 0.005291005291005291);
}

TEST(MlirEmit, WriteDesignMlirIsAtomic) {
  TempDir tmp("write");
  ir::Bundle b;
  b.graph = mlp_graph();
  write_design_mlir(b, tmp.path() / "design.mlir");
  EXPECT_EQ(slurp(tmp.path() / "design.mlir"), emit_mlir(b.graph));
  MlirOptions opt;
  opt.inline_params = true;  // no param values: fails, and leaves no file behind
  EXPECT_THROW(write_design_mlir(b, tmp.path() / "bad.mlir", opt), Error);
  EXPECT_FALSE(fs::exists(tmp.path() / "bad.mlir"));
  EXPECT_EQ(std::distance(fs::directory_iterator(tmp.path()), fs::directory_iterator()), 1);
}

int run_cli(const std::string& args, const fs::path& out) {
  const std::string cmd = std::string(INRARCH_BINARY) + " emit-mlir " + args + " > '" +
                          out.string() + "' 2>&1";
  int rc = std::system(cmd.c_str());
  return WIFEXITED(rc) ? WEXITSTATUS(rc) : -1;
}

TEST(MlirCli, EmitsFromIrFileToStdoutAndFile) {
  TempDir tmp("cli");
  const fs::path ir = tmp.path() / "mlp.ir";
  std::ofstream(ir) << ir::print_text(mlp_graph());
  ASSERT_EQ(run_cli("'" + ir.string() + "'", tmp.path() / "stdout.txt"), 0)
      << slurp(tmp.path() / "stdout.txt");
  EXPECT_EQ(slurp(tmp.path() / "stdout.txt"), emit_mlir(ir::parse_text(ir::print_text(mlp_graph()))));
  ASSERT_EQ(run_cli("'" + ir.string() + "' -o '" + (tmp.path() / "o.mlir").string() + "'",
                    tmp.path() / "log.txt"), 0);
  EXPECT_EQ(slurp(tmp.path() / "o.mlir"), slurp(tmp.path() / "stdout.txt"));
}

TEST(MlirCli, InlineParamsFromBundle) {
  TempDir tmp("clibundle");
  ir::Bundle b;
  b.graph = mlp_graph();
  random_values(b.graph, b.inputs, b.params);
  ir::save_bundle(b, tmp.path() / "bundle");
  ASSERT_EQ(run_cli("--inline-params '" + (tmp.path() / "bundle").string() + "'",
                    tmp.path() / "out.mlir"), 0)
      << slurp(tmp.path() / "out.mlir");
  MlirOptions opt;
  opt.inline_params = true;
  EXPECT_EQ(slurp(tmp.path() / "out.mlir"), emit_mlir(b.graph, opt, &b.params));
  EXPECT_NE(slurp(tmp.path() / "out.mlir").find("func.func @mlp(%in_x: tensor<4x2xf64>) ->"),
            std::string::npos);
}

TEST(MlirCli, ErrorsExitOne) {
  TempDir tmp("clierr");
  EXPECT_EQ(run_cli("/nonexistent/graph.ir", tmp.path() / "e1.txt"), 1);
  EXPECT_NE(slurp(tmp.path() / "e1.txt").find("inrarch emit-mlir: error:"), std::string::npos);
  const fs::path ir = tmp.path() / "mlp.ir";
  std::ofstream(ir) << ir::print_text(mlp_graph());
  EXPECT_EQ(run_cli("--inline-params '" + ir.string() + "' -o '" +
                        (tmp.path() / "x.mlir").string() + "'", tmp.path() / "e2.txt"), 1);
  EXPECT_NE(slurp(tmp.path() / "e2.txt").find("--inline-params needs a bundle"), std::string::npos)
      << slurp(tmp.path() / "e2.txt");
  EXPECT_FALSE(fs::exists(tmp.path() / "x.mlir"));
}

}  // namespace
}  // namespace inrarch::backend::mlir::testing
