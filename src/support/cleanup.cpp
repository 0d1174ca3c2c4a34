#include "support/cleanup.h"

#include <signal.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstring>
#include <mutex>
#include <set>
#include <thread>

namespace inrarch::cleanup {

namespace {

namespace fs = std::filesystem;

struct Registry {
  std::mutex mu;
  std::set<fs::path> paths;
  std::set<pid_t> children;
};

Registry& registry() {
  static Registry r;  // never destroyed before the signal thread could use it
  return r;
}

sigset_t cleanup_signals() {
  sigset_t set;
  sigemptyset(&set);
  sigaddset(&set, SIGINT);
  sigaddset(&set, SIGTERM);
  sigaddset(&set, SIGHUP);
  return set;
}

// The main thread may still be writing into a folder while it is removed, so a removal
// that finds new entries is tried again.
void remove_folder(const fs::path& p) {
  for (int attempt = 0; attempt < 20; ++attempt) {
    std::error_code ec;
    fs::remove_all(p, ec);
    if (!ec && !fs::exists(p, ec)) return;
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
}

[[noreturn]] void on_signal(int sig) {
  Registry& r = registry();
  r.mu.lock();  // held until exit: nothing registers or unregisters any more
  for (pid_t g : r.children) ::kill(-g, SIGKILL);
  for (const auto& p : r.paths) remove_folder(p);
  std::fprintf(stderr, "inrarch: stopped by signal %d (%s)%s\n", sig, strsignal(sig),
               r.paths.empty() ? "" : "; removed the unfinished output");
  std::fflush(stderr);
  ::_exit(128 + sig);
}

}  // namespace

void install() {
  static std::once_flag once;
  std::call_once(once, [] {
    sigset_t set = cleanup_signals();
    pthread_sigmask(SIG_BLOCK, &set, nullptr);
    std::thread([set] {
      int sig = 0;
      while (sigwait(&set, &sig) != 0) {
      }
      on_signal(sig);
    }).detach();
  });
}

void add_path(const fs::path& folder) {
  std::lock_guard<std::mutex> lk(registry().mu);
  registry().paths.insert(folder);
}

void remove_path(const fs::path& folder) {
  std::lock_guard<std::mutex> lk(registry().mu);
  registry().paths.erase(folder);
}

Lock::Lock() { registry().mu.lock(); }
Lock::~Lock() { registry().mu.unlock(); }

void add_child_locked(pid_t group) { registry().children.insert(group); }

void remove_child(pid_t group) {
  std::lock_guard<std::mutex> lk(registry().mu);
  registry().children.erase(group);
}

}  // namespace inrarch::cleanup
