// Gathers other than a pass-through (select, slice, cat, expand, reshape of any blocks, with
// constant operands or without) as inrarch_gather with its tables: each step's {write, read
// mask}, from the schedule; each written beat's entries (where each output element is when
// the beat is written: in the step's input beats, the buffer or the constants), from
// dataflow::gather_need and the schedule; and the constant operands' words.
#include <fmt/format.h>

#include <algorithm>
#include <bit>
#include <map>

#include "backend/rtl/rtl_detail.h"
#include "dataflow/kernels.h"
#include "dataflow/schedule.h"
#include "ir/interpreter.h"
#include "support/error.h"

namespace inrarch::rtl::detail {

using dataflow::Process;
using dataflow::ProcessId;

namespace {

// Where each operand's elements are in one address space: the streamed operands (the
// module's inputs, in operand order), then the constants, which the module holds in their
// own ROM, a splat as one word; the HLS gather keeps every operand in one buffer
// (movement.h gather_fill). The module's buffer holds a ring of each input's beats
// (Inputs).
struct Places {
  std::vector<int64_t> base;  // per operand
  int64_t buf = 0, consts = 0;
};

Places places(const Process& p) {
  Places pl;
  pl.base.assign(p.operands.size(), 0);
  for (size_t k = 0; k < p.operands.size(); ++k)
    if (p.operands[k].stream >= 0) pl.base[k] = pl.buf, pl.buf += numel(p.operands[k].shape);
  for (size_t k = 0; k < p.operands.size(); ++k) {
    const auto& od = p.operands[k];
    if (od.stream >= 0) continue;
    pl.base[k] = pl.buf + pl.consts;
    pl.consts += od.splat ? 1 : numel(od.shape);
  }
  return pl;
}

std::string const_file(const Process& p) { return p.name + "_const.hex"; }

int bits_for(int64_t n) { return n > 1 ? std::bit_width(uint64_t(n - 1)) : 1; }  // an index below n

// The streamed inputs as the module sees them, in input order: the elements a beat (BI), the
// operand's first address (base), the first of the step's input words (QAT), the elements
// (elems); and the buffer: each input's ring of whole beats (ring beats, a power of two, or
// every beat of the input; 0 where no element of it is read from the buffer), its first
// word (BASES) and its words (NE = ring · BI), BUF in all.
struct Inputs {
  std::vector<int64_t> block, base, word, elems, ring, ring_base;
  int64_t words = 0;  // IN_WORDS
  int64_t buf = 0;    // BUF

  int64_t ring_words(size_t k) const { return ring[k] * block[k]; }
  // The buffer word of input k's element n: its beat's slot in the ring.
  int64_t buffer_word(size_t k, int64_t n) const {
    return ring_base[k] + (n / block[k]) % ring[k] * block[k] + n % block[k];
  }
};

// An element of a written beat as the module finds it: in the step's input beats (fresh, word
// q), or at `addr` of the operands' space (Places), read from the buffer or the constants.
struct Located {
  bool fresh = false;
  int64_t q = 0, addr = 0;
};

// Walks the schedule's steps as the module does, calling on_beat(elements, beats) for each
// written beat with where each element is and how many beats each input had delivered before
// the step.
template <class OnBeat>
void walk_written(const Ctx& c, ProcessId pid, const Places& pl, const Inputs& in, OnBeat&& on_beat) {
  const Process& p = c.d.processes[pid];
  const auto& out = c.d.streams[p.outputs.at(0)];
  std::vector<int64_t> at = in.base;  // per input: the address of its next beat's first element
  int64_t o = 0;
  for (const auto& step : dataflow::expand(dataflow::schedule(c.d, pid))) {
    std::vector<bool> reads(p.inputs.size(), false);
    bool writes = false;
    for (const auto& op : step.ops) {
      writes = writes || op.write;
      for (size_t k = 0; k < p.inputs.size(); ++k) reads[k] = reads[k] || (!op.write && op.stream == p.inputs[k]);
    }
    if (writes) {
      std::vector<Located> beat;
      for (int64_t e = 0; e < out.block; ++e, ++o) {
        const dataflow::GatherNeed n = dataflow::gather_need(p, out.shape, o);
        Located l{false, 0, pl.base[n.slot] + (p.operands[n.slot].splat ? 0 : n.elem)};
        for (size_t k = 0; k < reads.size(); ++k)
          if (reads[k] && l.addr >= at[k] && l.addr < at[k] + in.block[k]) l.fresh = true, l.q = in.word[k] + l.addr - at[k];
        beat.push_back(l);
      }
      std::vector<int64_t> delivered(in.block.size());
      for (size_t k = 0; k < in.block.size(); ++k) delivered[k] = (at[k] - in.base[k]) / in.block[k];
      on_beat(beat, delivered);
    }
    for (size_t k = 0; k < reads.size(); ++k)
      if (reads[k]) at[k] += in.block[k];
  }
}

// The streamed input whose operand holds address addr, or -1 (a constant).
int input_at(const Inputs& in, int64_t addr) {
  for (size_t k = 0; k < in.base.size(); ++k)
    if (addr >= in.base[k] && addr < in.base[k] + in.elems[k]) return int(k);
  return -1;
}

// Each input's ring: an element of beat b read from the buffer when d beats of its input have
// arrived needs d - b beats kept (beats b … d - 1; this step's beat is written as the step
// fires, after its read), so the ring is the least power of two that covers every such read,
// or the whole input. A re-blocking gather (3 elements a beat into 1, or 8 into 24) keeps a
// beat or two, where the whole input grows with the batch.
void size_rings(const Ctx& c, ProcessId pid, const Places& pl, Inputs& in) {
  std::vector<int64_t> need(in.block.size(), 0);
  walk_written(c, pid, pl, in, [&](const std::vector<Located>& beat, const std::vector<int64_t>& delivered) {
    for (const Located& l : beat) {
      const int k = l.fresh ? -1 : input_at(in, l.addr);
      if (k >= 0) need[k] = std::max(need[k], delivered[k] - (l.addr - in.base[k]) / in.block[k]);
    }
  });
  for (size_t k = 0; k < in.block.size(); ++k) {
    const int64_t beats = in.elems[k] / in.block[k];
    in.ring.push_back(need[k] == 0 ? 0 : std::min<int64_t>(int64_t(std::bit_ceil(uint64_t(need[k]))), beats));
    in.ring_base.push_back(in.buf);
    in.buf += in.ring_words(k);
  }
}

Inputs inputs(const Ctx& c, ProcessId pid, const Places& pl) {
  const Process& p = c.d.processes[pid];
  Inputs in;
  for (size_t k = 0; k < p.operands.size(); ++k) {
    const auto& od = p.operands[k];
    if (od.stream < 0) continue;
    in.block.push_back(c.d.streams[od.stream].block);
    in.elems.push_back(numel(od.shape));
    in.base.push_back(pl.base[k]);
    in.word.push_back(in.words);
    in.words += in.block.back();
  }
  size_rings(c, pid, pl, in);
  return in;
}

// An entry's widths: {fresh, word, pick}, the word one of IN_WORDS, the pick one of the
// output position's candidates.
struct EntryBits {
  int q = 1, pick = 1;
  int total() const { return 1 + q + pick; }
};

// The constant operands' words, in address order: each value at its operand's exponent,
// rounded and saturated as the HLS const_operand's value_literal and weights.h ROMs are.
std::string const_hex(const Ctx& c, ProcessId pid) {
  const Process& p = c.d.processes[pid];
  std::vector<ir::NodeId> nodes;
  for (const auto& od : p.operands)
    if (od.stream < 0 && !od.splat) nodes.push_back(od.rom_source());
  const std::vector<Tensor> values = ir::evaluate_nodes(c.b.graph, nodes, c.b.inputs, c.b.params);
  std::string hex;
  size_t next = 0;
  for (size_t k = 0; k < p.operands.size(); ++k) {
    const auto& od = p.operands[k];
    if (od.stream >= 0) continue;
    const std::vector<double> words = od.splat ? std::vector<double>{*od.splat} : values.at(next++).data;
    for (double x : words) hex += fmt::format("{:x}\n", rom_word(c, x, c.operand_exp(pid, k)));
  }
  return hex;
}

// One line per written beat: where each of its elements is when the beat is written, as
// inrarch_gather's entries {fresh, word, pick}. An element not in the step's input beats is
// one of its output position's candidates (CAND): the buffer or constant words that position
// ever reads, in the order first read, so that its multiplexer spans those words alone (a
// row expanded over the batch at 10 elements a beat: 4 of the row's 40 words). HELD: some
// candidate is a buffer word.
struct Entries {
  std::string hex;
  bool held = false;
  int64_t picks = 1;          // MS: the most candidates of any position
  std::vector<int64_t> cand;  // position e's candidate j at e * MS + j: {const (bit 31), word}
  EntryBits bits;
};

constexpr int64_t kConstCandidate = int64_t{1} << 31;

Entries entries(const Ctx& c, ProcessId pid, const Places& pl, const Inputs& in) {
  const size_t bo = size_t(c.d.streams[c.d.processes[pid].outputs.at(0)].block);
  std::vector<std::vector<Located>> beats;
  walk_written(c, pid, pl, in, [&](const std::vector<Located>& beat, const std::vector<int64_t>&) { beats.push_back(beat); });
  std::vector<std::vector<int64_t>> lists(bo);
  std::vector<std::map<int64_t, int64_t>> pick_of(bo);  // per position: candidate -> its pick
  std::vector<int64_t> picks;                            // per written element (0 where fresh)
  Entries r;
  for (const auto& beat : beats)
    for (size_t e = 0; e < bo; ++e) {
      const Located& l = beat[e];
      picks.push_back(0);
      if (l.fresh) continue;
      const int k = input_at(in, l.addr);
      const int64_t cand = k < 0 ? kConstCandidate | (l.addr - pl.buf) : in.buffer_word(size_t(k), l.addr - in.base[k]);
      const auto [at, added] = pick_of[e].emplace(cand, int64_t(lists[e].size()));
      if (added) lists[e].push_back(cand);
      picks.back() = at->second;
      r.held = r.held || k >= 0;
      r.picks = std::max<int64_t>(r.picks, int64_t(lists[e].size()));
    }
  r.bits = {bits_for(in.words), bits_for(r.picks)};
  for (const auto& list : lists)
    for (int64_t j = 0; j < r.picks; ++j) r.cand.push_back(j < int64_t(list.size()) ? list[size_t(j)] : 0);
  size_t next = 0;
  for (const auto& beat : beats) {
    std::vector<uint64_t> words;
    for (const Located& l : beat)
      words.push_back(uint64_t(l.fresh) << (r.bits.q + r.bits.pick) | uint64_t(l.q) << r.bits.pick | uint64_t(picks[next++]));
    r.hex += wide_hex(words, r.bits.total());
  }
  return r;
}

}  // namespace

void check_gather(const Process& p) {
  if (p.inputs.empty())
    throw Error(fmt::format("rtl: process {} ({}, kernel kind gather) has no streamed operand: a "
                            "constant output is not supported yet", p.name, ir::op_name(p.op)));
}

std::string gather_instance(const Ctx& c, ProcessId pid) {
  const Process& p = c.d.processes[pid];
  if (is_sum(p)) return sum_instance(c, pid);
  const auto& out = c.d.streams[p.outputs.at(0)];
  const Places pl = places(p);
  const Inputs in = inputs(c, pid, pl);
  const Entries en = entries(c, pid, pl, in);
  std::vector<int64_t> ring_words;
  for (size_t k = 0; k < in.block.size(); ++k) ring_words.push_back(in.ring_words(k));
  std::vector<int64_t> at;
  std::string data, valid, ready;
  int64_t bits = 0;
  for (const auto& od : p.operands) {
    if (od.stream < 0) continue;
    const auto& s = c.d.streams[od.stream];
    at.push_back(bits);
    bits += s.block * c.w + 1;
    const char* sep = data.empty() ? "" : ", ";  // input NIN-1 first, so input 0 is in the low bits
    data = s.name + "_r_data" + sep + data;
    valid = s.name + "_r_valid" + sep + valid;
    ready = s.name + "_r_ready" + sep + ready;
  }
  const std::string consts = pl.consts > 0 ? fmt::format(", .CONST_FILE(\"{}\")", const_file(p)) : "";
  return fmt::format(
      "  inrarch_gather #(.NIN({}), .BO({}), .W({}), .STEPS({}), .WRITES({}), .BUF({}), .NC({}), .IN_BITS({}),\n"
      "                   .IN_WORDS({}), .QW({}), .PKW({}), .MS({}), .BI({}), .AT({}), .QAT({}), .BASES({}),\n"
      "                   .NE({}), .HELD({}), .CAND({}),\n"
      "                   .STEP_FILE(\"{}_steps.hex\"), .SRC_FILE(\"{}_src.hex\"){}) u_{} (\n"
      "      .clk, .rst, .in_data({{{}}}), .in_valid({{{}}}), .in_ready({{{}}}),\n"
      "      .out_data({}_w_data), .out_valid({}_w_valid), .out_ready({}_w_ready));\n",
      in.block.size(), out.block, c.w, dataflow::schedule(c.d, pid).steps(), numel(out.shape) / out.block,
      std::max<int64_t>(in.buf, 1), pl.consts, bits, in.words, en.bits.q, en.bits.pick, en.picks, sv_words32(in.block),
      sv_words32(at), sv_words32(in.word), sv_words32(in.ring_base), sv_words32(ring_words), en.held ? 1 : 0,
      sv_words32(en.cand), p.name, p.name, consts, p.name,
      data, valid, ready, out.name, out.name, out.name);
}

std::string steps_hex(const Ctx& c, ProcessId pid) {
  const Process& p = c.d.processes[pid];
  std::string steps;
  for (const auto& step : dataflow::expand(dataflow::schedule(c.d, pid))) {
    uint64_t bits = 0;
    for (const auto& op : step.ops) {
      if (op.write) bits |= uint64_t(1) << p.inputs.size();
      for (size_t k = 0; k < p.inputs.size(); ++k)
        if (!op.write && op.stream == p.inputs[k]) bits |= uint64_t(1) << k;
    }
    steps += fmt::format("{:x}\n", bits);
  }
  return steps;
}

std::vector<std::pair<std::string, std::string>> gather_files(const Ctx& c) {
  std::vector<std::pair<std::string, std::string>> files;
  for (size_t pid = 0; pid < c.d.processes.size(); ++pid) {
    const Process& p = c.d.processes[pid];
    if (!dataflow::is_gather(p.kind) || dataflow::is_pass_through(c.d, p)) continue;
    if (is_sum(p)) {
      for (auto& f : sum_files(c, ProcessId(pid))) files.push_back(std::move(f));
      continue;
    }
    const Places pl = places(p);
    files.emplace_back(p.name + "_steps.hex", steps_hex(c, ProcessId(pid)));
    files.emplace_back(p.name + "_src.hex", entries(c, ProcessId(pid), pl, inputs(c, ProcessId(pid), pl)).hex);
    if (pl.consts > 0) files.emplace_back(const_file(p), const_hex(c, ProcessId(pid)));
  }
  return files;
}

}  // namespace inrarch::rtl::detail
