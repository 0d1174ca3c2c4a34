// `inrarch eval DIR [--check]`: runs the reference interpreter on a bundle.
#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <optional>
#include <string>

#include "cli/cli.h"
#include "driver/compare.h"
#include "frontend/load.h"
#include "support/error.h"
#include "ir/interpreter.h"

namespace inrarch::cli {

namespace {

struct EvalArgs {
  std::string dir;
  bool check = false;
  std::optional<double> rtol;  // unset: by the reference's dtype (default_rtol)
  bool quiet = false;
};

// The tolerance of --check when --rtol is not given, by the dtype the bundle's reference was
// computed in (frontend::source_dtype, from the exporter's meta.json). The interpreter runs in
// double, so the difference is the reference's own rounding: at the level of double's for a
// float64 reference (1e-9 leaves room for summation order), and for a float32 one 2^-24 =
// 6e-8 per op, grown by the depth of the graph and by each derivative of a high-frequency
// layer (a sine network's first layer multiplies by omega = 30): python/measure_float32.py
// measures 2.8e-7 to 5.8e-6 (INSP order 3, 45 outputs) on the test models, so 1e-4 passes
// them with a 17x margin and still fails a wrong graph, whose error is of order 1.
double default_rtol(const std::string& dir, const std::string& dtype) {
  if (dtype == "float64") return 1e-9;
  if (dtype == "float32") return 1e-4;
  throw Error(fmt::format("{}/meta.json: no default tolerance for a {} reference; give --rtol", dir, dtype));
}

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
  const std::string dtype = frontend::source_dtype(a.dir);
  const double rtol = a.rtol ? *a.rtol : default_rtol(a.dir, dtype);
  driver::Comparison c = driver::compare_outputs(b.graph, values, b.reference);
  const bool pass = c.worst_rel <= rtol;
  fmt::print("check: worst relative error {:.3e} (output {}), max abs error {:.3e}, rtol {:.1e}{}: {}\n",
             c.worst_rel, c.worst_name, c.worst_abs, rtol, a.rtol || dtype == "float64" ? "" : fmt::format(" ({} reference)", dtype),
             pass ? "PASS" : "FAIL");
  fmt::print("worst column: {}[..., {}], relative error {:.3e} (reported, not judged)\n",
             c.worst_column_name, c.worst_column, c.worst_column_rel);
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
                  "Tolerance on max|got-ref| / max|ref| per output (default: 1e-9 for a float64 "
                  "reference, 1e-4 for a float32 one, by the bundle's meta.json)");
  cmd->add_flag("-q,--quiet", args->quiet, "Do not print the per-output table");
  cmd->callback([args] { run_guarded("eval", [args] { return run_eval(*args); }); });
}

}  // namespace inrarch::cli
