// `inrarch eval DIR [--check]`: runs the reference interpreter on a bundle.
#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cmath>

#include "cli/cli.h"
#include "driver/compare.h"
#include "frontend/load.h"
#include "ir/error.h"
#include "ir/interpreter.h"

namespace inrarch::cli {

namespace {

struct EvalArgs {
  std::string dir;
  bool check = false;
  double rtol = 1e-9;
  bool quiet = false;
};

void print_values(const ir::Graph& g, const std::vector<ir::Tensor>& values) {
  fmt::print("{:<12} {:<14} {:>14} {:>14}\n", "output", "shape", "min", "max");
  for (size_t i = 0; i < values.size(); ++i) {
    const auto& d = values[i].data;
    auto [lo, hi] = std::minmax_element(d.begin(), d.end());
    fmt::print("{:<12} {:<14} {:>14.6g} {:>14.6g}\n", g.outputs()[i].name,
               shape_str(values[i].shape), d.empty() ? 0.0 : *lo, d.empty() ? 0.0 : *hi);
  }
}

int run_eval(const EvalArgs& a) {
  auto t0 = std::chrono::steady_clock::now();
  ir::Bundle b = frontend::load_bundle(a.dir);
  std::vector<ir::Tensor> values = ir::evaluate(b.graph, b.inputs, b.params);
  double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  if (!a.quiet) print_values(b.graph, values);
  fmt::print("evaluated {} outputs of {} nodes in {:.3f} s\n", values.size(), b.graph.size(), s);
  if (!a.check) return 0;
  if (b.reference.empty()) throw Error(fmt::format("{}: --check needs reference/*.npy", a.dir));
  driver::Comparison c = driver::compare_outputs(b.graph, values, b.reference);
  const bool pass = c.worst_rel <= a.rtol;
  fmt::print("check: worst relative error {:.3e} (output {}), max abs error {:.3e}, rtol {:.1e}: {}\n",
             c.worst_rel, c.worst_name, c.worst_abs, a.rtol, pass ? "PASS" : "FAIL");
  return pass ? 0 : 1;
}

}  // namespace

void register_eval(CLI::App& app) {
  auto args = std::make_shared<EvalArgs>();
  auto* cmd = app.add_subcommand("eval", "Evaluate a bundle with the reference interpreter (f64)");
  cmd->add_option("dir", args->dir, "Bundle folder (graph.json, inputs/, params/, reference/)")
      ->required();
  cmd->add_flag("--check", args->check,
                "Compare with reference/*.npy; exit 1 if the worst relative error exceeds --rtol");
  cmd->add_option("--rtol", args->rtol,
                  "Tolerance on max|got-ref| / max|ref| per output")
      ->capture_default_str();
  cmd->add_flag("-q,--quiet", args->quiet, "Do not print the per-output table");
  cmd->callback([args] { run_guarded("eval", [args] { return run_eval(*args); }); });
}

}  // namespace inrarch::cli
