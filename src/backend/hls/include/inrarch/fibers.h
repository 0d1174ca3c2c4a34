// INR-Arch cooperative processes for the bounded C simulation (C++17, POSIX, not
// synthesised). Every dataflow process runs as a fiber with its own stack on the calling
// OS thread; a stream op that must wait (read on empty, write on full) switches to the
// scheduler, and a completed op makes the fibers waiting on that stream runnable again.
//
// Why fibers and not a thread per process: a design of thousands of processes would start
// thousands of OS threads, which two cores cannot schedule in reasonable time. And because
// nothing runs preemptively, the deadlock verdict is exact: when no fiber is runnable and
// some have not finished, every one of those waits on a stream that no one else can change.
// No timing, no watchdog. The run is also deterministic: fibers run in a FIFO order.
//
// Stacks are reserved, not committed (MAP_NORESERVE): a process touching 8 MiB of locals,
// as a thread may, costs that memory only while it runs. The lowest page is a guard, so an
// overflow faults instead of corrupting a neighbour.
#ifndef INRARCH_HLS_FIBERS_H
#define INRARCH_HLS_FIBERS_H

#include <sys/mman.h>
#include <ucontext.h>

#include <chrono>
#include <cstddef>
#include <deque>
#include <functional>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

#include "../inrarch_hls_types.h"

// AddressSanitizer must be told when the stack changes, or it reports the switch itself.
#if defined(__SANITIZE_ADDRESS__)
#define INRARCH_FIBERS_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define INRARCH_FIBERS_ASAN 1
#endif
#endif
#ifdef INRARCH_FIBERS_ASAN
#include <sanitizer/common_interface_defs.h>
#endif  // the compat hls::stream: its scheduler hook

namespace inrarch_hls {
namespace fibers {

enum class verdict { completed, deadlock, out_of_time };

class scheduler : public hls::sim::scheduler {
 public:
  explicit scheduler(std::size_t stack_bytes = std::size_t(8) << 20) : stack_bytes_(stack_bytes) {}
  ~scheduler() {
    for (auto& f : fibers_) release(f);
  }
  scheduler(const scheduler&) = delete;
  scheduler& operator=(const scheduler&) = delete;

  // Processes run in spawn order at first; `body` must not let an exception escape.
  void spawn(std::function<void()> body) { fibers_.push_back(fiber{std::move(body)}); }
  // Called with the fiber's index whenever it is switched in (-1: back in the scheduler).
  std::function<void(int)> on_switch;
  // Called once, when a deadlock is found, before the waiting fibers are unwound.
  std::function<void()> on_deadlock;

  // Runs every fiber to its end, or until no fiber can run (deadlock) or `budget_s` of
  // wall time has passed. Fibers still waiting then are resumed with an abort requested,
  // so their stream ops throw hls::sim::aborted and their stacks unwind.
  verdict run(double budget_s);

  void wait(const hls::sim::stream_base& s, hls::sim::fifo_op) override {
    if (hls::sim::abort_requested()) return;  // the op throws `aborted` itself
    waiting_[&s].push_back(current_);
    switch_out();
  }
  void changed(const hls::sim::stream_base& s) override {
    auto it = waiting_.find(&s);
    if (it == waiting_.end()) return;
    for (int f : it->second) ready_.push_back(f);
    waiting_.erase(it);
  }

 private:
  struct fiber {
    std::function<void()> body;
    void* stack = nullptr;
    bool started = false, done = false;
    ucontext_t ctx{};
  };
  static scheduler*& running() {
    static scheduler* s = nullptr;
    return s;
  }
  static void trampoline() {
    scheduler* s = running();
#ifdef INRARCH_FIBERS_ASAN
    __sanitizer_finish_switch_fiber(nullptr, &s->main_stack_, &s->main_stack_size_);
#endif
    fiber& f = s->fibers_[s->current_];
    f.body();
    f.done = true;
    s->switch_out();  // never resumed
  }
  void switch_out() {
    fiber& f = fibers_[current_];
#ifdef INRARCH_FIBERS_ASAN
    void* fake = nullptr;
    __sanitizer_start_switch_fiber(f.done ? nullptr : &fake, main_stack_, main_stack_size_);
    swapcontext(&f.ctx, &main_);
    __sanitizer_finish_switch_fiber(fake, nullptr, nullptr);
#else
    swapcontext(&f.ctx, &main_);
#endif
  }
  void switch_in(fiber& f) {
#ifdef INRARCH_FIBERS_ASAN
    void* fake = nullptr;
    __sanitizer_start_switch_fiber(&fake, f.ctx.uc_stack.ss_sp, f.ctx.uc_stack.ss_size);
    swapcontext(&main_, &f.ctx);
    __sanitizer_finish_switch_fiber(fake, nullptr, nullptr);
#else
    swapcontext(&main_, &f.ctx);
#endif
  }
  void start(fiber& f) {
    const std::size_t page = 4096;
    void* mem = mmap(nullptr, stack_bytes_ + page, PROT_READ | PROT_WRITE,
                     MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_STACK, -1, 0);
    if (mem == MAP_FAILED)
      throw std::runtime_error("fibers: cannot reserve a stack of " + std::to_string(stack_bytes_ >> 10) +
                               " KiB for process " + std::to_string(current_));
    mprotect(mem, page, PROT_NONE);
    f.stack = mem;
    getcontext(&f.ctx);
    f.ctx.uc_stack.ss_sp = static_cast<char*>(mem) + page;
    f.ctx.uc_stack.ss_size = stack_bytes_;
    f.ctx.uc_link = nullptr;
    makecontext(&f.ctx, &scheduler::trampoline, 0);
    f.started = true;
  }
  void release(fiber& f) {
    if (f.stack) munmap(f.stack, stack_bytes_ + 4096);
    f.stack = nullptr;
  }
  void resume(int i) {
    fiber& f = fibers_[i];
    current_ = i;
    if (!f.started) start(f);
    if (on_switch) on_switch(i);
    switch_in(f);
    current_ = -1;
    if (on_switch) on_switch(-1);
    if (f.done) release(f);
  }
  void unwind_all() {
    hls::sim::request_abort();
    ready_.clear();
    waiting_.clear();
    for (std::size_t i = 0; i < fibers_.size(); ++i)
      if (fibers_[i].started && !fibers_[i].done) resume(int(i));
  }

  std::size_t stack_bytes_;
  std::vector<fiber> fibers_;
  std::deque<int> ready_;
  std::map<const hls::sim::stream_base*, std::vector<int>> waiting_;
  ucontext_t main_{};
  int current_ = -1;
  const void* main_stack_ = nullptr;  // for AddressSanitizer only
  std::size_t main_stack_size_ = 0;
};

inline verdict scheduler::run(double budget_s) {
  running() = this;
  hls::sim::set_scheduler(this);
  struct restore {  // however run() ends, streams go back to waiting on their own
    ~restore() {
      hls::sim::set_scheduler(nullptr);
      hls::sim::clear_abort();
      running() = nullptr;
    }
  } restore_on_exit;
  for (std::size_t i = 0; i < fibers_.size(); ++i) ready_.push_back(int(i));
  const auto t0 = std::chrono::steady_clock::now();
  verdict v = verdict::completed;
  try {
    for (unsigned long switches = 0; !ready_.empty(); ++switches) {
      const int i = ready_.front();
      ready_.pop_front();
      resume(i);
      if ((switches & 1023) == 0 &&
          std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count() > budget_s) {
        v = verdict::out_of_time;
        break;
      }
    }
  } catch (...) {  // a stack could not be reserved: unwind the others, then report
    unwind_all();
    throw;
  }
  bool unfinished = false;
  for (const auto& f : fibers_) unfinished = unfinished || !f.done;
  if (v == verdict::completed && unfinished) {
    v = verdict::deadlock;
    if (on_deadlock) on_deadlock();
  }
  if (unfinished) unwind_all();
  return v;
}

}  // namespace fibers
}  // namespace inrarch_hls

#endif  // INRARCH_HLS_FIBERS_H
