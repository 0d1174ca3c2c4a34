// A `compile` stopped by a signal while a child runs (the threaded C simulation, or g++
// building it) leaves nothing behind: no output folder, no staging folder, no child
// process (support/cleanup.h).
#include <gtest/gtest.h>

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <string>
#include <thread>

namespace {

namespace fs = std::filesystem;

// Processes whose working folder lies in `dir` (the simulator runs in OUT/hls).
int processes_in(const fs::path& dir) {
  int n = 0;
  std::error_code ec;
  for (const auto& e : fs::directory_iterator("/proc", ec)) {
    const std::string pid = e.path().filename().string();
    if (pid.find_first_not_of("0123456789") != std::string::npos) continue;
    fs::path cwd = fs::read_symlink(e.path() / "cwd", ec);
    if (!ec && cwd.string().find(dir.string()) == 0) ++n;
  }
  return n;
}

// A file of the staging folder that appears when a stage starts (its log, created by the
// shell's redirection as the child starts).
bool stage_started(const fs::path& dir, const std::string& file) {
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(dir, ec))
    if (fs::exists(e.path() / "hls" / "sim" / file, ec)) return true;
  return false;
}

void interrupt_during(const std::string& marker, int sig) {
  const fs::path dir = fs::temp_directory_path() /
                       ("inrarch_interrupt_" + std::to_string(sig) + "_" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  const std::string out = (dir / "out").string();
  // Large enough a batch that the threaded simulation runs for a second or more.
  pid_t pid = fork();
  ASSERT_GE(pid, 0);
  if (pid == 0) {
    execl(INRARCH_BINARY, INRARCH_BINARY, "compile", "--builtin", "insp", "--order", "1", "--batch",
          "8192", "--width", "32", "--no-mlir", "-q", "-o", out.c_str(), (char*)nullptr);
    _exit(127);
  }
  const auto t0 = std::chrono::steady_clock::now();
  bool started = false;
  while (!(started = stage_started(dir, marker)) &&
         std::chrono::steady_clock::now() - t0 < std::chrono::minutes(5)) {
    int status = 0;
    if (waitpid(pid, &status, WNOHANG) == pid) FAIL() << "compile ended before " << marker;
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  ASSERT_TRUE(started);
  ASSERT_EQ(kill(pid, sig), 0);
  int status = 0;
  ASSERT_EQ(waitpid(pid, &status, 0), pid);
  EXPECT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 128 + sig);
  EXPECT_TRUE(fs::is_empty(dir)) << "left: " << fs::directory_iterator(dir)->path();
  // The simulator is killed, not orphaned (it could linger a moment as it dies).
  int left = processes_in(dir);
  for (int i = 0; i < 100 && left > 0; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
    left = processes_in(dir);
  }
  EXPECT_EQ(left, 0);
  fs::remove_all(dir);
}

TEST(Interrupt, SigintDuringThreadedSimulationLeavesNothing) { interrupt_during("threaded.json", SIGINT); }
TEST(Interrupt, SigtermDuringTheDriverBuildLeavesNothing) { interrupt_during("build.log", SIGTERM); }

}  // namespace
