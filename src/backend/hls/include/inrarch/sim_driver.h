// INR-Arch HLS simulation driver (C++17, not synthesised): runs a generated design's
// processes (sources, kernels, sinks; sim_main.cpp registers them in design order) in one
// of two modes and prints one JSON line.
//
//   seq       Vitis csim semantics: processes one after another in topological order,
//             unbounded streams; a read of an empty stream is an error (would_block), not
//             a hang. With --trace FILE, every FIFO op and every INRARCH_STEP() is recorded
//             per process and written as run-length-encoded steps for the trace check.
//   threaded  every process its own thread of control, every stream bounded at its sized
//             depth. The processes are cooperative fibers on this one OS thread
//             (fibers.h), so a design of thousands of processes runs on two cores, and a
//             deadlock is exact: no process can run and some have not finished. It reports
//             who waits on what, then unwinds the waits so the program ends.
// Either mode stops cleanly after --budget seconds (default 600) with "out_of_time".
#ifndef INRARCH_HLS_SIM_DRIVER_H
#define INRARCH_HLS_SIM_DRIVER_H

#include <chrono>
#include <cstdlib>
#include <cstdio>
#include <functional>
#include <map>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "fibers.h"
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
  void on_op(const hls::sim::stream_base& s, hls::sim::fifo_op op, unsigned long long seq) override {
    check_deadline(seq);
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
  // Ends a sequential run that exceeds its budget (checked every 2^16 FIFO ops).
  std::chrono::steady_clock::time_point deadline = std::chrono::steady_clock::time_point::max();
  void check_deadline(unsigned long long seq) {
    if ((seq & 0xffff) == 0 && std::chrono::steady_clock::now() > deadline)
      throw out_of_time("time budget exceeded");
  }
  struct out_of_time : std::runtime_error {
    explicit out_of_time(const std::string& m) : std::runtime_error(m) {}
  };
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
      else if (a == "--budget" && i + 1 < argc) budget_s_ = std::atof(argv[++i]);
      else if (a == "--stack-kb" && i + 1 < argc) stack_kb_ = std::atol(argv[++i]);
      else if (a == "--data" && i + 1 < argc) data_ = argv[++i];
      else mode_ = a;
    }
  }
  template <class S>
  void stream(S& s, int id, long long depth) {
    streams_.push_back({&s, id, depth, [&s](std::size_t d) { s.set_depth(d); }});
  }
  // A process of the design: body(rows). A plain function, not a closure per process: a
  // design of thousands of processes compiles far faster that way.
  void process(const char* name, void (*body)(int), int rows) {
    procs_.push_back({name, [body, rows] { body(rows); }});
  }
  template <class S>
  void source(const char* name, S& s, const std::string& file) {
    std::string path = data_ + "/" + file;
    const std::size_t n = std::size_t(rows_) * S::numel;
    procs_.push_back({name, [&s, path, n] { tb::feed(s, tb::load_bin(path, n)); }});
  }
  template <class S>
  void sink(const char* name, S& s, const std::string& golden, const std::string& output) {
    std::size_t k = got_.size();
    got_.emplace_back();
    golden_.push_back(data_ + "/" + golden);
    sizes_.push_back(std::size_t(rows_) * S::numel);
    sink_names_.push_back(output);
    columns_.push_back(S::shape_type::last());
    procs_.push_back({name, [this, &s, k] { got_[k] = tb::drain(s, rows_); }});
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
  double budget_s_ = 600;
  long stack_kb_ = 8192;
  std::vector<stream_rec> streams_;
  std::vector<proc_rec> procs_;
  std::vector<std::vector<double>> got_;
  std::vector<std::string> golden_;
  std::vector<std::size_t> sizes_;
  std::vector<std::string> sink_names_;
  std::vector<int> columns_;
};

// A JSON string literal's body (process names and messages are plain, but be safe).
inline std::string json_escape(const std::string& in) {
  std::string out;
  for (char c : in) {
    if (c == '"' || c == '\\') out += '\\';
    if (static_cast<unsigned char>(c) >= 0x20) out += c;
  }
  return out;
}

// NaN has no JSON form: null, which the host reads as a failed comparison.
inline std::string json_number(double v) {
  if (v != v) return "null";
  if (v > 1e308) v = 1e308;
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.6g", v);
  return buf;
}

inline std::string driver::errors_json() {
  tb::errors err;
  for (std::size_t k = 0; k < got_.size(); ++k)
    err.add(sink_names_[k], got_[k], tb::load_bin(golden_[k], sizes_[k]), columns_[k]);
  std::string out = "\"max_abs_error\": " + json_number(err.max_abs) +
                    ", \"max_rel_error\": " + json_number(err.max_rel) +
                    ", \"max_column_rel_error\": " + json_number(err.max_column_rel) +
                    ", \"worst_columns\": [";
  for (std::size_t i = 0; i < err.worst.size(); ++i) {
    const tb::column_error& c = err.worst[i];
    out += std::string(i ? ", " : "") + "{\"output\": \"" + json_escape(c.output) +
           "\", \"column\": " + std::to_string(c.column) +
           ", \"max_abs_error\": " + json_number(c.max_abs) +
           ", \"rel_error\": " + json_number(c.rel) + "}";
  }
  return out + "]";
}

inline int driver::run_seq(recorder& rec) {
  hls::sim::set_blocking(false);
  rec.tracing = !trace_.empty();
  rec.deadline = std::chrono::steady_clock::now() +
                 std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                     std::chrono::duration<double>(budget_s_));
  for (std::size_t p = 0; p < procs_.size(); ++p) {
    current_process = static_cast<int>(p);
    try {
      procs_[p].body();
    } catch (const std::exception& e) {
      const bool late = dynamic_cast<const recorder::out_of_time*>(&e) != nullptr;
      std::printf("{\"mode\": \"seq\", \"completed\": false, \"out_of_time\": %s, "
                  "\"process\": \"%s\", \"error\": \"%s\"}\n",
                  late ? "true" : "false", json_escape(procs_[p].name).c_str(),
                  json_escape(e.what()).c_str());
      return late ? 4 : 2;
    }
  }
  current_process = -1;
  if (rec.tracing) rec.dump(trace_);
  std::printf("{\"mode\": \"seq\", \"completed\": true, %s}\n", errors_json().c_str());
  return 0;
}

inline int driver::run_threaded(recorder& rec) {
  for (auto& s : streams_) s.set_depth(s.depth <= 0 ? 0 : static_cast<std::size_t>(s.depth));
  std::vector<std::string> errors(procs_.size()), waits;
  fibers::scheduler sched(std::size_t(stack_kb_) << 10);
  for (std::size_t p = 0; p < procs_.size(); ++p)
    sched.spawn([this, &errors, p] {
      try {
        procs_[p].body();
      } catch (const hls::sim::aborted&) {
      } catch (const std::exception& e) {
        errors[p] = e.what();
      }
    });
  sched.on_switch = [](int p) { current_process = p; };
  sched.on_deadlock = [&] { waits = rec.waits(); };
  fibers::verdict v;
  try {
    v = sched.run(budget_s_);
  } catch (const std::exception& e) {  // no memory for a stack: say so instead of aborting
    std::printf("{\"mode\": \"threaded\", \"completed\": false, \"deadlock\": false, "
                "\"out_of_time\": false, \"waits\": [], \"error\": \"%s (try --stack-kb)\"}\n",
                json_escape(e.what()).c_str());
    return 2;
  }
  std::string w, err;
  for (std::size_t p = 0; p < waits.size(); ++p)
    if (!waits[p].empty())
      w += std::string(w.empty() ? "" : ", ") + "{\"process\": \"" + json_escape(procs_[p].name) +
           "\", \"waits\": \"" + json_escape(waits[p]) + "\"}";
  for (std::size_t p = 0; p < errors.size() && err.empty(); ++p)
    if (!errors[p].empty()) err = json_escape(procs_[p].name + ": " + errors[p]);
  const bool completed = v == fibers::verdict::completed && err.empty();
  const std::string error_fields = completed ? ", " + errors_json() : "";
  std::printf("{\"mode\": \"threaded\", \"completed\": %s, \"deadlock\": %s, "
              "\"out_of_time\": %s, \"waits\": [%s]%s%s%s%s}\n",
              completed ? "true" : "false", v == fibers::verdict::deadlock ? "true" : "false",
              v == fibers::verdict::out_of_time ? "true" : "false", w.c_str(),
              err.empty() ? "" : ", \"error\": \"", err.c_str(), err.empty() ? "" : "\"",
              error_fields.c_str());
  return v == fibers::verdict::deadlock ? 3 : v == fibers::verdict::out_of_time ? 4 : completed ? 0 : 2;
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
