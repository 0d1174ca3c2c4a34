// `inrarch precision-sweep DIR|--builtin insp --widths 16,20,24,32 --int-bits 10 [--csv F]
// [--no-scaling]`: optimizes and lowers the graph, emits the HLS project once per
// ap_fixed<W,I> (plus float), runs each sequential C simulation and prints max abs / rel
// output error vs the reference interpreter.
#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include <cstdio>

#include "backend/hls/hls.h"
#include "cli/cli.h"
#include "driver/derivative_mode.h"
#include "dataflow/lower.h"
#include "frontend/load.h"
#include "support/error.h"
#include "support/files.h"
#include "support/staging.h"
#include "passes/pipeline.h"

namespace inrarch::cli {

namespace {

struct SweepArgs {
  std::string bundle, builtin, csv, work = "precision-sweep";
  int order = 1;
  std::string mode = "auto";
  int64_t batch = 8, width = 16;
  uint64_t seed = 0;
  std::vector<int> widths{16, 20, 24, 32};
  int int_bits = 10;
  bool with_float = true;
  bool no_scaling = false;
  bool quiet = false;
};

int run_sweep(const SweepArgs& a) {
  if (a.builtin.empty() == a.bundle.empty()) throw Error("give a bundle folder or --builtin insp");
  ir::Bundle b;
  if (a.builtin.empty()) {
    b = frontend::load_bundle(a.bundle);
  } else {
    const autodiff::SirenSpec spec = insp_spec(a.order, a.batch, a.width, a.seed);
    b = autodiff::build_insp_bundle(spec, a.order, false, driver::choose_insp_mode(a.mode, spec, a.order).mode);
  }
  passes::optimize_bundle(b);
  dataflow::Design d = dataflow::lower(b.graph);  // csim is sequential: depths do not matter
  std::vector<hls::NumberType> types;
  for (int w : a.widths) types.push_back(hls::parse_number_type(fmt::format("fixed<{},{}>", w, a.int_bits)));
  if (a.with_float) types.push_back(hls::parse_number_type("float"));
  hls::SweepOptions so;
  so.pow2_scaling = !a.no_scaling;
  so.progress = progress_reporter("precision-sweep", a.quiet);
  auto rows = hls::precision_sweep(d, b, types, a.work, so);
  fmt::print("{:<16} {:>14} {:>14}\n", "type", "max_abs_error", "max_rel_error");
  for (const auto& r : rows)
    fmt::print("{:<16} {:>14.3e} {:>14.3e}{}\n", r.type.name(), r.max_abs_error, r.max_rel_error,
               r.completed ? "" : "  (did not complete)");
  if (!a.csv.empty()) {
    write_file_atomic(a.csv, hls::sweep_csv(rows));
    fmt::print("wrote {}\n", a.csv);
  }
  return 0;
}

}  // namespace

void register_precision_sweep(CLI::App& app) {
  auto a = std::make_shared<SweepArgs>();
  auto* cmd = app.add_subcommand("precision-sweep", "Output error vs fixed-point width (HLS C simulation)");
  cmd->add_option("bundle", a->bundle, "Bundle folder");
  cmd->add_option("--builtin", a->builtin, "Built-in model instead (insp)")->check(CLI::IsMember({"insp"}));
  cmd->add_option("--order,-K", a->order, "Built-in: gradient order")->capture_default_str();
  add_mode_option(cmd, a->mode);
  cmd->add_option("--batch,-B", a->batch, "Built-in: batch size")->capture_default_str();
  cmd->add_option("--width", a->width, "Built-in: hidden width")->capture_default_str();
  cmd->add_option("--seed", a->seed, "Built-in: seed")->capture_default_str();
  cmd->add_option("--widths", a->widths, "Fixed-point total widths W")->delimiter(',')->capture_default_str();
  cmd->add_option("--int-bits", a->int_bits, "Integer bits I of ap_fixed<W,I>")->capture_default_str();
  cmd->add_option("--csv", a->csv, "Also write the table as CSV");
  cmd->add_option("--work", a->work, "Folder for the generated projects")->capture_default_str();
  cmd->add_flag("!--no-float", a->with_float, "Do not add a float row");
  cmd->add_flag("--no-scaling", a->no_scaling,
                "Fixed point: one format for every value (no per-stream power-of-two exponents)");
  cmd->add_flag("-q,--quiet", a->quiet, "No progress lines on stderr");
  cmd->callback([a] { run_guarded("precision-sweep", [a] { return run_sweep(*a); }); });
}

}  // namespace inrarch::cli
