// `inrarch opt DIR|FILE.ir`: runs the optimizer pipeline (src/passes/pipeline.cpp) and
// prints the optimized graph as text IR, like mlir-opt.
#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include <cstdio>
#include <filesystem>
#include <sstream>

#include "cli/cli.h"
#include "frontend/load.h"
#include "ir/bundle.h"
#include "support/error.h"
#include "ir/text.h"
#include "passes/pipeline.h"

namespace inrarch::cli {

namespace {

struct OptArgs {
  std::string path;
  std::string passes;
  std::string print_after;
  std::string out_dir;
  bool stats = false;
  bool print_ir = false;
  bool no_verify = false;
  bool list = false;
};

std::vector<std::string> split_commas(const std::string& s) {
  std::vector<std::string> out;
  std::stringstream ss(s);
  for (std::string item; std::getline(ss, item, ',');)
    if (!item.empty()) out.push_back(item);
  return out;
}

void list_passes() {
  for (const auto& p : passes::available_passes()) fmt::print("{:<22} {}\n", p.name, p.summary);
  std::string d;
  for (const auto& n : passes::default_pipeline()) d += (d.empty() ? "" : ",") + n;
  fmt::print("\ndefault pipeline: {}\n", d);
}

passes::PipelineOptions make_options(const OptArgs& a) {
  passes::PipelineOptions o;
  o.passes = split_commas(a.passes);
  o.verify_each = !a.no_verify;
  for (const auto& p : split_commas(a.print_after)) o.print_after.insert(p);
  o.on_print = [](const std::string& name, size_t i, const ir::Graph& g) {
    std::fprintf(stderr, "// ----- IR after %s (pass %zu)\n%s", name.c_str(), i + 1,
                 ir::print_text(g).c_str());
  };
  return o;
}

int run_opt(const OptArgs& a) {
  if (a.list) {
    list_passes();
    return 0;
  }
  if (a.path.empty()) throw Error("opt: give a bundle folder or a .ir file");
  const passes::PipelineOptions options = make_options(a);
  const bool is_bundle = std::filesystem::is_directory(a.path);
  if (!a.out_dir.empty() && !is_bundle)
    throw Error(fmt::format("{}: -o writes a bundle, so the input must be a bundle folder", a.path));
  passes::PipelineResult r;
  if (is_bundle && !a.out_dir.empty()) {
    ir::Bundle b = frontend::load_bundle(a.path);
    r = passes::optimize_bundle(b, options);
    ir::save_bundle(b, a.out_dir);
  } else {
    r = passes::run_pipeline(frontend::load_graph(a.path), options);
  }
  if (a.stats) std::fputs(passes::stats_table(r).c_str(), stderr);
  if (a.out_dir.empty() || a.print_ir) std::fputs(ir::print_text(r.graph).c_str(), stdout);
  return 0;
}

}  // namespace

void register_opt(CLI::App& app) {
  auto args = std::make_shared<OptArgs>();
  auto* cmd = app.add_subcommand(
      "opt", "Optimize a graph (CSE, transposes, constant folding, algebra, param folding, DCE) "
             "and print it as text IR");
  cmd->add_option("path", args->path, "Bundle folder (graph.json, ...) or a .ir text file");
  cmd->add_option("--passes", args->passes,
                  "Comma-separated pass list to run instead of the default pipeline "
                  "(see --list-passes)");
  cmd->add_option("--print-after", args->print_after,
                  "Comma-separated pass names (or 'all'): print the IR to stderr after each run "
                  "of them");
  cmd->add_flag("--stats", args->stats,
                "Print the per-pass table (op nodes before/after, rewrites by rule, ms) to stderr");
  cmd->add_flag("--print-ir", args->print_ir,
                "Print the optimized IR to stdout also when -o is given");
  cmd->add_option("-o,--output", args->out_dir,
                  "Write the optimized bundle (graph, inputs, derived params, reference) to this "
                  "folder instead of printing the IR; needs a bundle input");
  cmd->add_flag("--no-verify", args->no_verify, "Skip the IR verifier after each pass");
  cmd->add_flag("--list-passes", args->list, "List the passes and the default pipeline, then exit");
  cmd->callback([args] { run_guarded("opt", [args] { return run_opt(*args); }); });
}

}  // namespace inrarch::cli
