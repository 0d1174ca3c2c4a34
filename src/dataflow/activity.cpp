// Process activity and FIFO occupancy from resolved times (activity.h). A walk over every
// process's program in step order, with per-stream counters of the beats read and written
// so far: the n-th access of a process to a stream is beat n, whose time the resolve kept.
#include "dataflow/activity.h"

#include <algorithm>
#include <span>

#include "support/error.h"

namespace inrarch::dataflow {

namespace {

enum class State { Busy, StallRead, StallWrite };

// Adds the cycles [from, to) to the bins of one state of a process.
class BinAdder {
 public:
  BinAdder(const Activity& a, ProcessActivity& p) : a_(a), p_(p) {}

  void add(State s, int64_t from, int64_t to) {
    to = std::min(to, a_.end);
    if (from >= to) return;
    std::vector<uint32_t>& bins = s == State::Busy ? p_.busy_bins : s == State::StallRead ? p_.read_bins : p_.write_bins;
    (s == State::Busy ? p_.busy : s == State::StallRead ? p_.stall_read : p_.stall_write) += to - from;
    while (from < to) {
      const int64_t b = from / a_.bin_cycles;
      const int64_t stop = std::min(to, (b + 1) * a_.bin_cycles);
      bins[b] += static_cast<uint32_t>(stop - from);
      from = stop;
    }
  }

 private:
  const Activity& a_;
  ProcessActivity& p_;
};

// Walks one process's fired steps; counters are the beats of each stream done so far.
class ProcessWalk {
 public:
  ProcessWalk(const EventGraph& eg, const std::vector<int64_t>& depths, std::vector<int64_t>& reads,
              std::vector<int64_t>& writes)
      : eg_(eg), depths_(depths), reads_(reads), writes_(writes) {}

  void walk(ProcessId p, int64_t fired, BinAdder& bins, int64_t end) {
    const Program& prog = eg_.programs()[p];
    int64_t last = 0, done = 0;
    for (const Run& run : prog.runs) {
      const std::span<const FifoOp> ops(prog.ops.data() + run.op_begin, run.op_count);
      for (uint32_t c = 0; c < run.count; ++c, ++done) {
        if (done == fired) {
          bins.add(blocked_on(ops), last, end);
          return;
        }
        const int64_t t = ops.empty() ? last + run.delay : op_time(ops.front());
        if (t - run.delay > last) bins.add(held_by(ops, t), last, t - run.delay);
        bins.add(State::Busy, t - run.delay, t);
        for (const FifoOp& op : ops) ++(op.write ? writes_ : reads_)[op.stream];
        last = t;
      }
    }
  }

 private:
  int64_t op_time(const FifoOp& op) const {
    return op.write ? eg_.write_times(op.stream)[writes_[op.stream]] : eg_.read_times(op.stream)[reads_[op.stream]];
  }

  // The earliest time the op allows (the event graph's RAW or WAR edge into it).
  int64_t allowed_at(const FifoOp& op) const {
    const int64_t depth = depths_[op.stream];
    if (!op.write) return eg_.write_times(op.stream)[reads_[op.stream]] + raw_delay(depth);
    const int64_t freeing = writes_[op.stream] - depth;  // the read that frees the slot
    return freeing < 0 ? 0 : eg_.read_times(op.stream)[freeing] + 1;
  }

  // Which op kept a step from firing earlier than at time t (reads first when both did).
  State held_by(std::span<const FifoOp> ops, int64_t t) const {
    for (const FifoOp& op : ops)
      if (!op.write && allowed_at(op) == t) return State::StallRead;
    return State::StallWrite;  // the step waited, so some op held it
  }

  // The op a step that never fired waits on (deadlock): a read of a beat not written, or a
  // write whose slot is never freed.
  State blocked_on(std::span<const FifoOp> ops) const {
    for (const FifoOp& op : ops) {
      const StreamId s = op.stream;
      if (!op.write && reads_[s] >= int64_t(eg_.write_times(s).size())) return State::StallRead;
      if (op.write && writes_[s] - depths_[s] >= int64_t(eg_.read_times(s).size())) return State::StallWrite;
    }
    return State::StallRead;
  }

  const EventGraph& eg_;
  const std::vector<int64_t>& depths_;
  std::vector<int64_t>& reads_;
  std::vector<int64_t>& writes_;
};

}  // namespace

int64_t Activity::bin_length(int64_t b) const {
  return std::min(end, (b + 1) * bin_cycles) - b * bin_cycles;
}

Activity process_activity(const EventGraph& eg, const std::vector<int64_t>& depths, int64_t bins) {
  INRARCH_ASSERT(bins >= 1, "activity: at least one bin");
  const Design& d = eg.design();
  INRARCH_ASSERT(depths.size() == d.streams.size(), "activity: one depth per stream");
  const std::vector<int64_t> fired = eg.steps_done();
  Activity a;
  int64_t latency = 0;
  for (size_t s = 0; s < d.streams.size(); ++s) {
    if (!eg.write_times(s).empty()) latency = std::max<int64_t>(latency, eg.write_times(s).back());
    if (!eg.read_times(s).empty()) latency = std::max<int64_t>(latency, eg.read_times(s).back());
  }
  a.end = latency + 1;
  a.bin_cycles = (a.end + bins - 1) / bins;
  a.bins = (a.end + a.bin_cycles - 1) / a.bin_cycles;
  a.processes.resize(d.processes.size());
  std::vector<int64_t> reads(d.streams.size(), 0), writes(d.streams.size(), 0);
  ProcessWalk walk(eg, depths, reads, writes);
  for (size_t p = 0; p < d.processes.size(); ++p) {
    ProcessActivity& pa = a.processes[p];
    pa.busy_bins.assign(a.bins, 0);
    pa.read_bins.assign(a.bins, 0);
    pa.write_bins.assign(a.bins, 0);
    BinAdder adder(a, pa);
    walk.walk(static_cast<ProcessId>(p), fired[p], adder, a.end);
  }
  return a;
}

std::vector<int64_t> occupancy_bins(const EventGraph& eg, StreamId s, const Activity& a) {
  const std::span<const uint32_t> w = eg.write_times(s), r = eg.read_times(s);
  std::vector<int64_t> out(a.bins, 0);
  size_t wi = 0, before_bin = 0, before_write = 0;  // reads before the bin / the write
  for (int64_t b = 0; b < a.bins; ++b) {
    const int64_t lo = b * a.bin_cycles, hi = lo + a.bin_length(b);
    while (before_bin < r.size() && r[before_bin] < lo) ++before_bin;
    int64_t best = int64_t(wi) - int64_t(before_bin);  // beats left from earlier bins
    for (; wi < w.size() && w[wi] < hi; ++wi) {
      while (before_write < r.size() && r[before_write] < w[wi]) ++before_write;
      best = std::max(best, int64_t(wi + 1) - int64_t(before_write));
    }
    out[b] = std::max<int64_t>(best, 0);
  }
  return out;
}

}  // namespace inrarch::dataflow
