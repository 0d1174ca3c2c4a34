// Running the LLVM 19 MLIR tools on emitted MLIR: the reference bufferize pipeline (bufferize ->
// loops), and execution (lower to the LLVM dialect, llc, link a generated C driver, run),
// so the MLIR backend is verified by numbers, not only by syntax.
#pragma once

#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "ir/bundle.h"

namespace inrarch::backend::mlir {

// The reference PyTorch -> MLIR flow's lowering (with function-boundary-type-conversion=identity-layout-map so the
// function takes plain memrefs): tensors -> buffers -> out-params -> scf loops.
inline constexpr std::string_view kLinalgToLoopsPipeline =
    "--empty-tensor-to-alloc-tensor "
    "--one-shot-bufferize=\"bufferize-function-boundaries "
    "function-boundary-type-conversion=identity-layout-map\" "
    "--buffer-results-to-out-params --convert-linalg-to-loops --canonicalize";

// From that lowering's output (scf/memref/math/arith/func) down to the LLVM dialect. math goes
// through libm first because math.tanh has no LLVM intrinsic.
inline constexpr std::string_view kLoopsToLlvmPipeline =
    "--convert-math-to-libm --convert-scf-to-cf --expand-strided-metadata --lower-affine "
    "--finalize-memref-to-llvm --convert-math-to-llvm --convert-arith-to-llvm "
    "--convert-func-to-llvm --convert-cf-to-llvm --reconcile-unrealized-casts";

// A fresh folder under the system temp dir ("inrarch-mlir-<pid>-<n>-<tag>"), removed on
// destruction unless an exception is unwinding (then kept for inspection).
class TempDir {
 public:
  explicit TempDir(std::string_view tag);
  ~TempDir();
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  const std::filesystem::path& path() const { return path_; }

 private:
  std::filesystem::path path_;
};

// The path of an LLVM 19 tool ("mlir-opt", "mlir-translate", "llc"): NAME-19 on PATH, else
// /usr/lib/llvm-19/bin/NAME. Throws inrarch::Error naming the Debian package when absent.
std::string llvm19_tool(std::string_view name);

// Runs `mlir-opt-19 <flags>` on `mlir_text` in `work` (files <tag>.in.mlir / <tag>.out.mlir)
// and returns its output. Throws inrarch::Error with mlir-opt's diagnostics on failure.
std::string run_mlir_opt(std::string_view mlir_text, std::string_view flags,
                         const std::filesystem::path& work, std::string_view tag);

// Emits `g` (params as arguments), runs the reference bufferize pipeline and kLoopsToLlvmPipeline,
// compiles with llc-19 and the system C compiler against a generated driver, runs it on the
// given values and returns the outputs in output order. All files live in `work`.
std::vector<Tensor> execute_mlir(const ir::Graph& g, const ir::TensorMap& inputs,
                                 const ir::TensorMap& params, const std::filesystem::path& work);

}  // namespace inrarch::backend::mlir
