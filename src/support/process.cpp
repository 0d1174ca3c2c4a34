#include "support/process.h"

#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <thread>

#include "support/cleanup.h"
#include "support/error.h"

extern char** environ;

namespace inrarch {

namespace {

// In a group of its own (so the group can be killed without killing us) and with no
// signal blocked: the tool blocks SIGINT/SIGTERM in its threads (cleanup.h), and a
// child would inherit that mask.
pid_t spawn_shell(const std::string& command) {
  posix_spawnattr_t attr;
  posix_spawnattr_init(&attr);
  posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK);
  posix_spawnattr_setpgroup(&attr, 0);
  sigset_t none;
  sigemptyset(&none);
  posix_spawnattr_setsigmask(&attr, &none);
  const char* argv[] = {"sh", "-c", command.c_str(), nullptr};
  pid_t pid = -1;
  int rc = 0;
  {
    cleanup::Lock lock;
    rc = posix_spawn(&pid, "/bin/sh", nullptr, &attr, const_cast<char* const*>(argv), environ);
    if (rc == 0) cleanup::add_child_locked(pid);
  }
  posix_spawnattr_destroy(&attr);
  if (rc != 0) throw Error(std::string("cannot start /bin/sh: ") + std::strerror(rc));
  return pid;
}

int decode(int status) {
  if (WIFEXITED(status)) return WEXITSTATUS(status);
  if (WIFSIGNALED(status)) return 128 + WTERMSIG(status);
  return 128;
}

}  // namespace

CommandResult run_command(const std::string& command, double timeout_s) {
  const pid_t pid = spawn_shell(command);
  const auto deadline = std::chrono::steady_clock::now() +
                        std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                            std::chrono::duration<double>(timeout_s));
  CommandResult r;
  // Wait for the exit without reaping (WNOWAIT): while the child is a zombie its group id
  // cannot be reused, so a signal arriving meanwhile still kills the right group.
  for (;;) {
    siginfo_t info{};
    int rc = ::waitid(P_PID, pid, &info, WEXITED | WNOWAIT | (timeout_s > 0 ? WNOHANG : 0));
    if (rc == 0 && info.si_pid == pid) break;
    if (rc != 0 && errno == EINTR) continue;
    if (rc != 0) break;
    if (!r.timed_out && std::chrono::steady_clock::now() > deadline) {
      ::kill(-pid, SIGKILL);
      r.timed_out = true;
      continue;  // now wait for the exit this causes
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  cleanup::remove_child(pid);
  int status = 0, rc = 0;
  while ((rc = ::waitpid(pid, &status, 0)) < 0 && errno == EINTR) {
  }
  // Without the child's status (SIGCHLD ignored reaps it unseen) there is no exit code to
  // report, and 0 would read as success.
  if (rc < 0) throw Error("cannot wait for '" + command + "': " + std::strerror(errno));
  r.exit_code = r.timed_out ? 124 : decode(status);
  return r;
}

std::filesystem::path this_executable() {
  std::error_code ec;
  std::filesystem::path p = std::filesystem::read_symlink("/proc/self/exe", ec);
  return ec ? std::filesystem::path() : p;
}

std::filesystem::path find_beside_executable(const std::filesystem::path& relative) {
  const std::filesystem::path dir = this_executable().parent_path();
  std::error_code ec;
  for (const auto& base : {dir, dir.parent_path()})
    if (!base.empty() && std::filesystem::exists(base / relative, ec)) return base / relative;
  return {};
}

}  // namespace inrarch
