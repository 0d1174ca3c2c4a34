// Shared pieces of the subcommands.
#pragma once

#include <filesystem>
#include <functional>
#include <string>

namespace CLI {
class App;
}

namespace inrarch::cli {

#define COMMAND(name) void register_##name(CLI::App& app);
#include "cli/commands.def"
#undef COMMAND

// Runs a subcommand body, turning inrarch::Error into "inrarch <cmd>: error: ..." on stderr
// and exit code 1. Subcommands call this from their CLI11 callback.
void run_guarded(const std::string& command, const std::function<int()>& body);

}  // namespace inrarch::cli
