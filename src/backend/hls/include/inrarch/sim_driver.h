// INR-Arch HLS simulation driver (C++17, not synthesised): runs the generated top
// (model.cpp built with -DINRARCH_SIM, see dataflow_region.h) with the design's sources and
// sinks around it, in one of two modes, and prints one JSON line. sim_main.cpp gives it the
// design's tables (process names, stream ids and depths) and the ports; it re-states no
// kernel call.
//
//   seq       Vitis csim semantics: sources, then the top's processes in topological order,
//             then sinks; unbounded streams; a read of an empty stream is an error
//             (would_block), not a hang. With --trace FILE, every FIFO op and every
//             INRARCH_STEP() is recorded per process and written as run-length-encoded
//             steps for the trace check.
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

#ifndef INRARCH_SIM
#error "sim_driver.h: build with -DINRARCH_SIM (the top's processes must reach the driver)"
#endif

#include "dataflow_region.h"
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
  // The design's streams by variable name: id and sized depth (0: unbounded).
  std::map<std::string, std::pair<int, long long>> table;
  bool bounded = false;  // give every design stream its sized depth (threaded mode)
  bool tracing = false;

  void on_create(hls::sim::stream_base& s) override {
    auto it = table.find(s.name());
    if (it == table.end()) return;  // a kernel's own stream, or the testbench's
    ids[&s] = it->second.first;
    if (bounded && it->second.second > 0) s.set_depth(static_cast<std::size_t>(it->second.second));
  }

  void step() {
    if (tracing && current_process >= 0) steps_[current_process].emplace_back();
  }
  int first_overflow = -1;  // the process whose value first left the number type's range
  double reached_lo = 0, reached_hi = 0;  // the span of that process's values out of range
  void overflow(double v) {
    std::lock_guard<std::mutex> lk(mu_);
    if (first_overflow < 0) {
      first_overflow = current_process;
      reached_lo = reached_hi = v;
    } else if (current_process == first_overflow) {
      reached_lo = v < reached_lo ? v : reached_lo;
      reached_hi = v > reached_hi ? v : reached_hi;
    }
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
inline void overflow_to_recorder(double v) {
  if (the_recorder()) the_recorder()->overflow(v);
}

// One design stream as the simulation knows it: the variable name it is constructed with,
// its id in the design (the trace's stream numbers) and its sized depth (0: unbounded).
struct stream_info {
  const char* name;
  int id;
  long long depth;
};

// Runs the generated top (model.cpp, built with -DINRARCH_SIM) in one mode. The top's
// INRARCH_PROCESS calls arrive at process() (dataflow_region.h); its streams make
// themselves known as they are constructed (hls::sim::hooks::on_create), and are matched
// by name with the design's table to learn their ids and depths. Sources and sinks are the
// driver's own processes around the top, as in the testbench.
class driver : public region::runner {
 public:
  // rows: the samples streamed (--rows N overrides the compiled batch). `processes` names
  // the design's processes by id; `streams` lists its streams.
  driver(int argc, char** argv, int rows, const stream_info* streams, std::size_t n_streams,
         const char* const* processes, std::size_t n_processes);
  ~driver() override {
    hls::sim::set_hooks(nullptr);
    region::current() = nullptr;
  }
  driver(const driver&) = delete;
  driver& operator=(const driver&) = delete;

  template <class S>
  void source(int id, S& s, const std::string& file) {
    std::string path = data_ + "/" + file;
    const std::size_t n = std::size_t(rows_) * S::numel;
    sources_.push_back({id, [&s, path, n] { tb::feed(s, tb::load_bin(path, n)); }});
  }
  // flag: the top's overflow flag of this output port (docs/hls.md "Range safety").
  template <class S>
  void sink(int id, S& s, const std::string& golden, const std::string& output, const bool& flag) {
    std::size_t k = got_.size();
    got_.emplace_back();
    flags_.push_back(&flag);
    golden_.push_back(data_ + "/" + golden);
    sizes_.push_back(std::size_t(rows_) * S::numel);
    sink_names_.push_back(output);
    columns_.push_back(S::shape_type::last());
    sinks_.push_back({id, [this, &s, k] { got_[k] = tb::drain(s, rows_); }});
  }
  int rows() const { return rows_; }
  // top(): one call of the generated top with the ports. Returns the exit code.
  template <class Top>
  int run(Top top);

  void process(int id, const char* name, region::body_fn body, void* closure) override;
  void end() override;

 private:
  struct proc_rec {
    int id;
    std::function<void()> body;
  };
  // Thrown through the top when a sequential process fails: the rest must not run.
  struct stop {};
  bool run_one_seq(const proc_rec& p);
  void run_threaded();
  int report_threaded();
  std::string errors_json();
  std::string overflow_flags_json() const;

  std::string mode_ = "seq", trace_, data_ = "data";
  int rows_ = 1;
  double budget_s_ = 600;
  long stack_kb_ = 8192;
  std::vector<std::string> names_;  // by process id
  recorder rec_;
  std::vector<proc_rec> sources_, region_, sinks_;
  bool region_ran_ = false;
  int seq_rc_ = 0;  // the failed sequential run's exit code
  fibers::verdict verdict_ = fibers::verdict::completed;
  std::string threaded_error_;
  std::vector<std::string> waits_;  // by process id, at a deadlock
  std::vector<std::vector<double>> got_;
  std::vector<std::string> golden_;
  std::vector<std::size_t> sizes_;
  std::vector<std::string> sink_names_;
  std::vector<int> columns_;
  std::vector<const bool*> flags_;  // by sink
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
  if (v < -1e308) v = -1e308;
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.6g", v);
  return buf;
}

// The top's overflow flags: "overflow_flag" (any), "overflow_flags" (the outputs that set it).
inline std::string driver::overflow_flags_json() const {
  std::string names;
  for (std::size_t k = 0; k < flags_.size(); ++k)
    if (*flags_[k]) names += std::string(names.empty() ? "\"" : ", \"") + json_escape(sink_names_[k]) + "\"";
  return std::string(", \"overflow_flag\": ") + (names.empty() ? "false" : "true") +
         ", \"overflow_flags\": [" + names + "]";
}

inline std::string driver::errors_json() {
  tb::errors err;
  for (std::size_t k = 0; k < got_.size(); ++k)
    err.add(sink_names_[k], got_[k], tb::load_bin(golden_[k], sizes_[k]), columns_[k]);
  std::string out = "\"max_abs_error\": " + json_number(err.max_abs) +
                    ", \"max_rel_error\": " + json_number(err.max_rel) +
                    ", \"max_scaled_error\": " + json_number(err.max_scaled) +
                    ", \"max_column_rel_error\": " + json_number(err.max_column_rel) +
                    ", \"overflows\": " + std::to_string(overflows().count) +
                    (rec_.first_overflow < 0 ? std::string()
                                             : ", \"first_overflow\": \"" +
                                                   json_escape(names_.at(rec_.first_overflow)) +
                                                   "\", \"first_overflow_reached\": [" +
                                                   json_number(rec_.reached_lo) + ", " +
                                                   json_number(rec_.reached_hi) + "]") +
                    overflow_flags_json() + ", \"worst_columns\": [";
  for (std::size_t i = 0; i < err.worst.size(); ++i) {
    const tb::column_error& c = err.worst[i];
    out += std::string(i ? ", " : "") + "{\"output\": \"" + json_escape(c.output) +
           "\", \"column\": " + std::to_string(c.column) +
           ", \"max_abs_error\": " + json_number(c.max_abs) +
           ", \"rel_error\": " + json_number(c.rel) + "}";
  }
  out += "], \"outputs\": [";  // each output's own errors, by the same measure
  for (std::size_t k = 0; k < got_.size(); ++k) {
    tb::errors one;
    one.add(sink_names_[k], got_[k], tb::load_bin(golden_[k], sizes_[k]), columns_[k]);
    out += std::string(k ? ", " : "") + "{\"output\": \"" + json_escape(sink_names_[k]) +
           "\", \"max_abs_error\": " + json_number(one.max_abs) +
           ", \"max_rel_error\": " + json_number(one.max_rel) +
           ", \"max_scaled_error\": " + json_number(one.max_scaled) + "}";
  }
  return out + "]";
}

inline driver::driver(int argc, char** argv, int rows, const stream_info* streams,
                      std::size_t n_streams, const char* const* processes,
                      std::size_t n_processes)
    : rows_(rows), names_(processes, processes + n_processes), rec_(n_processes) {
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (a == "--trace" && i + 1 < argc) trace_ = argv[++i];
    else if (a == "--rows" && i + 1 < argc) rows_ = std::atoi(argv[++i]);
    else if (a == "--budget" && i + 1 < argc) budget_s_ = std::atof(argv[++i]);
    else if (a == "--stack-kb" && i + 1 < argc) stack_kb_ = std::atol(argv[++i]);
    else if (a == "--data" && i + 1 < argc) data_ = argv[++i];
    else mode_ = a;
  }
  for (std::size_t i = 0; i < n_streams; ++i)
    rec_.table[streams[i].name] = {streams[i].id, streams[i].depth};
  rec_.bounded = mode_ == "threaded";
  rec_.tracing = mode_ != "threaded" && !trace_.empty();
  the_recorder() = &rec_;
  step_hook() = &step_to_recorder;
  overflows().hook = &overflow_to_recorder;
  // Before the ports and the top's streams exist, so that each is seen as it is built.
  hls::sim::set_hooks(&rec_);
  region::current() = this;
}

// Runs one process now; on failure prints the run's result line and returns false.
inline bool driver::run_one_seq(const proc_rec& p) {
  current_process = p.id;
  try {
    p.body();
    return true;
  } catch (const std::exception& e) {
    const bool late = dynamic_cast<const recorder::out_of_time*>(&e) != nullptr;
    std::printf("{\"mode\": \"seq\", \"completed\": false, \"out_of_time\": %s, "
                "\"process\": \"%s\", \"error\": \"%s\"}\n",
                late ? "true" : "false", json_escape(names_.at(p.id)).c_str(),
                json_escape(e.what()).c_str());
    seq_rc_ = late ? 4 : 2;
    return false;
  }
}

inline void driver::process(int id, const char* /*name*/, region::body_fn body, void* closure) {
  proc_rec p{id, [body, closure] { body(closure); }};
  if (mode_ == "threaded") region_.push_back(std::move(p));
  else if (!run_one_seq(p)) throw stop();
}

inline void driver::end() {
  region_ran_ = true;
  if (mode_ == "threaded") run_threaded();
}

// Every process a fiber: the sources, the top's processes, the sinks.
inline void driver::run_threaded() {
  std::vector<const proc_rec*> all;
  for (const auto* list : {&sources_, &region_, &sinks_})
    for (const auto& p : *list) all.push_back(&p);
  std::vector<std::string> errors(all.size());
  fibers::scheduler sched(std::size_t(stack_kb_) << 10);
  for (std::size_t f = 0; f < all.size(); ++f)
    sched.spawn([&all, &errors, f] {
      try {
        all[f]->body();
      } catch (const hls::sim::aborted&) {
      } catch (const std::exception& e) {
        errors[f] = e.what();
      }
    });
  sched.on_switch = [&all](int f) { current_process = f < 0 ? -1 : all[std::size_t(f)]->id; };
  sched.on_deadlock = [this] { waits_ = rec_.waits(); };
  try {
    verdict_ = sched.run(budget_s_);
  } catch (const std::exception& e) {  // no memory for a stack: say so instead of aborting
    threaded_error_ = std::string(e.what()) + " (try --stack-kb)";
    verdict_ = fibers::verdict::completed;
    return;
  }
  for (std::size_t f = 0; f < errors.size() && threaded_error_.empty(); ++f)
    if (!errors[f].empty()) threaded_error_ = names_.at(all[f]->id) + ": " + errors[f];
}

inline int driver::report_threaded() {
  std::string w;
  for (std::size_t p = 0; p < waits_.size(); ++p)
    if (!waits_[p].empty())
      w += std::string(w.empty() ? "" : ", ") + "{\"process\": \"" + json_escape(names_.at(p)) +
           "\", \"waits\": \"" + json_escape(waits_[p]) + "\"}";
  const fibers::verdict v = verdict_;
  const bool completed = v == fibers::verdict::completed && threaded_error_.empty();
  const std::string error_fields = completed ? ", " + errors_json() : "";
  const std::string err = json_escape(threaded_error_);
  std::printf("{\"mode\": \"threaded\", \"completed\": %s, \"deadlock\": %s, "
              "\"out_of_time\": %s, \"waits\": [%s]%s%s%s%s}\n",
              completed ? "true" : "false", v == fibers::verdict::deadlock ? "true" : "false",
              v == fibers::verdict::out_of_time ? "true" : "false", w.c_str(),
              err.empty() ? "" : ", \"error\": \"", err.c_str(), err.empty() ? "" : "\"",
              error_fields.c_str());
  return v == fibers::verdict::deadlock ? 3 : v == fibers::verdict::out_of_time ? 4 : completed ? 0 : 2;
}

template <class Top>
inline int driver::run(Top top) {
  const bool threaded = mode_ == "threaded";
  hls::sim::set_blocking(threaded);
  if (!threaded)  // the fiber scheduler keeps the threaded run's budget itself
    rec_.deadline = std::chrono::steady_clock::now() +
                    std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                        std::chrono::duration<double>(budget_s_));
  int rc = 0;
  if (threaded) {
    top();
    rc = region_ran_ ? report_threaded() : 2;
  } else {
    bool ok = true;
    for (const auto& p : sources_) ok = ok && run_one_seq(p);
    try {
      if (ok) top();
    } catch (const stop&) {
      ok = false;
      region_ran_ = true;  // a process failed; the result line is out
    }
    for (const auto& p : sinks_) ok = ok && run_one_seq(p);
    current_process = -1;
    if (ok) {
      if (rec_.tracing) rec_.dump(trace_);
      std::printf("{\"mode\": \"seq\", \"completed\": true, %s}\n", errors_json().c_str());
    }
    rc = ok ? 0 : seq_rc_;
  }
  if (!region_ran_)
    std::printf("{\"mode\": \"%s\", \"completed\": false, \"error\": \"the top has no "
                "INRARCH_DATAFLOW_END\"}\n", mode_.c_str());
  std::fflush(stdout);
  return region_ran_ ? rc : 2;
}

}  // namespace simdrv
}  // namespace inrarch_hls

#endif  // INRARCH_HLS_SIM_DRIVER_H
