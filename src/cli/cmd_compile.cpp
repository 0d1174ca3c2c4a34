#include <CLI/CLI.hpp>

#include "cli/cli.h"

namespace inrarch::cli {

void register_compile(CLI::App& app) {
  auto* cmd = app.add_subcommand("compile", "(not implemented yet)");
  cmd->callback([] { run_guarded("compile", [] { return 1; }); });
}

}  // namespace inrarch::cli
