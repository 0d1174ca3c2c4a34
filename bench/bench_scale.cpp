// Real model sizes through the whole flow: `inrarch compile` with its three C simulations on
// INSP of high order at width 64 (thousands of processes), as a child process. Prints the
// wall time, peak memory, the most threads the compile's process tree ever had (sampled
// every 20 ms from /proc), and the verdicts.
//   build/bench_scale [--orders 3,4] [--width 64] [--batch 8]
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <algorithm>
#include <map>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include <nlohmann/json.hpp>

namespace {

namespace fs = std::filesystem;

std::vector<int> ints(const std::string& s) {
  std::vector<int> out;
  std::stringstream ss(s);
  for (std::string t; std::getline(ss, t, ',');) out.push_back(std::atoi(t.c_str()));
  return out;
}

// Threads of `root` and all its descendants now.
int tree_threads(pid_t root) {
  std::map<pid_t, pid_t> parent;
  std::map<pid_t, int> threads;
  std::error_code ec;
  for (const auto& e : fs::directory_iterator("/proc", ec)) {
    const std::string name = e.path().filename().string();
    if (name.find_first_not_of("0123456789") != std::string::npos) continue;
    std::ifstream status(e.path() / "status");
    pid_t pid = std::atoi(name.c_str()), ppid = 0;
    int n = 0;
    for (std::string line; std::getline(status, line);) {
      if (line.rfind("PPid:", 0) == 0) ppid = std::atoi(line.c_str() + 5);
      if (line.rfind("Threads:", 0) == 0) n = std::atoi(line.c_str() + 8);
    }
    parent[pid] = ppid;
    threads[pid] = n;
  }
  int total = 0;
  for (const auto& [pid, n] : threads) {
    for (pid_t p = pid; p > 1; p = parent.count(p) ? parent[p] : 0)
      if (p == root) {
        total += n;
        break;
      }
  }
  return total;
}

struct Run {
  double seconds = 0;
  long peak_rss_mb = 0;
  int peak_threads = 0;
  int exit_code = -1;
};

Run run_sampled(const std::vector<std::string>& args) {
  std::vector<char*> argv;
  for (const auto& a : args) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  const auto t0 = std::chrono::steady_clock::now();
  std::fflush(stdout);  // else the child's freopen writes our buffered lines again
  pid_t pid = fork();
  if (pid == 0) {
    freopen("/dev/null", "w", stdout);  // the table alone on stdout; progress stays on stderr
    execv(argv[0], argv.data());
    _exit(127);
  }
  Run r;
  int status = 0;
  struct rusage ru {};
  while (wait4(pid, &status, WNOHANG, &ru) == 0) {
    r.peak_threads = std::max(r.peak_threads, tree_threads(pid));
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  r.peak_rss_mb = ru.ru_maxrss / 1024;
  r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return r;
}

std::string verdict(const nlohmann::json& v, const char* mode) {
  if (!v.contains(mode)) return "-";
  if (v[mode].contains("skipped")) return "skipped";
  return v[mode].value("pass", false) ? "PASS" : "FAIL";
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<int> orders = {3, 4};
  int width = 64, batch = 8;
  for (int i = 1; i + 1 < argc; i += 2) {
    std::string a = argv[i];
    if (a == "--orders") orders = ints(argv[i + 1]);
    else if (a == "--width") width = std::atoi(argv[i + 1]);
    else if (a == "--batch") batch = std::atoi(argv[i + 1]);
  }
  const std::string bin = INRARCH_BINARY;
  const fs::path work = fs::temp_directory_path() / ("inrarch_bench_scale_" + std::to_string(getpid()));
  std::printf("| order | outputs | processes | streams | compile s | peak RSS MB | peak threads | csim | threaded | trace | project |\n");
  std::printf("|---|---|---|---|---|---|---|---|---|---|---|\n");
  for (int order : orders) {
    const std::string bundle = (work / ("b" + std::to_string(order))).string();
    const std::string out = (work / ("o" + std::to_string(order))).string();
    Run m = run_sampled({bin, "model", "insp", "--order", std::to_string(order), "--width",
                         std::to_string(width), "--batch", std::to_string(batch), "-o", bundle});
    if (m.exit_code != 0) return 1;
    Run r = run_sampled({bin, "compile", bundle, "-q", "-o", out});
    std::ifstream f(fs::path(out) / "report.json");
    if (r.exit_code != 0 || !f) {
      std::printf("| %d | compile failed (exit %d) |\n", order, r.exit_code);
      continue;
    }
    nlohmann::json rep = nlohmann::json::parse(f);
    const auto& v = rep["verification"];
    std::printf("| %d | %s | %s | %s | %.1f | %ld | %d | %s | %s | %s | %s |\n", order,
                rep["graph"]["outputs"].dump().c_str(), rep["design"]["processes"].dump().c_str(),
                rep["design"]["streams"].dump().c_str(), r.seconds, r.peak_rss_mb,
                r.peak_threads, verdict(v, "csim").c_str(), verdict(v, "threaded").c_str(),
                verdict(v, "trace").c_str(), verdict(v, "project").c_str());
    std::fflush(stdout);
  }
  fs::remove_all(work);
  return 0;
}
