// Child processes: the one way the tool runs another program (g++, the simulators, the
// LLVM/MLIR tools). Each runs through /bin/sh, so a command may redirect its output, in a
// process group of its own, registered with support/cleanup.h: an interrupted run kills it
// with everything it started.
#pragma once

#include <filesystem>
#include <string>

namespace inrarch {

struct CommandResult {
  int exit_code = 0;       // the command's; 128 + n when killed by signal n
  bool timed_out = false;  // killed at the time limit (exit_code is then 124, as timeout(1))
};

// Runs `command` with `sh -c`; past timeout_s seconds (0: none) its group is killed.
// Throws inrarch::Error only when the shell cannot be started or its exit status is lost
// (SIGCHLD ignored).
CommandResult run_command(const std::string& command, double timeout_s = 0);

// The running program's own file (/proc/self/exe), from which installed data is found:
// the tool has no source or install path compiled in.
std::filesystem::path this_executable();

// `relative` (e.g. "share/inrarch/hls/include") in the folder of this executable or its
// parent: <prefix>/bin/inrarch finds <prefix>/share/..., and a build folder holds the same
// layout (CMake links it to the sources). Empty when neither exists.
std::filesystem::path find_beside_executable(const std::filesystem::path& relative);

}  // namespace inrarch
