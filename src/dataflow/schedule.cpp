// Step sequences of the streaming kernels; the model of each is in schedule.h. Every
// function emits runs directly (never one step per beat) so that programs stay small.
#include "dataflow/schedule.h"

#include <algorithm>

#include <fmt/format.h>

#include "dataflow/elementwise.h"
#include "support/error.h"

namespace inrarch::dataflow {

int64_t Program::steps() const {
  int64_t n = 0;
  for (const auto& r : runs) n += r.count;
  return n;
}

int64_t Program::fifo_ops() const {
  int64_t n = 0;
  for (const auto& r : runs) n += int64_t(r.count) * r.op_count;
  return n;
}

void ProgramBuilder::steps(int64_t count, int64_t delay, std::span<const FifoOp> ops) {
  if (count <= 0) return;
  INRARCH_ASSERT(delay >= 1 && delay <= UINT32_MAX, "step delay must be >= 1");
  INRARCH_ASSERT(!ops.empty(), "a step needs at least one FIFO op");
  if (!p_.runs.empty()) {
    Run& last = p_.runs.back();
    bool same = last.delay == delay && last.op_count == ops.size() &&
                std::equal(ops.begin(), ops.end(), p_.ops.begin() + last.op_begin);
    if (same && int64_t(last.count) + count <= UINT32_MAX) {
      last.count += static_cast<uint32_t>(count);
      return;
    }
  }
  while (count > 0) {
    auto c = static_cast<uint32_t>(std::min<int64_t>(count, UINT32_MAX));
    p_.runs.push_back(Run{c, static_cast<uint32_t>(delay), static_cast<uint32_t>(p_.ops.size()),
                          static_cast<uint32_t>(ops.size())});
    p_.ops.insert(p_.ops.end(), ops.begin(), ops.end());
    count -= c;
  }
}

namespace {

FifoOp rd(StreamId s) { return {s, false}; }
FifoOp wr(StreamId s) { return {s, true}; }

// Step i reads beat i of every input and writes beat i-L of the output, L the kernel's
// pipeline depth in steps (elementwise_steps), a step every C = ew_fold cycles (the first
// one cycle after the start). With fewer beats than L, the steps between the last read and
// the first write hold no FIFO op: the first write's delay spans them.
Program elementwise(const Design& d, const Process& p) {
  StreamId out = p.outputs.at(0);
  const int64_t n = d.streams[out].beats(), L = elementwise_steps(d, p), C = p.ew_fold;
  std::vector<FifoOp> reads;
  for (StreamId s : p.inputs) reads.push_back(rd(s));
  std::vector<FifoOp> both = reads;
  both.push_back(wr(out));
  ProgramBuilder b;
  if (n == 0) return b.take();
  int64_t fill = std::min(L, n);
  b.steps(1, 1, reads);
  b.steps(fill - 1, C, reads);
  b.steps(n - fill, C, both);
  b.steps(1, (L - fill + 1) * C, {wr(out)});
  b.steps(fill - 1, C, {wr(out)});
  return b.take();
}

Program full_buffer(const Design& d, const Process& p) {
  ProgramBuilder b;
  b.steps(d.streams[p.inputs.at(0)].beats(), 1, {rd(p.inputs[0])});
  b.steps(d.streams[p.outputs.at(0)].beats(), 1, {wr(p.outputs[0])});
  return b.take();
}

Program copy(const Design& d, const Process& p) {
  std::vector<FifoOp> ops{rd(p.inputs.at(0))};
  for (StreamId s : p.outputs) ops.push_back(wr(s));
  ProgramBuilder b;
  b.steps(d.streams[p.inputs[0]].beats(), 1, ops);
  return b.take();
}

Program custom(const Process& p) {
  ProgramBuilder b;
  for (const auto& s : p.custom_steps) b.step(s.delay, s.ops);
  return b.take();
}

}  // namespace

Program schedule(const Design& d, ProcessId pid) {
  const Process& p = d.processes.at(pid);
  ProgramBuilder b;
  switch (p.kind) {
    case Kind::Source:
      b.steps(d.streams[p.outputs.at(0)].beats(), 1, {wr(p.outputs[0])});
      return b.take();
    case Kind::Sink:
      b.steps(d.streams[p.inputs.at(0)].beats(), 1, {rd(p.inputs[0])});
      return b.take();
    case Kind::Copy: return copy(d, p);
    case Kind::Unary:
    case Kind::Binary: return elementwise(d, p);
    case Kind::Mm: return schedule_mm(d, p);
    case Kind::MmReduce: return schedule_mm_reduce(d, p);
    case Kind::Transpose:
    case Kind::Permute: return full_buffer(d, p);
    case Kind::IdentityMap: case Kind::ExpandMap: case Kind::SelectMap: case Kind::SliceMap: case Kind::CatMap:
    case Kind::SumMap: return schedule_gather(d, pid);
    case Kind::Custom: return custom(p);
  }
  throw Error("schedule: unknown kernel kind of " + p.name);
}

std::vector<Program> schedule_all(const Design& d) {
  std::vector<Program> progs;
  progs.reserve(d.processes.size());
  for (size_t i = 0; i < d.processes.size(); ++i)
    progs.push_back(schedule(d, static_cast<ProcessId>(i)));
  check_programs(d, progs);
  return progs;
}

std::vector<Step> expand(const Program& prog) {
  std::vector<Step> out;
  for (const auto& r : prog.runs)
    for (uint32_t k = 0; k < r.count; ++k)
      out.push_back(Step{r.delay, {prog.ops.begin() + r.op_begin,
                                   prog.ops.begin() + r.op_begin + r.op_count}});
  return out;
}

int64_t kernel_buffer_bits(const Design& d, ProcessId pid) {
  const Process& p = d.processes.at(pid);
  int64_t bits = d.options.elem_bits;
  switch (p.kind) {
    case Kind::Mm: {
      int64_t elems = 0;
      if (p.operands.at(1).stream >= 0) elems += numel(d.streams[p.operands[1].stream].shape);
      if (p.operands.at(0).stream >= 0) elems += 2 * d.streams[p.operands[0].stream].shape.at(1);
      return elems * bits;
    }
    case Kind::MmReduce: {  // two rows of each operand, K*N accumulators of twice the width
      const int64_t K = p.operands.at(0).shape.at(1), N = p.operands.at(1).shape.at(1);
      return 2 * (K + N) * bits + K * N * kMmReduceAccBits * bits;
    }
    case Kind::Transpose:
    case Kind::Permute: return numel(d.streams[p.inputs.at(0)].shape) * bits;
    case Kind::IdentityMap: case Kind::ExpandMap: case Kind::SelectMap: case Kind::SliceMap: case Kind::CatMap:
    case Kind::SumMap: return gather_buffer_elems(d, pid) * bits;
    case Kind::Source: case Kind::Sink: case Kind::Copy: case Kind::Unary: case Kind::Binary:
    case Kind::Custom: return 0;  // registers only (a constant operand is a ROM: rom_bits)
  }
  return 0;
}

void check_programs(const Design& d, const std::vector<Program>& progs) {
  std::vector<int64_t> writes(d.streams.size()), reads(d.streams.size());
  for (size_t pi = 0; pi < progs.size(); ++pi) {
    const auto& name = d.processes[pi].name;
    for (const auto& r : progs[pi].runs) {
      for (uint32_t i = 0; i < r.op_count; ++i) {
        const FifoOp& op = progs[pi].ops[r.op_begin + i];
        const Stream& s = d.streams.at(op.stream);
        auto pid = static_cast<ProcessId>(pi);
        if ((op.write ? s.producer : s.consumer) != pid)
          throw Error("schedule of " + name + " " + (op.write ? "writes" : "reads") +
                      " stream " + s.name + " it is not the " +
                      (op.write ? "producer" : "consumer") + " of");
        for (uint32_t j = 0; j < i; ++j)
          if (progs[pi].ops[r.op_begin + j].stream == op.stream)
            throw Error("schedule of " + name + " touches " + s.name + " twice in one step");
        (op.write ? writes : reads)[op.stream] += r.count;
      }
    }
  }
  for (size_t s = 0; s < d.streams.size(); ++s)
    if (writes[s] != d.streams[s].beats() || reads[s] != d.streams[s].beats())
      throw Error("stream " + d.streams[s].name + " has " + std::to_string(d.streams[s].beats()) +
                  " beats but is written " + std::to_string(writes[s]) + " and read " +
                  std::to_string(reads[s]) + " times");
}

}  // namespace inrarch::dataflow
