#include <CLI/CLI.hpp>

#include "cli/cli.h"

namespace inrarch::cli {

void register_eval(CLI::App& app) {
  auto* cmd = app.add_subcommand("eval", "(not implemented yet)");
  cmd->callback([] { run_guarded("eval", [] { return 1; }); });
}

}  // namespace inrarch::cli
