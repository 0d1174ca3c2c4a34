// What an interrupted run leaves behind, and its removal. A `compile` stopped by Ctrl-C,
// `kill` or a CI timeout must not leave a half-written output folder or a simulator still
// running. Staging folders and child process groups register here while they exist; a
// SIGINT, SIGTERM or SIGHUP then kills the children, removes the folders and exits with
// 128 + the signal.
//
// The work is done by a thread that waits for the signals (sigwait), not by a signal
// handler, so it may take locks and remove folders. That needs the signals blocked in every
// other thread: install() must run first in main, before any thread starts. Without
// install() (tests, library users) registrations cost nothing and signals act as usual.
#pragma once

#include <sys/types.h>

#include <filesystem>

namespace inrarch::cleanup {

void install();

void add_path(const std::filesystem::path& folder);
void remove_path(const std::filesystem::path& folder);

// The registry's lock, held by run_command between starting a child and registering it,
// so that a signal in between cannot miss the child.
class Lock {
 public:
  Lock();
  ~Lock();
  Lock(const Lock&) = delete;
  Lock& operator=(const Lock&) = delete;
};
// A child's process group (its pid when started in a group of its own); call under Lock.
void add_child_locked(pid_t group);
void remove_child(pid_t group);

}  // namespace inrarch::cleanup
