// INR-Arch HLS simulation driver (C++17, not synthesised): runs a generated design's
// processes (sources, kernels, sinks; sim_main.cpp registers them in design order) in one
// of two modes and prints one JSON line.
//
//   seq       Vitis csim semantics: processes one after another in topological order,
//             unbounded streams; a read of an empty stream is an error (would_block), not
//             a hang. With --trace FILE, every FIFO op and every INRARCH_STEP() is recorded
//             per process and written as run-length-encoded steps for the trace check.
//   threaded  one thread per process, every stream bounded at its sized depth. A watchdog
//             declares a deadlock when every live thread waits in a stream op and no op
//             completed for --watchdog seconds; it reports who waits on what, then aborts
//             the waits so the program ends instead of hanging.
#ifndef INRARCH_HLS_SIM_DRIVER_H
#define INRARCH_HLS_SIM_DRIVER_H

#include <atomic>
#include <chrono>
#include <cstdlib>
#include <cstdio>
#include <functional>
#include <map>
#include <mutex>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "tb_util.h"

namespace inrarch_hls {
namespace simdrv {

inline thread_local int current_process = -1;

// Records FIFO ops and steps per process (trace), and who waits on what (watchdog).
class recorder : public hls::sim::hooks {
 public:
  explicit recorder(std::size_t n) : steps_(n), waits_(n) {}
  std::map<const hls::sim::stream_base*, int> ids;  // stream -> design stream id
  bool tracing = false;

  void step() {
    if (tracing && current_process >= 0) steps_[current_process].emplace_back();
  }
  void on_op(const hls::sim::stream_base& s, hls::sim::fifo_op op, unsigned long long) override {
    if (!tracing || current_process < 0) return;
    auto& st = steps_[current_process];
    if (st.empty()) st.emplace_back();
    st.back().push_back((op == hls::sim::fifo_op::write ? "w" : "r") + std::to_string(ids[&s]));
  }
  void on_block(const hls::sim::stream_base& s, hls::sim::fifo_op op) override {
    std::lock_guard<std::mutex> lk(mu_);
    if (current_process >= 0)
      waits_[current_process] = (op == hls::sim::fifo_op::write ? "write " : "read ") + s.name();
  }
  void on_unblock(const hls::sim::stream_base&, hls::sim::fifo_op) override {
    std::lock_guard<std::mutex> lk(mu_);
    if (current_process >= 0) waits_[current_process].clear();
  }
  std::vector<std::string> waits() {
    std::lock_guard<std::mutex> lk(mu_);
    return waits_;
  }
  // "P <process> <runs>" then "<count> <op> <op>..." per run of equal consecutive steps.
  void dump(const std::string& file) const {
    std::FILE* f = std::fopen(file.c_str(), "w");
    if (!f) return;
    for (std::size_t p = 0; p < steps_.size(); ++p) {
      std::vector<std::pair<long, const std::vector<std::string>*>> runs;
      for (const auto& s : steps_[p]) {
        if (s.empty()) continue;  // a loop iteration without FIFO ops is no schedule step
        if (!runs.empty() && *runs.back().second == s) ++runs.back().first;
        else runs.push_back({1, &s});
      }
      std::fprintf(f, "P %zu %zu\n", p, runs.size());
      for (const auto& r : runs) {
        std::fprintf(f, "%ld", r.first);
        for (const auto& op : *r.second) std::fprintf(f, " %s", op.c_str());
        std::fprintf(f, "\n");
      }
    }
    std::fclose(f);
  }

 private:
  std::vector<std::vector<std::vector<std::string>>> steps_;
  std::mutex mu_;
  std::vector<std::string> waits_;
};

inline recorder*& the_recorder() {
  static recorder* r = nullptr;
  return r;
}
inline void step_to_recorder() {
  if (the_recorder()) the_recorder()->step();
}

class driver {
 public:
  // rows: the samples streamed (--rows N overrides the compiled batch).
  driver(int argc, char** argv, int rows) : rows_(rows) {
    for (int i = 1; i < argc; ++i) {
      std::string a = argv[i];
      if (a == "--trace" && i + 1 < argc) trace_ = argv[++i];
      else if (a == "--rows" && i + 1 < argc) rows_ = std::atoi(argv[++i]);
      else if (a == "--watchdog" && i + 1 < argc) watchdog_s_ = std::atof(argv[++i]);
      else if (a == "--data" && i + 1 < argc) data_ = argv[++i];
      else mode_ = a;
    }
  }
  template <class S>
  void stream(S& s, int id, long long depth) {
    streams_.push_back({&s, id, depth, [&s](std::size_t d) { s.set_depth(d); }});
  }
  void process(const char* name, std::function<void()> body) {
    procs_.push_back({name, std::move(body)});
  }
  template <class S>
  void source(const char* name, S& s, const std::string& file) {
    std::string path = data_ + "/" + file;
    const std::size_t n = std::size_t(rows_) * S::numel;
    process(name, [&s, path, n] { tb::feed(s, tb::load_bin(path, n)); });
  }
  template <class S>
  void sink(const char* name, S& s, const std::string& golden) {
    std::size_t k = got_.size();
    got_.emplace_back();
    golden_.push_back(data_ + "/" + golden);
    sizes_.push_back(std::size_t(rows_) * S::numel);
    process(name, [this, &s, k] { got_[k] = tb::drain(s, rows_); });
  }
  int rows() const { return rows_; }
  int run();

 private:
  struct stream_rec {
    hls::sim::stream_base* s;
    int id;
    long long depth;
    std::function<void(std::size_t)> set_depth;
  };
  struct proc_rec {
    std::string name;
    std::function<void()> body;
  };
  int run_seq(recorder& rec);
  int run_threaded(recorder& rec);
  std::string errors_json();

  std::string mode_ = "seq", trace_, data_ = "data";
  int rows_ = 1;
  double watchdog_s_ = 1.0;
  std::vector<stream_rec> streams_;
  std::vector<proc_rec> procs_;
  std::vector<std::vector<double>> got_;
  std::vector<std::string> golden_;
  std::vector<std::size_t> sizes_;
};

inline std::string driver::errors_json() {
  tb::errors err;
  for (std::size_t k = 0; k < got_.size(); ++k)
    err.add(got_[k], tb::load_bin(golden_[k], sizes_[k]));
  char buf[160];
  std::snprintf(buf, sizeof buf, "\"max_abs_error\": %.6g, \"max_rel_error\": %.6g", err.max_abs,
                err.max_rel);
  return buf;
}

inline int driver::run_seq(recorder& rec) {
  hls::sim::set_blocking(false);
  rec.tracing = !trace_.empty();
  for (std::size_t p = 0; p < procs_.size(); ++p) {
    current_process = static_cast<int>(p);
    try {
      procs_[p].body();
    } catch (const std::exception& e) {
      std::printf("{\"mode\": \"seq\", \"completed\": false, \"process\": \"%s\", \"error\": \"%s\"}\n",
                  procs_[p].name.c_str(), e.what());
      return 2;
    }
  }
  current_process = -1;
  if (rec.tracing) rec.dump(trace_);
  std::printf("{\"mode\": \"seq\", \"completed\": true, %s}\n", errors_json().c_str());
  return 0;
}

inline int driver::run_threaded(recorder& rec) {
  for (auto& s : streams_) s.set_depth(s.depth <= 0 ? 0 : static_cast<std::size_t>(s.depth));
  std::atomic<int> live{static_cast<int>(procs_.size())};
  std::vector<std::string> errors(procs_.size());
  std::vector<std::thread> threads;
  for (std::size_t p = 0; p < procs_.size(); ++p)
    threads.emplace_back([&, p] {
      current_process = static_cast<int>(p);
      try {
        procs_[p].body();
      } catch (const hls::sim::aborted&) {
      } catch (const std::exception& e) {
        errors[p] = e.what();
      }
      --live;
    });
  bool deadlock = false;
  std::vector<std::string> waits;
  unsigned long long last = hls::sim::op_count();
  auto since = std::chrono::steady_clock::now();
  while (live > 0) {
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
    unsigned long long now_ops = hls::sim::op_count();
    auto now = std::chrono::steady_clock::now();
    if (now_ops != last || hls::sim::blocked_count() < live) last = now_ops, since = now;
    if (std::chrono::duration<double>(now - since).count() >= watchdog_s_) {
      deadlock = true;
      waits = rec.waits();
      hls::sim::request_abort();
      break;
    }
  }
  for (auto& t : threads) t.join();
  std::string w;
  for (std::size_t p = 0; p < waits.size(); ++p)
    if (!waits[p].empty())
      w += std::string(w.empty() ? "" : ", ") + "{\"process\": \"" + procs_[p].name +
           "\", \"waits\": \"" + waits[p] + "\"}";
  std::printf("{\"mode\": \"threaded\", \"deadlock\": %s, \"waits\": [%s]%s%s}\n",
              deadlock ? "true" : "false", w.c_str(), deadlock ? "" : ", ",
              deadlock ? "" : errors_json().c_str());
  return deadlock ? 3 : 0;
}

inline int driver::run() {
  recorder rec(procs_.size());
  for (auto& s : streams_) rec.ids[s.s] = s.id;
  the_recorder() = &rec;
  step_hook() = &step_to_recorder;
  hls::sim::set_hooks(&rec);
  int rc = mode_ == "threaded" ? run_threaded(rec) : run_seq(rec);
  hls::sim::set_hooks(nullptr);
  std::fflush(stdout);
  return rc;
}

}  // namespace simdrv
}  // namespace inrarch_hls

#endif  // INRARCH_HLS_SIM_DRIVER_H
