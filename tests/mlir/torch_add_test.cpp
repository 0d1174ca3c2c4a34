// The PyTorch → MLIR example (docs/mlir.md) end to end: a PyTorch module `forward(x, y) = x + y` on [1,3,10,10], exported
// with inrarch_torch, emitted as MLIR, lowered to loops with the seed's mlir-opt pipeline,
// and executed against PyTorch's own result. (The HLS csim half belongs to the HLS backend.)
#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>

#include "backend/mlir/emit.h"
#include "backend/mlir/toolchain.h"
#include "graphs.h"
#include "frontend/load.h"
#include "ir/bundle.h"

namespace inrarch::backend::mlir::testing {
namespace {

namespace fs = std::filesystem;

constexpr const char* kExportScript = R"(import sys
import torch
sys.path.insert(0, sys.argv[1])
import inrarch_torch


class Model(torch.nn.Module):
    def forward(self, x, y):
        return x + y


model = Model()
model.eval()
torch.manual_seed(0)
inputs = {"x": torch.rand(1, 3, 10, 10), "y": torch.rand(1, 3, 10, 10)}
inrarch_torch.export(lambda ins, ps: model(ins["x"], ins["y"]), inputs, {}, sys.argv[2],
                     name="forward")
)";

TEST(MlirTorchAdd, TorchAddExportedEmittedLoweredExecuted) {
  const fs::path pkg = fs::path(INRARCH_SOURCE_DIR) / "python";
  if (!fs::exists(pkg / "inrarch_torch" / "__init__.py"))
    GTEST_SKIP() << "python/inrarch_torch (the PyTorch exporter) is not in this tree yet";
  TempDir tmp("torch_add");
  std::ofstream(tmp.path() / "export.py") << kExportScript;
  const fs::path bundle = tmp.path() / "bundle";
  const std::string cmd = std::string(INRARCH_PYTHON) + " '" + (tmp.path() / "export.py").string() +
                          "' '" + pkg.string() + "' '" + bundle.string() + "' > '" +
                          (tmp.path() / "export.log").string() + "' 2>&1";
  ASSERT_EQ(std::system(cmd.c_str()), 0) << "export failed; see " << tmp.path() / "export.log";

  ir::Bundle b = frontend::load_bundle(bundle);
  const std::string text = emit_mlir(b.graph);
  EXPECT_NE(text.find("func.func @forward(%in_x: tensor<1x3x10x10xf64>, %in_y: "
                      "tensor<1x3x10x10xf64>) -> tensor<1x3x10x10xf64>"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("linalg.add ins(%in_x, %in_y"), std::string::npos) << text;

  const std::string loops = run_mlir_opt(text, kLinalgToLoopsPipeline, tmp.path(), "loops");
  // The seed's result: out-param, three loops (the unit batch dim folds away), one addf.
  EXPECT_NE(loops.find("func.func @forward(%arg0: memref<1x3x10x10xf64>, %arg1: "
                       "memref<1x3x10x10xf64>, %arg2: memref<1x3x10x10xf64>)"),
            std::string::npos)
      << loops;
  size_t loops_count = 0;
  for (size_t p = loops.find("scf.for"); p != std::string::npos; p = loops.find("scf.for", p + 1))
    ++loops_count;
  EXPECT_EQ(loops_count, 3u) << loops;
  EXPECT_NE(loops.find("arith.addf"), std::string::npos);

  std::vector<Tensor> got = execute_mlir(b.graph, b.inputs, b.params, tmp.path());
  ASSERT_EQ(got.size(), 1u);
  const Tensor& want = b.reference.at(b.graph.outputs()[0].name);
  EXPECT_EQ(rel_errors(got[0], want).normwise, 0.0) << "x + y must be exact";
}

}  // namespace
}  // namespace inrarch::backend::mlir::testing
