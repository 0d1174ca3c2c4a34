// The mm kernel's steps (schedule.h, docs/dataflow.md §2): the MAC cycles of today's cadence
// in time, each beat written mm_depth cycles after the MAC cycle that takes its last product.
#include <algorithm>
#include <deque>
#include <vector>

#include <fmt/format.h>

#include "dataflow/schedule.h"
#include "support/error.h"

namespace inrarch::dataflow {

namespace {

FifoOp rd(StreamId s) { return {s, false}; }
FifoOp wr(StreamId s) { return {s, true}; }

// The kernel's cycles on an absolute clock (cycle 0: the start), turned into steps: reads
// fire at their cycle, a beat's write `depth` cycles after its MAC cycle, merged into the step
// of that cycle when there is one (the write first, as the kernel performs it).
class Timeline {
 public:
  Timeline(StreamId out, int64_t depth) : out_(out), depth_(depth) {}

  // `count` read steps at cycles first, first+1, ...
  void reads(int64_t first, int64_t count, FifoOp op) {
    for (; count > 0 && !due_.empty(); --count) at(first++, std::span<const FifoOp>(&op, 1));
    if (count <= 0) return;
    b_.step(first - now_, std::span<const FifoOp>(&op, 1));
    b_.steps(count - 1, 1, std::span<const FifoOp>(&op, 1));
    now_ = first + count - 1;
  }
  // A read step at cycle t (after every step emitted so far).
  void read(int64_t t, FifoOp op) { at(t, std::span<const FifoOp>(&op, 1)); }
  // The MAC cycle that takes a beat's last product, with the read it performs (if any).
  void mac(int64_t t, const FifoOp* read) {
    due_.push_back(t + depth_);
    if (read) at(t, std::span<const FifoOp>(read, 1));
    else if (depth_ == 0) at(t, {});
  }
  Program finish() {
    flush_before(INT64_MAX);
    return b_.take();
  }

 private:
  void emit(int64_t t, std::span<const FifoOp> ops) {
    b_.step(t - now_, ops);
    now_ = t;
  }
  void flush_before(int64_t t) {
    const FifoOp w[] = {wr(out_)};
    while (!due_.empty() && due_.front() < t) {
      emit(due_.front(), w);
      due_.pop_front();
    }
  }
  void at(int64_t t, std::span<const FifoOp> ops) {
    flush_before(t);
    std::vector<FifoOp> step;
    if (!due_.empty() && due_.front() == t) {
      step.push_back(wr(out_));
      due_.pop_front();
    }
    step.insert(step.end(), ops.begin(), ops.end());
    if (!step.empty()) emit(t, step);
  }

  StreamId out_;
  int64_t depth_, now_ = 0;
  std::deque<int64_t> due_;  // write cycles, ascending (at most depth + 1 pending)
  ProgramBuilder b_;
};

}  // namespace

Program schedule_mm(const Design& d, const Process& p) {
  const auto& a = p.operands.at(0);
  const auto& bop = p.operands.at(1);
  StreamId out = p.outputs.at(0);
  const Stream& c = d.streams[out];
  const int64_t M = c.shape.at(0), N = c.shape.at(1), bc = c.block;
  int64_t K = 0;
  if (bop.stream >= 0) K = d.streams[bop.stream].shape.at(0);
  if (a.stream >= 0) K = d.streams[a.stream].shape.at(1);
  INRARCH_ASSERT(K > 0, "mm " + p.name + " has no streamed operand");
  if (p.mm_lanes < 1 || p.mm_lanes > bc * K)
    throw Error(fmt::format("schedule: mm {} has {} lanes, outside 1 to bC*K = {} (set_mm_par keeps them there)",
                            p.name, p.mm_lanes, bc * K));
  if (p.mm_depth < 0)
    throw Error(fmt::format("schedule: mm {} has pipeline depth {} (set_mm_par sets it)", p.name, p.mm_depth));
  const MmCadence cad{bc * K, p.mm_lanes};
  const int64_t writes = N / bc;
  Timeline tl(out, p.mm_depth);
  int64_t t = 0;  // the cycle of the last step before the next phase
  if (bop.stream >= 0) {
    const int64_t n = d.streams[bop.stream].beats();
    tl.reads(t + 1, n, rd(bop.stream));
    t += n;
  }
  const int64_t reads = a.stream >= 0 ? K / d.streams[a.stream].block : 0;
  if (a.stream >= 0) {
    tl.reads(t + 1, reads, rd(a.stream));
    t += reads;
  }
  // Row i's MAC cycles are t+1 .. t+done(writes). With A streamed they read row i+1 (double
  // buffer), spread evenly: S = min(reads, row_cycles) of its beats, beat r in the row's MAC
  // cycle ceil((r+1) * row_cycles / S), so the row asks A at the pace it uses it; the rest of
  // row i+1 (reads - S beats) follows at II=1.
  const FifoOp next = a.stream >= 0 ? rd(a.stream) : FifoOp{};
  const int64_t row_cycles = cad.done(writes);
  for (int64_t i = 0; i < M; ++i) {
    const int64_t spread = a.stream >= 0 && i + 1 < M ? std::min(reads, row_cycles) : 0;
    auto read_cycle = [&](int64_t r) { return ((r + 1) * row_cycles + spread - 1) / spread; };
    int64_t r = 0;  // the next beat of row i+1
    for (int64_t j = 0; j < writes; ++j) {
      const int64_t mac = cad.done(j + 1);  // its cycle in the row, from 1
      for (; r < spread && read_cycle(r) < mac; ++r) tl.read(t + read_cycle(r), next);
      const bool reads_too = r < spread && read_cycle(r) == mac;
      r += reads_too;
      tl.mac(t + mac, reads_too ? &next : nullptr);
    }
    t += row_cycles;
    if (a.stream >= 0 && i + 1 < M) {
      tl.reads(t + 1, reads - spread, next);
      t += reads - spread;
    }
  }
  return tl.finish();
}

}  // namespace inrarch::dataflow
