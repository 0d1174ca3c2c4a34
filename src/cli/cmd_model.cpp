// `inrarch model insp ...`: writes a built-in model as a bundle.
#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include <chrono>

#include "autodiff/models.h"
#include "cli/cli.h"
#include "driver/derivative_mode.h"
#include "ir/interpreter.h"
#include "support/error.h"

namespace inrarch::cli {

namespace {

struct ModelArgs {
  std::string model = "insp";
  int order = 1;
  int64_t batch = 64;
  int64_t width = 256;
  uint64_t seed = 0;
  std::string mode = "auto";
  std::string out;
};

// The primal network alone (output "y"), for `derive`.
int write_siren(const autodiff::SirenSpec& spec, const std::string& out) {
  ir::Bundle b{autodiff::build_siren_graph(spec), {{"x", autodiff::siren_input(spec)}},
               autodiff::siren_params(spec), {}};
  b.reference["y"] = ir::evaluate(b.graph, b.inputs, b.params)[0];
  ir::save_bundle(b, out);
  fmt::print("wrote {}: SIREN, batch {}, width {}: output y, {} nodes\n", out, spec.batch, spec.dims.at(1),
             b.graph.size());
  return 0;
}

int run_model(const ModelArgs& a) {
  auto t0 = std::chrono::steady_clock::now();
  autodiff::SirenSpec spec = insp_spec(a.order, a.batch, a.width, a.seed);
  if (a.model == "siren") return write_siren(spec, a.out);
  const driver::ModeChoice mode = driver::choose_insp_mode(a.mode, spec, a.order);
  ir::Bundle b = autodiff::build_insp_bundle(spec, a.order, true, mode.mode);
  ir::save_bundle(b, a.out);
  double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  fmt::print("wrote {}: INSP order {} ({} mode{}), batch {}, width {}: {} outputs, {} nodes ({:.2f} s)\n",
             a.out, a.order, autodiff::mode_name(mode.mode), mode.chosen ? ", fewer multiplies" : "", a.batch,
             a.width, b.graph.outputs().size(), b.graph.size(), s);
  return 0;
}

}  // namespace

autodiff::SirenSpec insp_spec(int order, int64_t batch, int64_t width, uint64_t seed) {
  if (order < 0 || order > 6) throw Error(fmt::format("--order {} out of range (0..6)", order));
  if (batch < 1 || batch > (1 << 20)) throw Error(fmt::format("--batch {} out of range (1..2^20)", batch));
  if (width < 1 || width > 65536) throw Error(fmt::format("--width {} out of range (1..65536)", width));
  return autodiff::insp_siren(batch, width, seed);
}

void add_mode_option(CLI::App* cmd, std::string& mode) {
  cmd->add_option("--mode", mode,
                  "Built-in INSP: derivatives by nested reverse mode (as INSP's autograd), by "
                  "Taylor mode (one forward sweep of jets; docs/taylor.md), or auto: whichever has "
                  "fewer multiplies (Taylor for INSP at every order >= 1)")
      ->check(CLI::IsMember({"auto", "taylor", "reverse"}))
      ->capture_default_str();
}

void register_model(CLI::App& app) {
  auto args = std::make_shared<ModelArgs>();
  auto* cmd = app.add_subcommand("model", "Write a built-in model as a bundle folder");
  cmd->add_option("model", args->model,
                  "Model name (insp: the INSP derivative set of a SIREN; siren: the SIREN alone, "
                  "a primal bundle for `derive`)")
      ->check(CLI::IsMember({"insp", "siren"}))
      ->required();
  cmd->add_option("--order,-K", args->order, "Gradient order K (outputs: 3*(2^(K+1)-1))")
      ->capture_default_str();
  cmd->add_option("--batch,-B", args->batch, "Batch size (rows of x)")->capture_default_str();
  cmd->add_option("--width", args->width, "Hidden width of the SIREN (2->W->W->W->W->3)")
      ->capture_default_str();
  cmd->add_option("--seed", args->seed, "Seed of the weight and input draws")->capture_default_str();
  add_mode_option(cmd, args->mode);
  cmd->add_option("-o,--out", args->out, "Output bundle folder")->required();
  cmd->callback([args] { run_guarded("model", [args] { return run_model(*args); }); });
}

}  // namespace inrarch::cli
