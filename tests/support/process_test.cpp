// support/process.h: exit codes, signals, and the time limit that kills the whole group
// (a command's own children included), promptly.
#include <gtest/gtest.h>

#include <signal.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <string>

#include "support/error.h"
#include "support/process.h"

namespace {

namespace fs = std::filesystem;
using inrarch::run_command;

TEST(Process, ExitCodesAndSignals) {
  EXPECT_EQ(run_command("true").exit_code, 0);
  EXPECT_EQ(run_command("exit 3").exit_code, 3);
  EXPECT_EQ(run_command("kill -TERM $$").exit_code, 128 + SIGTERM);
  EXPECT_FALSE(run_command("true", 5).timed_out);
}

TEST(Process, TimeLimitKillsTheGroup) {
  const fs::path pid_file =
      fs::temp_directory_path() / ("inrarch_process_test_" + std::to_string(::getpid()));
  const auto t0 = std::chrono::steady_clock::now();
  // A grandchild in the background and the shell waiting for it: both must die.
  auto r = run_command("sleep 60 & echo $! > '" + pid_file.string() + "'; wait", 0.3);
  const double took = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  EXPECT_TRUE(r.timed_out);
  EXPECT_EQ(r.exit_code, 124);
  EXPECT_LT(took, 10);
  int grandchild = 0;
  std::ifstream(pid_file) >> grandchild;
  fs::remove(pid_file);
  ASSERT_GT(grandchild, 0);
  // Killed and reaped by init, or a zombie at worst: never still running.
  bool running = false;
  for (int i = 0; i < 100 && (running = ::kill(grandchild, 0) == 0); ++i) {
    std::ifstream stat("/proc/" + std::to_string(grandchild) + "/stat");
    std::string pid, comm, state;
    stat >> pid >> comm >> state;
    if (state == "Z" || !stat) { running = false; break; }
    usleep(10000);
  }
  EXPECT_FALSE(running) << "the background sleep outlived the limit";
}

// With SIGCHLD ignored the kernel reaps the child itself and its status is gone: an error,
// not an exit code of 0 that would read as success.
TEST(Process, ALostExitStatusIsAnError) {
  struct sigaction ignore {}, old {};
  ignore.sa_handler = SIG_IGN;
  ASSERT_EQ(::sigaction(SIGCHLD, &ignore, &old), 0);
  EXPECT_THROW(run_command("exit 3"), inrarch::Error);
  EXPECT_THROW(run_command("exit 3", 5), inrarch::Error);
  ASSERT_EQ(::sigaction(SIGCHLD, &old, nullptr), 0);
  EXPECT_EQ(run_command("exit 3").exit_code, 3);
}

}  // namespace
