// Shared pieces of the subcommands.
#pragma once

#include <filesystem>
#include <functional>
#include <string>

#include "autodiff/models.h"

namespace CLI {
class App;
}

namespace inrarch::cli {

#define COMMAND(name) void register_##name(CLI::App& app);
#include "cli/commands.def"
#undef COMMAND

// The INSP benchmark's SIREN (2 -> W x4 -> 3) with range-checked CLI values.
autodiff::SirenSpec insp_spec(int order, int64_t batch, int64_t width, uint64_t seed);

// `--mode taylor|reverse` of the commands that build INSP, bound to `mode`.
void add_mode_option(CLI::App* cmd, std::string& mode);

// Runs a subcommand body, turning inrarch::Error into "inrarch <cmd>: error: ..." on stderr
// and exit code 1. Subcommands call this from their CLI11 callback.
void run_guarded(const std::string& command, const std::function<int()>& body);

// The one progress reporter of every subcommand: "inrarch <command>: <line>" on stderr;
// none (an empty function) when quiet.
std::function<void(const std::string&)> progress_reporter(const std::string& command, bool quiet = false);

}  // namespace inrarch::cli
