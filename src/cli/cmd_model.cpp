#include <CLI/CLI.hpp>

#include "cli/cli.h"

namespace inrarch::cli {

void register_model(CLI::App& app) {
  auto* cmd = app.add_subcommand("model", "(not implemented yet)");
  cmd->callback([] { run_guarded("model", [] { return 1; }); });
}

}  // namespace inrarch::cli
