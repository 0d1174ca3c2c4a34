#include <CLI/CLI.hpp>

#include "cli/cli.h"

namespace inrarch::cli {

void register_opt(CLI::App& app) {
  auto* cmd = app.add_subcommand("opt", "(not implemented yet)");
  cmd->callback([] { run_guarded("opt", [] { return 1; }); });
}

}  // namespace inrarch::cli
