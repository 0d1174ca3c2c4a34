// `inrarch derive BUNDLE --wrt x --order K [--request FILE.json] [--mode auto] -o OUT`: a
// primal-only bundle into a derivative bundle by Taylor mode or nested reverse mode,
// whichever costs fewer multiplies unless named (docs/taylor.md), with reference outputs
// from the other construction.
#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include <chrono>

#include "autodiff/taylor.h"
#include "cli/cli.h"
#include "driver/derivative_mode.h"
#include "frontend/load.h"
#include "ir/json_text.h"
#include "passes/rebatch.h"
#include "support/error.h"
#include "support/files.h"

namespace inrarch::cli {

namespace {

struct DeriveArgs {
  std::string bundle, out, request;
  std::string wrt = "x";
  std::string mode = "auto";
  int order = 1;
  bool no_reference = false;
};

int run_derive(const DeriveArgs& a) {
  const auto t0 = std::chrono::steady_clock::now();
  const ir::Bundle primal = frontend::load_bundle(a.bundle);
  // Taylor mode shifts every row of x at once: only independent rows make that each row's
  // own partials (docs/taylor.md "The model").
  std::string why;
  if (!passes::graph_rows(primal.graph, &why))
    throw Error(fmt::format("{}: the rows of the graph are not independent samples, so its "
                            "derivatives are not per row: {}", a.bundle, why));
  autodiff::TaylorSpec spec{a.wrt, a.order, {}};
  if (!a.request.empty())
    spec.requests = autodiff::requests_from_json(ir::parse_json_text(read_file(a.request), a.request), a.request);
  const driver::ModeChoice mode = driver::choose_bundle_mode(a.mode, primal, spec);
  ir::Bundle b = driver::derive_in_mode(primal, spec, mode.mode, !a.no_reference);
  ir::save_bundle(b, a.out);
  const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  const std::string reason = mode.chosen ? fmt::format(" (fewer multiplies: reverse {}, taylor {})",
                                                    mode.reverse_multiplies, mode.taylor_multiplies)
                                      : "";
  fmt::print("wrote {}: {} derivatives of order <= {} wrt {} by {} mode{}; op nodes {} -> {}{} ({:.2f} s)\n", a.out,
             b.graph.outputs().size(), a.order, a.wrt, autodiff::mode_name(mode.mode), reason,
             ir::count_op_nodes(primal.graph), ir::count_op_nodes(b.graph), a.no_reference ? ", no reference" : "", s);
  return 0;
}

}  // namespace

void register_derive(CLI::App& app) {
  auto a = std::make_shared<DeriveArgs>();
  auto* cmd = app.add_subcommand(
      "derive", "Turn a primal bundle into a bundle of its derivatives (Taylor or reverse mode; docs/taylor.md)");
  cmd->add_option("bundle", a->bundle, "Primal bundle folder (graph.json, inputs/, params/)")->required();
  cmd->add_option("--wrt", a->wrt, "Input to differentiate by, of shape [rows, variables]")->capture_default_str();
  cmd->add_option("--order,-K", a->order, "Highest total order of the partials")->capture_default_str();
  cmd->add_option("--request", a->request,
                  "JSON {\"outputs\": [{\"name\", \"of\", \"alpha\", \"index\"?, \"scale\"?}]} "
                  "(default: every partial up to the order of every output)");
  cmd->add_option("--mode", a->mode,
                  "Derivative construction: taylor, reverse (nested reverse mode) or auto (the one with "
                  "fewer multiplies in the lowered design)")
      ->check(CLI::IsMember({"auto", "taylor", "reverse"}))
      ->capture_default_str();
  cmd->add_flag("--no-reference", a->no_reference,
                "Skip the reference outputs (the other construction's values; slow at high orders)");
  cmd->add_option("-o,--out", a->out, "Output bundle folder (written atomically)")->required();
  cmd->callback([a] { run_guarded("derive", [a] { return run_derive(*a); }); });
}

}  // namespace inrarch::cli
