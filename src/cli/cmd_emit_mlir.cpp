// `inrarch emit-mlir DIR|FILE.ir [-o FILE] [--inline-params]`: the graph as MLIR (linalg on
// tensors), on stdout like mlir-opt, or into FILE (written atomically).
#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include <cstdio>

#include "backend/mlir/emit.h"
#include "cli/cli.h"
#include "frontend/load.h"
#include "ir/bundle.h"
#include "support/error.h"

namespace inrarch::cli {

namespace {

struct EmitMlirArgs {
  std::string path;
  std::string out;
  bool inline_params = false;
};

int run_emit_mlir(const EmitMlirArgs& a) {
  namespace fs = std::filesystem;
  backend::mlir::MlirOptions opt;
  opt.inline_params = a.inline_params;
  // Param values exist only in a bundle; a .ir file (or a plain graph) has shapes alone.
  ir::Bundle b;
  if (a.inline_params) {
    if (!fs::is_directory(a.path))
      throw Error(fmt::format("{}: --inline-params needs a bundle folder (with params/*.npy)",
                              a.path));
    b = frontend::load_bundle(a.path);
  } else {
    b.graph = frontend::load_graph(a.path);
  }
  if (!a.out.empty()) {
    backend::mlir::write_design_mlir(b, a.out, opt);
    return 0;
  }
  const std::string text = backend::mlir::emit_mlir(b.graph, opt, &b.params);
  std::fwrite(text.data(), 1, text.size(), stdout);
  return 0;
}

}  // namespace

void register_emit_mlir(CLI::App& app) {
  auto args = std::make_shared<EmitMlirArgs>();
  auto* cmd = app.add_subcommand(
      "emit-mlir", "Print the graph as MLIR: func.func on f64 tensors (linalg/tensor/math/arith)");
  cmd->add_option("path", args->path, "Bundle folder (graph.json ...) or a .ir text file")
      ->required();
  cmd->add_option("-o,--out", args->out, "Write to this file instead of stdout");
  cmd->add_flag("--inline-params", args->inline_params,
                "Params as arith.constant dense<..> instead of function arguments (bundle only)");
  cmd->callback([args] { run_guarded("emit-mlir", [args] { return run_emit_mlir(*args); }); });
}

}  // namespace inrarch::cli
