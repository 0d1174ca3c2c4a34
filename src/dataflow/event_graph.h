// The happens-before event graph of a design (docs/dataflow.md §3), built
// once from the kernel schedules and resolved for many depth vectors.
//
// Nodes are the steps of every process. Edges:
//   program order  step k-1 -> step k of a process, delay = step k's delay (>= 1);
//   RAW            write #n -> read #n of a stream, delay 1 if depth <= 2 else 2;
//   WAR            read #(n-d) -> write #n of a stream of depth d, delay 1.
// time(node) = max over incoming edges (pred time + delay), first steps from time 0;
// latency = the largest time; deadlock <=> a cycle.
//
// The graph is never materialized. Program order and RAW edges are implicit in the
// per-process programs (runs of steps) and per-stream counters; WAR edges are added
// implicitly by the stream's depth. resolve() is a Kahn-style sweep: each process advances
// as far as its in-edges allow (every predecessor resolved), blocked processes wait on one
// stream and are woken by the other end of that stream. When no process can advance and
// some have not finished, the waits form a cycle of the event graph: that is the deadlock.
// Cost: O(steps + FIFO ops) per resolve, one 32-bit time per FIFO op kept (the write and
// read time of every beat), from which observed depths follow.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "dataflow/design.h"
#include "dataflow/schedule.h"
#include "support/error.h"

namespace inrarch::dataflow {

// One process on a deadlock cycle and the FIFO op it is blocked on.
struct BlockedOp {
  ProcessId process;
  int64_t step;        // index of the blocked step in the process's program
  StreamId stream;
  bool write;          // write to a full FIFO (WAR edge) / read from an empty one (RAW)
  int64_t beat;        // the beat it tries to write or read
  int64_t reads_done;  // beats of the stream read so far
  int64_t depth;       // the stream's depth in this resolve
};

// Deepening a stream on the cycle to min_depth lets the blocked write fire (and so breaks
// this cycle; a later one may appear: see resolve_by_deepening).
struct Deepen {
  StreamId stream;
  int64_t min_depth;
};

struct Resolution {
  bool deadlock = false;
  bool aborted = false;          // stopped early: some time exceeded ResolveOptions::abort_above
  int64_t latency = 0;           // largest step time (deadlock: of the steps that fired)
  std::vector<BlockedOp> cycle;  // deadlock: the processes on one cycle, each waiting on the next
  std::vector<Deepen> deepen;    // deadlock: the WAR streams on that cycle
};

struct ResolveOptions {
  int64_t abort_above = INT64_MAX;  // give up once a step time exceeds this (a bound check)
};

// The write and read time of every beat of every stream: one feasible schedule (the
// resolved earliest times, or latest-start times from the mirrored graph). Any depth vector
// whose WAR edges a feasible schedule satisfies is deadlock-free with latency at most that
// schedule's largest time — the certificate fifo_sizing relies on.
struct TimeSnapshot {
  std::vector<uint32_t> w, r;
};

class EventGraph {
 public:
  explicit EventGraph(const Design& d);  // schedules every process
  EventGraph(const Design& d, std::vector<Program> programs);

  // Times of every step for the given depths (one per stream; kUnbounded allowed).
  Resolution resolve(const std::vector<int64_t>& depths, const ResolveOptions& opt = {});

  // From the last resolve: the time of write/read #n of a stream (n < beats done).
  std::span<const uint32_t> write_times(StreamId s) const;
  std::span<const uint32_t> read_times(StreamId s) const;
  // Observed depth: max over writes #n of (n + 1 - reads fired before it), i.e. the smallest
  // depth whose WAR edges the resolved times already satisfy (min 1; 0 for an empty stream).
  int64_t observed_depth(StreamId s) const;
  std::vector<int64_t> observed_depths() const;
  std::vector<int64_t> steps_done() const;  // per process, from the last resolve

  // The last (complete, deadlock-free) resolve's times.
  TimeSnapshot snapshot() const { return {wtime_, rtime_}; }
  // Same, without copying: exchanges the times with `t` (of the same size, e.g. an older
  // snapshot). This graph's times are garbage until the next resolve.
  void swap_snapshot(TimeSnapshot& t) {
    INRARCH_ASSERT(t.w.size() == wtime_.size() && t.r.size() == rtime_.size(), "snapshot size");
    wtime_.swap(t.w);
    rtime_.swap(t.r);
  }
  // Latest-start times for latency <= bound: bound + 1 - (times of `mirror`, resolved with
  // the same depths, read backwards). `mirror` must be this->mirrored().
  TimeSnapshot alap_snapshot(const EventGraph& mirror, int64_t bound) const;
  // Observed depth of a stream under a snapshot.
  int64_t observed_depth(const TimeSnapshot& t, StreamId s) const;

  int64_t events() const { return events_; }      // steps (event-graph nodes)
  int64_t fifo_ops() const { return fifo_ops_; }  // reads + writes
  const Design& design() const { return design_; }
  const std::vector<Program>& programs() const { return programs_; }

  // The reversed design (every edge reversed: programs run backwards, reads and writes
  // swap, producer and consumer swap). Its times are the longest paths to the end of the
  // original graph plus one: tail(v) = time'(v) - 1.
  EventGraph mirrored() const;

 private:
  struct Proc {
    uint32_t run_begin, run_end;
  };
  struct StreamInfo {
    ProcessId producer, consumer;
    uint64_t base;   // offset of this stream's beats in the time arrays
    uint32_t beats;
  };
  bool advance(ProcessId p, int64_t abort_above);
  Resolution deadlock_report() const;
  void build();

  Design design_;
  std::vector<Program> programs_;
  std::vector<Proc> procs_;
  std::vector<Run> runs_;     // all processes' runs, op_begin rebased into ops_
  std::vector<FifoOp> ops_;
  std::vector<StreamInfo> streams_;
  int64_t events_ = 0, fifo_ops_ = 0;

  // Resolve state.
  std::vector<uint32_t> wtime_, rtime_;
  std::vector<uint32_t> nw_, nr_;
  std::vector<int64_t> depth_;
  std::vector<uint8_t> raw_;
  std::vector<uint32_t> run_, left_;  // per process: current run, steps left in it
  std::vector<uint64_t> last_;        // per process: time of the last step fired
  std::vector<int64_t> done_;         // per process: steps fired
  std::vector<StreamId> wait_;        // per process: stream blocked on, -1 if none
  std::vector<ProcessId> ready_;
  bool aborted_ = false;
};

// Observed depth of one stream from its write and read times (both increasing).
int64_t observed_depth(std::span<const uint32_t> writes, std::span<const uint32_t> reads);

// Resolves, and while it deadlocks deepens the WAR streams on the reported cycle (to at
// least min_depth and at least double, so long chains of cycles need few rounds); returns
// the final resolution, `depths` updated. Gives up (deadlock returned) when a cycle has no
// WAR edge (no depth can fix it) or after max_rounds.
Resolution resolve_by_deepening(EventGraph& eg, std::vector<int64_t>& depths, int max_rounds = 200);

// Human-readable deadlock explanation ("in_x writes s_... #5 (full, 2 read) -> ...").
std::string explain_deadlock(const Design& d, const Resolution& r);

}  // namespace inrarch::dataflow
