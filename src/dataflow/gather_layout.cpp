// gather_layout (gather_layout.h): the gather's address space, each streamed input's ring and
// each written element's place, walked over the kernel's schedule as inrarch_gather runs it.
#include "dataflow/gather_layout.h"

#include <fmt/format.h>

#include <algorithm>
#include <bit>
#include <map>
#include <numeric>
#include <set>

#include "dataflow/schedule.h"
#include "support/error.h"

namespace inrarch::dataflow {

namespace {

void place_operands(const Process& p, GatherLayout& g) {
  g.operand_base.assign(p.operands.size(), 0);
  for (size_t k = 0; k < p.operands.size(); ++k)
    if (p.operands[k].stream >= 0) g.operand_base[k] = g.streamed_words, g.streamed_words += numel(p.operands[k].shape);
  for (size_t k = 0; k < p.operands.size(); ++k) {
    const auto& od = p.operands[k];
    if (od.stream >= 0) continue;
    g.operand_base[k] = g.streamed_words + g.const_words;
    g.const_words += od.splat ? 1 : numel(od.shape);
  }
}

void place_inputs(const Design& d, const Process& p, GatherLayout& g) {
  for (size_t k = 0; k < p.operands.size(); ++k) {
    const auto& od = p.operands[k];
    if (od.stream < 0) continue;
    g.block.push_back(d.streams[od.stream].block);
    g.elems.push_back(numel(od.shape));
    g.base.push_back(g.operand_base[k]);
    g.word.push_back(g.in_words);
    g.in_words += g.block.back();
  }
}

// One step: the beat it writes, if any, then the input beats it reads.
void step_once(const Process& p, const Stream& out, const std::vector<bool>& reads, bool writes, int64_t& o,
               std::vector<int64_t>& at, GatherLayout& g, std::vector<std::vector<int64_t>>& delivered) {
  if (writes) {
    std::vector<GatherLocated> beat;
    for (int64_t e = 0; e < out.block; ++e, ++o) {
      const GatherNeed n = gather_need(p, out.shape, o);
      GatherLocated l{false, 0, g.operand_base[size_t(n.slot)] + (p.operands[size_t(n.slot)].splat ? 0 : n.elem)};
      for (size_t k = 0; k < reads.size(); ++k)
        if (reads[k] && l.addr >= at[k] && l.addr < at[k] + g.block[k]) l.fresh = true, l.q = g.word[k] + l.addr - at[k];
      beat.push_back(l);
    }
    std::vector<int64_t> got(g.block.size());
    for (size_t k = 0; k < g.block.size(); ++k) got[k] = (at[k] - g.base[k]) / g.block[k];
    g.beats.push_back(std::move(beat));
    delivered.push_back(std::move(got));
  }
  for (size_t k = 0; k < reads.size(); ++k)
    if (reads[k]) at[k] += g.block[k];
}

// Walks the schedule's steps as the module does, up to max_writes written beats: each
// written beat with where each element is, and each input's beats delivered before the step
// that writes it.
void walk_written(const Design& d, ProcessId pid, int64_t max_writes, GatherLayout& g,
                  std::vector<std::vector<int64_t>>& delivered) {
  const Process& p = d.processes[pid];
  const auto& out = d.streams[p.outputs.at(0)];
  std::vector<int64_t> at = g.base;  // per input: the address of its next beat's first element
  int64_t o = 0;
  const Program prog = max_writes == INT64_MAX ? schedule(d, pid) : schedule_gather_prefix(d, pid, max_writes);
  for (const Run& run : prog.runs) {
    std::vector<bool> reads(p.inputs.size(), false);
    bool writes = false;
    for (uint32_t i = run.op_begin; i < run.op_begin + run.op_count; ++i) {
      const FifoOp& op = prog.ops[i];
      writes = writes || op.write;
      for (size_t k = 0; k < p.inputs.size(); ++k) reads[k] = reads[k] || (!op.write && op.stream == p.inputs[k]);
    }
    uint64_t line = uint64_t(writes) << p.inputs.size();
    for (size_t k = 0; k < p.inputs.size(); ++k) line |= uint64_t(reads[k]) << k;
    for (uint32_t n = 0; n < run.count; ++n) {
      if (writes && int64_t(g.beats.size()) >= max_writes) return;
      g.steps.push_back(line);
      step_once(p, out, reads, writes, o, at, g, delivered);
    }
  }
}

// Each input's ring: an element of beat b read from the buffer when d beats of its input have
// arrived needs d - b beats kept (beats b … d - 1; this step's beat is written as the step
// fires, after its read), so the ring is the least power of two that covers every such read,
// or the whole input. A re-blocking gather (3 elements a beat into 1, or 8 into 24) keeps a
// beat or two, where the whole input grows with the batch.
void size_rings(GatherLayout& g, const std::vector<std::vector<int64_t>>& delivered) {
  std::vector<int64_t> need(g.block.size(), 0);
  for (size_t b = 0; b < g.beats.size(); ++b)
    for (const GatherLocated& l : g.beats[b]) {
      const int k = l.fresh ? -1 : g.input_at(l.addr);
      if (k >= 0) need[size_t(k)] = std::max(need[size_t(k)], delivered[b][size_t(k)] - (l.addr - g.base[size_t(k)]) / g.block[size_t(k)]);
    }
  for (size_t k = 0; k < g.block.size(); ++k) {
    const int64_t beats = g.elems[k] / g.block[k];
    g.ring.push_back(need[k] == 0 ? 0 : std::min<int64_t>(int64_t(std::bit_ceil(uint64_t(need[k]))), beats));
    g.ring_base.push_back(g.buffer);
    g.buffer += g.ring_words(k);
  }
}

// Each position's candidates: the words it is taken from, in the order first taken.
void list_candidates(GatherLayout& g, size_t positions) {
  g.candidates.assign(positions, {});
  std::vector<std::set<int64_t>> seen(positions);
  for (const auto& beat : g.beats)
    for (size_t e = 0; e < positions; ++e) {
      const int64_t cand = g.candidate(beat[e]);
      if (seen[e].insert(cand).second) g.candidates[e].push_back(cand);
    }
}

}  // namespace

int GatherLayout::input_at(int64_t addr) const {
  for (size_t k = 0; k < base.size(); ++k)
    if (addr >= base[k] && addr < base[k] + elems[k]) return int(k);
  return -1;
}

int64_t GatherLayout::candidate(const GatherLocated& l) const {
  if (l.fresh) return kGatherFreshCandidate | l.q;
  const int k = input_at(l.addr);
  if (k < 0) return kGatherConstCandidate | (l.addr - streamed_words);
  const size_t i = size_t(k);
  const int64_t n = l.addr - base[i];
  return ring_base[i] + n / block[i] % ring[i] * block[i] + n % block[i];
}

namespace {
int bits_for(int64_t n) { return n > 1 ? std::bit_width(uint64_t(n - 1)) : 1; }  // an index below n
}  // namespace

int GatherLayout::pick_bits() const { return bits_for(picks()); }

std::vector<std::vector<uint64_t>> GatherLayout::entries() const {
  std::vector<std::map<int64_t, uint64_t>> pick_of(candidates.size());  // per position: candidate -> its index
  for (size_t e = 0; e < candidates.size(); ++e)
    for (size_t j = 0; j < candidates[e].size(); ++j) pick_of[e][candidates[e][j]] = j;
  std::vector<std::vector<uint64_t>> lines;
  for (const auto& beat : beats) {
    std::vector<uint64_t> line;
    for (size_t e = 0; e < beat.size(); ++e) line.push_back(pick_of[e].at(candidate(beat[e])));
    lines.push_back(std::move(line));
  }
  return lines;
}

std::vector<int64_t> GatherLayout::sources() const {
  std::vector<int64_t> widths;
  for (const auto& c : candidates) widths.push_back(int64_t(c.size()));
  return widths;
}

int64_t GatherLayout::picks() const {
  size_t most = 1;
  for (const auto& c : candidates) most = std::max(most, c.size());
  return int64_t(most);
}

bool GatherLayout::held() const {
  for (const auto& c : candidates)
    for (int64_t x : c)
      if (!(x & (kGatherConstCandidate | kGatherFreshCandidate))) return true;
  return false;
}

GatherLayout gather_layout(const Design& d, ProcessId pid, int64_t max_writes) {
  const Process& p = d.processes.at(size_t(pid));
  if (!is_gather(p.kind) || p.kind == Kind::SumMap || is_pass_through(d, p))
    throw Error(fmt::format("gather_layout: process {} is not a gather kernel", p.name));
  GatherLayout g;
  place_operands(p, g);
  place_inputs(d, p, g);
  std::vector<std::vector<int64_t>> delivered;
  walk_written(d, pid, max_writes, g, delivered);
  size_rings(g, delivered);
  list_candidates(g, size_t(d.streams[p.outputs.at(0)].block));
  return g;
}

int64_t gather_model_beats(const Design& d, ProcessId pid) {
  const Stream& os = d.streams[d.processes.at(size_t(pid)).outputs.at(0)];
  const int64_t n = numel(os.shape);
  const int64_t row = os.shape.size() > 1 ? n / std::max<int64_t>(1, os.shape[0]) : n;
  const int64_t upto = std::min({n, 2 * std::lcm(std::max<int64_t>(1, row), os.block), int64_t{1} << 16});
  return (upto + os.block - 1) / os.block;
}

std::vector<int64_t> gather_sources(const Design& d, ProcessId pid) {
  return gather_layout(d, pid, gather_model_beats(d, pid)).sources();
}

}  // namespace inrarch::dataflow
