// MLIR backend: one `func.func` on ranked f64 tensors (linalg / tensor / math / arith), the
// form the reference PyTorch -> MLIR -> CIRCT flow starts from, so any graph can be handed to the MLIR ecosystem and lowered
// with the stock `mlir-opt` bufferize -> loops pipeline (see docs/mlir.md).
//
// The function takes the live inputs, then the live params (each in node-id order) as
// arguments, or inlines params as `arith.constant dense<..>`, and returns the graph's outputs
// as its results, in output order. Every op of ops.def has an emitter in emit_ops.cpp; the
// table there is indexed by Op, so a new op without one does not compile.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "ir/bundle.h"
#include "ir/graph.h"

namespace inrarch::backend::mlir {

struct MlirOptions {
  // Params as `arith.constant dense<..>` in the body instead of arguments; needs values.
  bool inline_params = false;
  // Adds `llvm.emit_c_interface` so that, lowered to LLVM, the function gets a
  // `_mlir_ciface_<name>` entry taking memref descriptors (used by the execution harness).
  bool c_interface = false;
  // The function symbol; empty = the graph's name.
  std::string func_name;
};

// The MLIR module text. `params` is read only with inline_params (then every live param
// must have a value of its shape). Throws inrarch::Error on a missing or mis-shaped value.
std::string emit_mlir(const ir::Graph& g, const MlirOptions& opt = {},
                      const ir::TensorMap* params = nullptr);

// The function's arguments in order: live inputs, then (unless inlined) live params.
std::vector<ir::NodeId> mlir_arguments(const ir::Graph& g, bool inline_params);

// Writes emit_mlir(b.graph, opt, &b.params) to `file` atomically (temp file + rename), so a
// failure never leaves a half-written design.mlir. `compile` calls this for OUT/design.mlir.
void write_design_mlir(const ir::Bundle& b, const std::filesystem::path& file,
                       const MlirOptions& opt = {});

// An f64 literal MLIR reads back to the same double: shortest round-trip decimal, always
// with a '.', and inf/nan as their IEEE bit pattern (MLIR has no inf/nan literal).
std::string mlir_f64(double v);

}  // namespace inrarch::backend::mlir
