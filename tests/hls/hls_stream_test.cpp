// hls::stream compat: FIFO order, size/empty/full, non-blocking ops, blocking with two
// threads at a bounded depth, the sequential (non-blocking) mode, abort, and the hooks.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <map>
#include <mutex>
#include <thread>
#include <vector>

#include "backend/hls/include/compat/hls_stream.h"

namespace {

using hls::sim::fifo_op;

// Restores the global simulation settings whatever a test does.
struct SimGuard {
  ~SimGuard() {
    hls::sim::set_hooks(nullptr);
    hls::sim::set_blocking(true);
    hls::sim::clear_abort();
  }
};

TEST(HlsStream, FifoOrderAndSize) {
  hls::stream<int> s("s");
  EXPECT_TRUE(s.empty());
  EXPECT_FALSE(s.full());  // unbounded
  for (int i = 0; i < 100; ++i) s << i;
  s.write(100);
  EXPECT_EQ(s.size(), 101u);
  EXPECT_EQ(s.name(), "s");
  for (int i = 0; i <= 100; ++i) {
    int v = -1;
    if (i % 2) s >> v; else v = s.read();
    ASSERT_EQ(v, i);
  }
  EXPECT_TRUE(s.empty());
}

TEST(HlsStream, BoundedDepthAndNonBlocking) {
  hls::stream<int> s("b", 2);
  EXPECT_EQ(s.capacity(), 2u);
  EXPECT_TRUE(s.write_nb(1));
  EXPECT_FALSE(s.full());
  EXPECT_TRUE(s.write_nb(2));
  EXPECT_TRUE(s.full());
  EXPECT_FALSE(s.write_nb(3));  // refused, nothing changes
  EXPECT_EQ(s.size(), 2u);
  int v = 0;
  EXPECT_TRUE(s.read_nb(v));
  EXPECT_EQ(v, 1);
  EXPECT_TRUE(s.read_nb(v));
  EXPECT_EQ(v, 2);
  EXPECT_FALSE(s.read_nb(v));
  EXPECT_EQ(v, 2);
  hls::stream<int> t;
  t.set_depth(1);
  t.write(5);
  EXPECT_TRUE(t.full());
}

// Records the hook calls; checks the bound is never exceeded while two threads run.
class Recorder : public hls::sim::hooks {
 public:
  void on_op(const hls::sim::stream_base& s, fifo_op op, unsigned long long seq) override {
    std::lock_guard<std::mutex> lk(mu_);
    log_[s.id()].push_back(op);
    auto last = last_seq_.find(s.id());
    if (last != last_seq_.end() && seq <= last->second) seq_out_of_order_ = true;
    last_seq_[s.id()] = seq;
    int& occ = occupancy_[s.id()];
    occ += op == fifo_op::write ? 1 : -1;
    if (occ > max_occupancy_) max_occupancy_ = occ;
  }
  void on_block(const hls::sim::stream_base&, fifo_op op) override {
    (op == fifo_op::read ? read_blocks_ : write_blocks_)++;
  }
  void on_destroy(const hls::sim::stream_base&, std::size_t left) override { leftover_ += left; }
  std::map<unsigned, std::vector<fifo_op>> log_;
  std::map<unsigned, int> occupancy_;
  std::map<unsigned, unsigned long long> last_seq_;
  bool seq_out_of_order_ = false;
  int max_occupancy_ = 0;
  std::atomic<int> read_blocks_{0}, write_blocks_{0};
  std::atomic<std::size_t> leftover_{0};
  std::mutex mu_;
};

TEST(HlsStream, TwoThreadsBlockOnBoundedDepth) {
  SimGuard guard;
  Recorder rec;
  hls::sim::set_hooks(&rec);
  const int n = 5000;
  const unsigned long long ops_before = hls::sim::op_count();
  {
    hls::stream<int> s("pipe", 2);
    std::vector<int> got;
    std::thread consumer([&] {
      for (int i = 0; i < n; ++i) {
        got.push_back(s.read());
        if (i % 1024 == 0) std::this_thread::sleep_for(std::chrono::milliseconds(2));
      }
    });
    std::thread producer([&] {
      for (int i = 0; i < n; ++i) s.write(i);
    });
    producer.join();
    consumer.join();
    ASSERT_EQ(got.size(), static_cast<std::size_t>(n));
    for (int i = 0; i < n; ++i) ASSERT_EQ(got[i], i);
    const std::vector<fifo_op>& log = rec.log_[s.id()];
    ASSERT_EQ(log.size(), static_cast<std::size_t>(2 * n));
  }
  EXPECT_FALSE(rec.seq_out_of_order_);
  EXPECT_LE(rec.max_occupancy_, 2);        // the writer really waited at depth 2
  EXPECT_GT(rec.write_blocks_.load(), 0);  // the consumer's pauses made it block
  EXPECT_EQ(hls::sim::op_count() - ops_before, 2ull * n);
  EXPECT_EQ(hls::sim::blocked_count(), 0);
  EXPECT_EQ(rec.leftover_.load(), 0u);
}

TEST(HlsStream, HookSeesLeftoverData) {
  SimGuard guard;
  Recorder rec;
  hls::sim::set_hooks(&rec);
  {
    hls::stream<int> s;
    s.write(1);
    s.write(2);
  }
  EXPECT_EQ(rec.leftover_.load(), 2u);
}

TEST(HlsStream, SequentialModeThrowsInsteadOfHanging) {
  SimGuard guard;
  hls::sim::set_blocking(false);
  hls::stream<int> s("seq", 1);
  EXPECT_THROW(s.read(), hls::sim::would_block);
  s.write(1);
  EXPECT_THROW(s.write(2), hls::sim::would_block);
  EXPECT_EQ(s.read(), 1);
}

TEST(HlsStream, AbortWakesBlockedThreads) {
  SimGuard guard;
  Recorder rec;
  hls::sim::set_hooks(&rec);
  hls::stream<int> a("a"), b("b", 1);
  b.write(0);
  std::atomic<int> aborted{0};
  std::thread reader([&] {
    try { a.read(); } catch (const hls::sim::aborted&) { aborted++; }
  });
  std::thread writer([&] {
    try { b.write(1); } catch (const hls::sim::aborted&) { aborted++; }
  });
  // A watchdog's view: both threads blocked, no progress.
  for (int i = 0; i < 500 && hls::sim::blocked_count() < 2; ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  EXPECT_EQ(hls::sim::blocked_count(), 2);
  EXPECT_EQ(rec.read_blocks_.load(), 1);
  EXPECT_EQ(rec.write_blocks_.load(), 1);
  hls::sim::request_abort();
  reader.join();
  writer.join();
  EXPECT_EQ(aborted.load(), 2);
  EXPECT_EQ(hls::sim::blocked_count(), 0);
}

TEST(HlsStream, IdsAreUniqueInConstructionOrder) {
  hls::stream<float> x, y("named");
  EXPECT_EQ(y.id(), x.id() + 1);
  EXPECT_EQ(y.name(), "named");
  EXPECT_FALSE(x.name().empty());
}

}  // namespace
