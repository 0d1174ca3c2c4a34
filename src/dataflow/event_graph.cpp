// Event graph resolution: see event_graph.h for the model. The sweep keeps, per stream, the
// count of writes and reads resolved so far and their times; a read #n is resolvable once
// write #n is, a write #n once read #(n-d) is. A process runs until a step is not yet
// resolvable and then waits on that stream; the other end of the stream wakes it when it
// resolves an op there. Each step is visited once per resolve (plus one failed attempt per
// wait), so a resolve is linear in the size of the trace.
#include "dataflow/event_graph.h"

#include <algorithm>

#include "support/error.h"

namespace inrarch::dataflow {

EventGraph::EventGraph(const Design& d) : EventGraph(d, schedule_all(d)) {}

EventGraph::EventGraph(const Design& d, std::vector<Program> programs)
    : design_(d), programs_(std::move(programs)) {
  check_programs(design_, programs_);
  build();
}

void EventGraph::build() {
  size_t P = design_.processes.size(), S = design_.streams.size();
  procs_.resize(P);
  for (size_t p = 0; p < P; ++p) {
    procs_[p].run_begin = static_cast<uint32_t>(runs_.size());
    for (Run r : programs_[p].runs) {
      r.op_begin += static_cast<uint32_t>(ops_.size());
      runs_.push_back(r);
      events_ += r.count;
      fifo_ops_ += int64_t(r.count) * r.op_count;
    }
    ops_.insert(ops_.end(), programs_[p].ops.begin(), programs_[p].ops.end());
    procs_[p].run_end = static_cast<uint32_t>(runs_.size());
  }
  uint64_t base = 0;
  streams_.resize(S);
  for (size_t s = 0; s < S; ++s) {
    const Stream& st = design_.streams[s];
    INRARCH_ASSERT(st.beats() <= UINT32_MAX, "stream too long: " + st.name);
    streams_[s] = {st.producer, st.consumer, base, static_cast<uint32_t>(st.beats())};
    base += st.beats();
  }
  wtime_.assign(base, 0);
  rtime_.assign(base, 0);
  nw_.assign(S, 0);
  nr_.assign(S, 0);
  depth_.assign(S, kUnbounded);
  raw_.assign(S, raw_delay(kUnbounded));
  run_.assign(P, 0);
  left_.assign(P, 0);
  last_.assign(P, 0);
  done_.assign(P, 0);
  wait_.assign(P, -1);
}

// Fires steps of p while every op's predecessor is resolved; false when aborted.
bool EventGraph::advance(ProcessId p, int64_t abort_above) {
  uint32_t run = run_[p], left = left_[p], end = procs_[p].run_end;
  uint64_t last = last_[p];
  int64_t done = done_[p];
  bool ok = true;
  while (run < end) {
    const Run& r = runs_[run];
    const FifoOp* ops = ops_.data() + r.op_begin;
    for (; left > 0; --left) {
      uint64_t t = last + r.delay;
      for (uint32_t i = 0; i < r.op_count; ++i) {
        StreamId s = ops[i].stream;
        const StreamInfo& si = streams_[s];
        if (!ops[i].write) {
          uint32_t n = nr_[s];
          if (n >= nw_[s]) { wait_[p] = s; goto blocked; }
          t = std::max<uint64_t>(t, uint64_t(wtime_[si.base + n]) + raw_[s]);
        } else {
          int64_t m = int64_t(nw_[s]) - depth_[s];
          if (m >= 0) {
            if (m >= int64_t(nr_[s])) { wait_[p] = s; goto blocked; }
            t = std::max<uint64_t>(t, uint64_t(rtime_[si.base + m]) + 1);
          }
        }
      }
      if (t > uint64_t(abort_above)) { ok = false; goto blocked; }
      if (t > UINT32_MAX) throw Error("event graph: latency exceeds 2^32 cycles");
      for (uint32_t i = 0; i < r.op_count; ++i) {
        StreamId s = ops[i].stream;
        const StreamInfo& si = streams_[s];
        ProcessId other;
        if (!ops[i].write) {
          rtime_[si.base + nr_[s]++] = static_cast<uint32_t>(t);
          other = si.producer;
        } else {
          wtime_[si.base + nw_[s]++] = static_cast<uint32_t>(t);
          other = si.consumer;
        }
        if (wait_[other] == s) {
          wait_[other] = -1;
          ready_.push_back(other);
        }
      }
      last = t;
      ++done;
    }
    if (++run < end) left = runs_[run].count;
  }
blocked:
  run_[p] = run;
  left_[p] = left;
  last_[p] = last;
  done_[p] = done;
  return ok;
}

Resolution EventGraph::resolve(const std::vector<int64_t>& depths, const ResolveOptions& opt) {
  size_t P = procs_.size(), S = streams_.size();
  INRARCH_ASSERT(depths.size() == S, "resolve: one depth per stream");
  for (size_t s = 0; s < S; ++s) {
    if (depths[s] < 1) throw Error("depth of " + design_.streams[s].name + " must be >= 1");
    depth_[s] = depths[s];
    raw_[s] = static_cast<uint8_t>(raw_delay(depths[s]));
    nw_[s] = nr_[s] = 0;
  }
  ready_.clear();
  for (size_t p = P; p-- > 0;) {
    run_[p] = procs_[p].run_begin;
    left_[p] = run_[p] < procs_[p].run_end ? runs_[run_[p]].count : 0;
    last_[p] = 0;
    done_[p] = 0;
    wait_[p] = -1;
    ready_.push_back(static_cast<ProcessId>(p));
  }
  aborted_ = false;
  while (!ready_.empty()) {
    ProcessId p = ready_.back();
    ready_.pop_back();
    if (!advance(p, opt.abort_above)) {
      Resolution r;
      r.aborted = true;
      r.latency = opt.abort_above + 1;
      aborted_ = true;
      return r;
    }
  }
  Resolution r;
  for (size_t p = 0; p < P; ++p) {
    r.latency = std::max<int64_t>(r.latency, static_cast<int64_t>(last_[p]));
    if (run_[p] < procs_[p].run_end) r.deadlock = true;
  }
  if (!r.deadlock) return r;
  Resolution d = deadlock_report();
  d.latency = r.latency;
  return d;
}

Resolution EventGraph::deadlock_report() const {
  // Every unfinished process waits on a stream whose other end is unfinished too (it would
  // have resolved the op otherwise), so following the waits must revisit a process.
  size_t P = procs_.size();
  ProcessId start = -1;
  for (size_t p = 0; p < P && start < 0; ++p)
    if (run_[p] < procs_[p].run_end) start = static_cast<ProcessId>(p);
  std::vector<int> seen(P, -1);
  std::vector<ProcessId> path;
  ProcessId p = start;
  while (seen[p] < 0) {
    seen[p] = static_cast<int>(path.size());
    path.push_back(p);
    StreamId s = wait_[p];
    INRARCH_ASSERT(s >= 0, "deadlocked process not waiting: " + design_.processes[p].name);
    p = design_.streams[s].producer == p ? design_.streams[s].consumer : design_.streams[s].producer;
  }
  Resolution r;
  r.deadlock = true;
  for (size_t i = seen[p]; i < path.size(); ++i) {
    ProcessId q = path[i];
    StreamId s = wait_[q];
    bool write = design_.streams[s].producer == q;
    BlockedOp b{q, done_[q], s, write, write ? int64_t(nw_[s]) : int64_t(nr_[s]), int64_t(nr_[s]), depth_[s]};
    r.cycle.push_back(b);
    if (write) r.deepen.push_back({s, b.beat - b.reads_done + 1});
  }
  return r;
}

std::span<const uint32_t> EventGraph::write_times(StreamId s) const {
  return {wtime_.data() + streams_[s].base, nw_[s]};
}
std::span<const uint32_t> EventGraph::read_times(StreamId s) const {
  return {rtime_.data() + streams_[s].base, nr_[s]};
}

int64_t observed_depth(std::span<const uint32_t> writes, std::span<const uint32_t> reads) {
  int64_t best = 0;
  size_t j = 0;
  for (size_t n = 0; n < writes.size(); ++n) {
    while (j < reads.size() && reads[j] < writes[n]) ++j;
    best = std::max<int64_t>(best, int64_t(n + 1) - int64_t(j));
  }
  return best;
}

int64_t EventGraph::observed_depth(StreamId s) const {
  return dataflow::observed_depth(write_times(s), read_times(s));
}

std::vector<int64_t> EventGraph::observed_depths() const {
  std::vector<int64_t> out(streams_.size());
  for (size_t s = 0; s < streams_.size(); ++s) out[s] = observed_depth(static_cast<StreamId>(s));
  return out;
}

std::vector<int64_t> EventGraph::steps_done() const { return done_; }

TimeSnapshot EventGraph::alap_snapshot(const EventGraph& mirror, int64_t bound) const {
  TimeSnapshot t{std::vector<uint32_t>(wtime_.size()), std::vector<uint32_t>(rtime_.size())};
  for (size_t s = 0; s < streams_.size(); ++s) {
    const StreamInfo& si = streams_[s];
    INRARCH_ASSERT(mirror.streams_[s].base == si.base && mirror.nr_[s] == si.beats &&
                       mirror.nw_[s] == si.beats, "alap_snapshot: mirror not fully resolved");
    for (uint32_t n = 0; n < si.beats; ++n) {
      uint64_t back = si.base + si.beats - 1 - n;
      // An original write is the mirror's read of the same beat, and vice versa.
      int64_t lw = bound + 1 - int64_t(mirror.rtime_[back]);
      int64_t lr = bound + 1 - int64_t(mirror.wtime_[back]);
      INRARCH_ASSERT(lw >= 0 && lr >= 0, "alap_snapshot: bound below latency");
      t.w[si.base + n] = static_cast<uint32_t>(lw);
      t.r[si.base + n] = static_cast<uint32_t>(lr);
    }
  }
  return t;
}

int64_t EventGraph::observed_depth(const TimeSnapshot& t, StreamId s) const {
  const StreamInfo& si = streams_[s];
  return dataflow::observed_depth({t.w.data() + si.base, si.beats}, {t.r.data() + si.base, si.beats});
}

}  // namespace inrarch::dataflow
