// Cycle-stepped simulation. Within a cycle, processes are tried in index order and fire
// immediately; that is order-independent because nothing done at cycle t enables anything
// else at cycle t: a written beat becomes readable raw >= 1 cycles later, and a read frees
// its slot only at the next cycle (counted in `freed` until then).
#include "dataflow/simulate.h"

#include <algorithm>
#include <deque>

#include "support/error.h"

namespace inrarch::dataflow {

namespace {

constexpr uint64_t kNever = UINT64_MAX;

struct Fifo {
  std::deque<uint64_t> beats;  // write cycle of each beat in the FIFO, oldest first
  uint64_t freed_cycle = kNever;
  int64_t freed = 0;           // beats read at freed_cycle (their slots are still taken)
  int64_t depth = 2;
  uint64_t raw = 1;
  int64_t occupied(uint64_t t) const {
    return static_cast<int64_t>(beats.size()) + (freed_cycle == t ? freed : 0);
  }
};

struct Proc {
  size_t run = 0;
  uint32_t k = 0;       // steps of the current run already fired
  uint64_t ready = 0;   // earliest cycle of the next step (previous + delay)
  int64_t done = 0;
};

struct Sim {
  const std::vector<Program>& progs;
  std::vector<Fifo> fifos;
  std::vector<Proc> procs;
  SimResult res;

  bool finished(size_t p) const { return procs[p].run >= progs[p].runs.size(); }
  const Run& run_of(size_t p) const { return progs[p].runs[procs[p].run]; }

  // The earliest cycle >= t at which p's next step could fire with the FIFOs as they are.
  uint64_t earliest(size_t p, uint64_t t) const {
    const Run& r = run_of(p);
    uint64_t at = std::max(t, procs[p].ready);
    for (uint32_t i = 0; i < r.op_count; ++i) {
      const FifoOp& op = progs[p].ops[r.op_begin + i];
      const Fifo& f = fifos[op.stream];
      if (op.write) {
        if (f.occupied(t) >= f.depth) {
          if (f.freed_cycle != t || int64_t(f.beats.size()) >= f.depth) return kNever;
          at = std::max(at, t + 1);
        }
      } else {
        if (f.beats.empty()) return kNever;
        at = std::max(at, f.beats.front() + f.raw);
      }
    }
    return at;
  }

  void fire(size_t p, uint64_t t) {
    const Run& r = run_of(p);
    for (uint32_t i = 0; i < r.op_count; ++i) {
      const FifoOp& op = progs[p].ops[r.op_begin + i];
      Fifo& f = fifos[op.stream];
      if (op.write) {
        f.beats.push_back(t);
        res.observed[op.stream] = std::max(res.observed[op.stream], f.occupied(t));
      } else {
        f.beats.pop_front();
        if (f.freed_cycle != t) f.freed_cycle = t, f.freed = 0;
        ++f.freed;
      }
    }
    Proc& pr = procs[p];
    ++pr.done;
    res.latency = std::max<int64_t>(res.latency, static_cast<int64_t>(t));
    if (++pr.k == r.count) pr.k = 0, ++pr.run;
    if (!finished(p)) pr.ready = t + run_of(p).delay;
  }
};

}  // namespace

SimResult simulate(const Design& d, const std::vector<Program>& programs,
                   const std::vector<int64_t>& depths, int64_t max_cycles) {
  INRARCH_ASSERT(depths.size() == d.streams.size(), "simulate: one depth per stream");
  Sim sim{programs, std::vector<Fifo>(d.streams.size()), std::vector<Proc>(programs.size()), {}};
  sim.res.observed.assign(d.streams.size(), 0);
  for (size_t s = 0; s < d.streams.size(); ++s) {
    sim.fifos[s].depth = depths[s];
    sim.fifos[s].raw = raw_delay(depths[s]);
  }
  for (size_t p = 0; p < programs.size(); ++p)
    if (!sim.finished(p)) sim.procs[p].ready = sim.run_of(p).delay;
  uint64_t t = 1;
  while (true) {
    bool fired = false, all_done = true;
    for (size_t p = 0; p < programs.size(); ++p) {
      if (sim.finished(p)) continue;
      if (sim.earliest(p, t) == t) sim.fire(p, t), fired = true;
      all_done = all_done && sim.finished(p);
    }
    if (fired) ++sim.res.busy_cycles;
    if (all_done) break;
    uint64_t next = t + 1;
    if (!fired) {  // nothing changes until the earliest cycle some step becomes enabled
      next = kNever;
      for (size_t p = 0; p < programs.size(); ++p)
        if (!sim.finished(p)) next = std::min(next, sim.earliest(p, t + 1));
      if (next == kNever) {
        sim.res.deadlock = true;
        break;
      }
    }
    if (next > uint64_t(max_cycles)) {
      sim.res.timed_out = true;
      break;
    }
    t = next;
  }
  for (const auto& pr : sim.procs) sim.res.steps_done.push_back(pr.done);
  return std::move(sim.res);
}

}  // namespace inrarch::dataflow
