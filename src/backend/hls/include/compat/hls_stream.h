// INR-Arch compat hls_stream.h: hls::stream<T> for C simulation without Vitis.
//
// A FIFO guarded by a mutex and two condition variables, so one thread per dataflow process
// can run against it. Depth 0 (the default) is unbounded, as Vitis's C simulation; a bound
// set by the constructor or set_depth() makes write() block while full, which is how the
// threaded csim reproduces the sized FIFO depths. The DEPTH template argument (Vitis 2022+
// syntax) is accepted for source compatibility but is NOT a bound here, so that generated
// code declaring depths still runs sequentially (a process at a time) without blocking.
//
// Observation hooks (namespace hls::sim) let a trace checker record every FIFO operation.
// A cooperative scheduler (hls::sim::scheduler, the simulation driver's fibers) can take
// over waiting, so thousands of processes run on one OS thread; see docs/hls.md.
#ifndef INRARCH_HLS_COMPAT_HLS_STREAM_H
#define INRARCH_HLS_COMPAT_HLS_STREAM_H

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <deque>
#include <mutex>
#include <stdexcept>
#include <string>

namespace hls {
namespace sim {

enum class fifo_op { read, write };

class stream_base;

// Observer of FIFO traffic. Every call is made while the stream's own mutex is held, so the
// calls for one stream arrive in the exact FIFO order; calls for different streams may come
// from different threads at once (an implementation must lock its own state). A hook must
// not touch the stream it is called for.
class hooks {
 public:
  virtual ~hooks() {}
  // A read or write has completed (the element is in / out of the FIFO). `seq` numbers all
  // completed ops of the program from 0, in an order consistent with every stream's order.
  virtual void on_op(const stream_base& /*s*/, fifo_op /*op*/, unsigned long long /*seq*/) {}
  // The calling thread is about to wait: read on empty, or write on full.
  virtual void on_block(const stream_base& /*s*/, fifo_op /*op*/) {}
  // ... and has stopped waiting (the op proceeds, or throws `aborted`).
  virtual void on_unblock(const stream_base& /*s*/, fifo_op /*op*/) {}
  // The stream has been constructed (its base part: name and depth are set). Not under
  // its lock: nothing else can know the stream yet.
  virtual void on_create(stream_base& /*s*/) {}
  // The stream is destroyed with `leftover` elements never read.
  virtual void on_destroy(const stream_base& /*s*/, std::size_t /*leftover*/) {}
};

// Runs processes cooperatively. When one is installed, an op that must wait hands control
// to it instead of sleeping on a condition variable, and every completed op tells it which
// stream changed, so it knows whom to wake. Calls come from the one thread that runs every
// process; `wait` is called without the stream's lock held, `changed` with it held.
class scheduler {
 public:
  virtual ~scheduler() {}
  // Returns when `s` may have changed (or at once while an abort is requested).
  virtual void wait(const stream_base& s, fifo_op op) = 0;
  virtual void changed(const stream_base& s) = 0;
};

// Thrown by a blocking op when blocking is disabled (sequential csim: waiting would hang).
struct would_block : std::runtime_error {
  explicit would_block(const std::string& m) : std::runtime_error(m) {}
};
// Thrown by ops that wait (or would wait) after request_abort() (a watchdog's verdict).
struct aborted : std::runtime_error {
  explicit aborted(const std::string& m) : std::runtime_error(m) {}
};

struct global_state {
  std::atomic<hooks*> hook{nullptr};
  std::atomic<scheduler*> sched{nullptr};
  std::atomic<bool> blocking{true};
  std::atomic<bool> abort{false};
  std::atomic<unsigned long long> ops{0};
  std::atomic<int> blocked{0};
  std::atomic<unsigned> next_id{0};
};
// One instance program-wide (an inline function's static is shared across translation units).
inline global_state& state() {
  static global_state s;
  return s;
}

// Install (or with nullptr remove) the observer; not owned. Set it before threads start.
inline void set_hooks(hooks* h) { state().hook.store(h); }
inline hooks* get_hooks() { return state().hook.load(); }
// Install (or with nullptr remove) the cooperative scheduler; not owned.
inline void set_scheduler(scheduler* s) { state().sched.store(s); }
// true (default): ops wait. false: a read on empty / write on full throws would_block.
inline void set_blocking(bool b) { state().blocking.store(b); }
// Make every waiting op (now or later) throw `aborted`; waiters notice within ~10 ms.
inline void request_abort() { state().abort.store(true); }
inline void clear_abort() { state().abort.store(false); }
inline bool abort_requested() { return state().abort.load(); }
// Completed FIFO ops over all streams: a watchdog's progress signal.
inline unsigned long long op_count() { return state().ops.load(); }
// Threads waiting inside a stream op right now.
inline int blocked_count() { return state().blocked.load(); }

class stream_base {
 public:
  // Program-wide unique id, in construction order (stable for a deterministic testbench).
  unsigned id() const { return id_; }
  const std::string& name() const { return name_; }
  // 0 = unbounded.
  std::size_t depth() const { return depth_; }
  void set_depth(std::size_t d) {
    std::lock_guard<std::mutex> lk(mu_);
    depth_ = d;
  }

 protected:
  stream_base(const std::string& name, std::size_t depth)
      : id_(state().next_id++), name_(name.empty() ? "stream" + std::to_string(id_) : name),
        depth_(depth) {
    if (hooks* h = state().hook.load()) h->on_create(*this);
  }
  ~stream_base() {}

  // Waits on cv until ready() (caller holds lk); reports the wait to the hooks and the
  // counters. Polls the abort flag every 10 ms so a watchdog never has to wake us itself.
  template <class Ready>
  void wait_ready(std::unique_lock<std::mutex>& lk, std::condition_variable& cv, fifo_op op,
                  Ready ready) {
    if (ready()) return;
    const char* what = op == fifo_op::read ? "read while empty" : "written while full";
    if (!state().blocking.load())
      throw would_block("hls::stream '" + name_ + "' " + what);
    hooks* h = state().hook.load();
    state().blocked++;
    if (h) h->on_block(*this, op);
    while (!ready()) {
      if (state().abort.load()) {
        state().blocked--;
        if (h) h->on_unblock(*this, op);
        throw aborted("hls::stream '" + name_ + "' " + what + ": aborted");
      }
      if (scheduler* sc = state().sched.load()) {
        lk.unlock();
        sc->wait(*this, op);
        lk.lock();
      } else {
        cv.wait_for(lk, std::chrono::milliseconds(10));
      }
    }
    state().blocked--;
    if (h) h->on_unblock(*this, op);
  }
  void done(fifo_op op) {
    const unsigned long long seq = state().ops++;
    if (hooks* h = state().hook.load()) h->on_op(*this, op, seq);
    if (scheduler* sc = state().sched.load()) sc->changed(*this);
  }
  void destroyed(std::size_t leftover) {
    if (hooks* h = state().hook.load()) h->on_destroy(*this, leftover);
  }

  mutable std::mutex mu_;
  std::condition_variable not_empty_, not_full_;

 private:
  unsigned id_;
  std::string name_;
  std::size_t depth_;
};

}  // namespace sim

template <class T, int DEPTH = 0>
class stream : public sim::stream_base {
 public:
  stream() : stream_base("", 0) {}
  explicit stream(const char* name) : stream_base(name, 0) {}
  explicit stream(const std::string& name) : stream_base(name, 0) {}
  stream(const char* name, std::size_t depth) : stream_base(name, depth) {}
  stream(const stream&) = delete;  // as Vitis: streams are passed by reference
  stream& operator=(const stream&) = delete;
  ~stream() { destroyed(q_.size()); }

  void write(const T& v) {
    std::unique_lock<std::mutex> lk(mu_);
    wait_ready(lk, not_full_, sim::fifo_op::write, [this] { return !full_locked(); });
    push(v);
  }
  T read() {
    std::unique_lock<std::mutex> lk(mu_);
    wait_ready(lk, not_empty_, sim::fifo_op::read, [this] { return !q_.empty(); });
    return pop();
  }
  void read(T& v) { v = read(); }
  bool write_nb(const T& v) {
    std::unique_lock<std::mutex> lk(mu_);
    if (full_locked()) return false;
    push(v);
    return true;
  }
  bool read_nb(T& v) {
    std::unique_lock<std::mutex> lk(mu_);
    if (q_.empty()) return false;
    v = pop();
    return true;
  }
  stream& operator<<(const T& v) {
    write(v);
    return *this;
  }
  stream& operator>>(T& v) {
    v = read();
    return *this;
  }
  bool empty() const { return size() == 0; }
  bool full() const {
    std::lock_guard<std::mutex> lk(mu_);
    return full_locked();
  }
  std::size_t size() const {
    std::lock_guard<std::mutex> lk(mu_);
    return q_.size();
  }
  std::size_t capacity() const { return depth(); }

 private:
  bool full_locked() const { return depth() != 0 && q_.size() >= depth(); }
  void push(const T& v) {  // caller holds mu_
    q_.push_back(v);
    done(sim::fifo_op::write);
    not_empty_.notify_all();
  }
  T pop() {  // caller holds mu_
    T v = q_.front();
    q_.pop_front();
    done(sim::fifo_op::read);
    not_full_.notify_all();
    return v;
  }
  std::deque<T> q_;
};

}  // namespace hls

#endif  // INRARCH_HLS_COMPAT_HLS_STREAM_H
