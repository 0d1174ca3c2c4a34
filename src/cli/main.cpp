// inrarch: the command-line driver. Each subcommand lives in its own cmd_*.cpp.
#include <CLI/CLI.hpp>

#include <cstdio>
#include <cstdlib>
#include <iostream>

#include "cli/cli.h"
#include "support/cleanup.h"
#include "support/error.h"

namespace inrarch::cli {

namespace {
int g_exit_code = 0;
}

void run_guarded(const std::string& command, const std::function<int()>& body) {
  try {
    g_exit_code = body();
  } catch (const Error& e) {
    std::fprintf(stderr, "inrarch %s: error: %s\n", command.c_str(), e.what());
    g_exit_code = 1;
  } catch (const std::bad_alloc&) {
    std::fprintf(stderr, "inrarch %s: error: out of memory\n", command.c_str());
    g_exit_code = 1;
  }
}

std::function<void(const std::string&)> progress_reporter(const std::string& command, bool quiet) {
  if (quiet) return {};
  return [command](const std::string& line) {
    std::fprintf(stderr, "inrarch %s: %s\n", command.c_str(), line.c_str());
  };
}

int main(int argc, char** argv) {
  CLI::App app{"inrarch: compiles arbitrary-order gradient computations into streaming "
               "dataflow hardware"};
  app.require_subcommand(1);
  app.set_version_flag("--version", "inrarch 0.1");
#define COMMAND(name) register_##name(app);
#include "cli/commands.def"
#undef COMMAND
  CLI11_PARSE(app, argc, argv);
  return g_exit_code;
}

}  // namespace inrarch::cli

int main(int argc, char** argv) {
  inrarch::cleanup::install();  // before any thread starts (support/cleanup.h)
  return inrarch::cli::main(argc, argv);
}
