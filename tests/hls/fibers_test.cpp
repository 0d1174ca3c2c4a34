// Cooperative processes of the bounded C simulation (inrarch/fibers.h): thousands of
// processes on the calling thread, exact deadlock verdicts with the stacks unwound, the
// time budget, and a deterministic interleaving.
#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "backend/hls/include/inrarch/fibers.h"

namespace {

using inrarch_hls::fibers::scheduler;
using inrarch_hls::fibers::verdict;

struct SimGuard {
  ~SimGuard() {
    hls::sim::set_scheduler(nullptr);
    hls::sim::clear_abort();
  }
};

// A chain source -> n-1 incrementers -> sink over depth-1 FIFOs: every beat passes every
// process, so the processes interleave as finely as they can.
TEST(Fibers, ThousandsOfProcessesOnTheCallingThread) {
  SimGuard guard;
  const int n = 3000, beats = 20;
  std::vector<std::unique_ptr<hls::stream<int>>> s;
  for (int i = 0; i < n; ++i) s.push_back(std::make_unique<hls::stream<int>>("s", 1));
  const auto main_thread = std::this_thread::get_id();
  int other_thread = 0;
  std::vector<int> got;
  scheduler sched(64 << 10);
  sched.spawn([&] {
    for (int b = 0; b < beats; ++b) s[0]->write(b);
  });
  for (int p = 1; p < n; ++p)
    sched.spawn([&, p] {
      other_thread += std::this_thread::get_id() != main_thread;
      for (int b = 0; b < beats; ++b) s[p]->write(s[p - 1]->read() + 1);
    });
  sched.spawn([&] {
    for (int b = 0; b < beats; ++b) got.push_back(s[n - 1]->read());
  });
  ASSERT_EQ(sched.run(60), verdict::completed);
  EXPECT_EQ(other_thread, 0);
  ASSERT_EQ(got.size(), size_t(beats));
  for (int b = 0; b < beats; ++b) EXPECT_EQ(got[b], b + n - 1);
}

// Counts its destructions, to see a waiting process's stack unwound.
struct Tracked {
  int* count;
  ~Tracked() { ++*count; }
};

// Two processes that each read the other's output first: a deadlock, found at once and
// reported with both waits; both stacks are unwound so their locals are destroyed.
TEST(Fibers, CycleIsAnExactDeadlockAndUnwinds) {
  SimGuard guard;
  hls::stream<int> a("a", 2), b("b", 2);
  int destroyed = 0, aborted = 0;
  std::vector<int> switched_in;
  scheduler sched(64 << 10);
  auto process = [&](hls::stream<int>& in, hls::stream<int>& out) {
    return [&, in_p = &in, out_p = &out] {
      Tracked t{&destroyed};
      try {
        out_p->write(in_p->read());
      } catch (const hls::sim::aborted&) {
        ++aborted;
      }
    };
  };
  sched.spawn(process(a, b));
  sched.spawn(process(b, a));
  bool reported = false;
  sched.on_deadlock = [&] { reported = true; };
  sched.on_switch = [&](int p) { switched_in.push_back(p); };
  EXPECT_EQ(sched.run(60), verdict::deadlock);
  EXPECT_TRUE(reported);
  EXPECT_EQ(aborted, 2);
  EXPECT_EQ(destroyed, 2);
  EXPECT_FALSE(hls::sim::abort_requested());  // cleared for the next run
  // Each ran once until it blocked, then once more to unwind.
  EXPECT_EQ(switched_in, (std::vector<int>{0, -1, 1, -1, 0, -1, 1, -1}));
}

// A deadlock that needs the bound: with depth 1 the producer blocks on its second write
// into `a` while the consumer waits on `b`, which the producer only writes afterwards.
TEST(Fibers, BoundedDepthDecidesTheVerdict) {
  SimGuard guard;
  for (size_t depth : {1u, 2u}) {
    hls::stream<int> a("a", depth), b("b", depth);
    scheduler sched(64 << 10);
    sched.spawn([&] {
      try {
        a.write(1), a.write(2), b.write(3);
      } catch (const hls::sim::aborted&) {
      }
    });
    sched.spawn([&] {
      try {
        b.read(), a.read(), a.read();
      } catch (const hls::sim::aborted&) {
      }
    });
    EXPECT_EQ(sched.run(60), depth == 1 ? verdict::deadlock : verdict::completed) << depth;
  }
}

// Two processes that pass a token back and forth forever end at the budget.
TEST(Fibers, BudgetEndsAnEndlessRun) {
  SimGuard guard;
  hls::stream<int> a("a", 1), b("b", 1);
  scheduler sched(64 << 10);
  auto ping = [](hls::stream<int>& in, hls::stream<int>& out, bool first) {
    return [&in, &out, first] {
      try {
        if (first) out.write(0);
        for (;;) out.write(in.read() + 1);
      } catch (const hls::sim::aborted&) {
      }
    };
  };
  sched.spawn(ping(a, b, true));
  sched.spawn(ping(b, a, false));
  const auto t0 = std::chrono::steady_clock::now();
  EXPECT_EQ(sched.run(0.2), verdict::out_of_time);
  EXPECT_LT(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(), 30);
}

// A stack that cannot be reserved is an exception naming the process, not a crash, and the
// streams are left without a scheduler.
TEST(Fibers, StackThatCannotBeReservedIsAnError) {
  SimGuard guard;
  hls::stream<int> s("s", 1);
  scheduler sched(std::size_t(1) << 50);  // 1 PiB: beyond any address space
  sched.spawn([&] { s.write(1); });
  try {
    sched.run(60);
    FAIL() << "no error";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("cannot reserve a stack"), std::string::npos) << e.what();
  }
  EXPECT_EQ(hls::sim::state().sched.load(), nullptr);
}

// The same program gives the same interleaving, run after run.
TEST(Fibers, Deterministic) {
  SimGuard guard;
  auto order = [] {
    hls::stream<int> s("s", 2);
    std::vector<std::string> log;
    scheduler sched(64 << 10);
    for (int w = 0; w < 3; ++w)
      sched.spawn([&, w] {
        for (int i = 0; i < 5; ++i) s.write(w), log.push_back("w" + std::to_string(w));
      });
    sched.spawn([&] {
      for (int i = 0; i < 15; ++i) log.push_back("r" + std::to_string(s.read()));
    });
    EXPECT_EQ(sched.run(60), verdict::completed);
    return log;
  };
  EXPECT_EQ(order(), order());
}

}  // namespace
