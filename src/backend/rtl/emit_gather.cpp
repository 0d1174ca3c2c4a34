// Gathers other than a pass-through (select, slice, cat, expand, reshape of any blocks, with
// constant operands or without) as inrarch_gather with its tables: each step's {write, read
// mask}, from the schedule; each written beat's entries (where each output element is when
// the beat is written: in the step's input beats, the buffer or the constants), from
// dataflow::gather_need and the schedule; and the constant operands' words.
#include <fmt/format.h>

#include <algorithm>
#include <bit>

#include "backend/rtl/rtl_detail.h"
#include "dataflow/kernels.h"
#include "dataflow/schedule.h"
#include "ir/interpreter.h"
#include "support/error.h"

namespace inrarch::rtl::detail {

using dataflow::Process;
using dataflow::ProcessId;

namespace {

// Where each operand's elements are in the module's address space. The buffer holds the
// streamed operands (the module's inputs, in operand order), and the constants follow it
// in their own ROM, a splat as one word: so the module sees only its streamed inputs,
// while the HLS gather keeps every operand in one buffer (movement.h gather_fill).
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
// buffer's first word (BASES), the first of the step's input words (QAT) and the elements (NE).
struct Inputs {
  std::vector<int64_t> block, base, word, elems;
  int64_t words = 0;  // IN_WORDS
};

Inputs inputs(const Ctx& c, const Process& p, const Places& pl) {
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
  return in;
}

// An entry's widths: {fresh, word, const, index}, the word one of IN_WORDS, the index a
// buffer or constant word.
struct EntryBits {
  int q = 1, index = 1;
  int total() const { return 2 + q + index; }
};

EntryBits entry_bits(const Inputs& in, const Places& pl) {
  return {bits_for(in.words), std::max(bits_for(pl.buf), bits_for(pl.consts))};
}

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
// inrarch_gather's entries {fresh, word, const, index}; and whether any is read from the buffer
// (HELD). Walks the schedule's steps as the module does, each input's next beat filling the
// buffer from its base on.
struct Entries {
  std::string hex;
  bool held = false;
};

Entries entries(const Ctx& c, ProcessId pid, const Places& pl) {
  const Process& p = c.d.processes[pid];
  const Inputs in = inputs(c, p, pl);
  const EntryBits eb = entry_bits(in, pl);
  const auto& out = c.d.streams[p.outputs.at(0)];
  std::vector<int64_t> at = in.base;  // per input: the buffer word its next beat fills
  int64_t o = 0;
  Entries out_entries;
  for (const auto& step : dataflow::expand(dataflow::schedule(c.d, pid))) {
    std::vector<bool> reads(p.inputs.size(), false);
    bool writes = false;
    for (const auto& op : step.ops) {
      writes = writes || op.write;
      for (size_t k = 0; k < p.inputs.size(); ++k) reads[k] = reads[k] || (!op.write && op.stream == p.inputs[k]);
    }
    if (writes) {
      std::vector<uint64_t> beat;
      for (int64_t e = 0; e < out.block; ++e, ++o) {
        const dataflow::GatherNeed n = dataflow::gather_need(p, out.shape, o);
        const int64_t addr = pl.base[n.slot] + (p.operands[n.slot].splat ? 0 : n.elem);
        uint64_t fresh = 0, q = 0, cst = 0, index = uint64_t(addr);
        for (size_t k = 0; k < reads.size(); ++k)
          if (reads[k] && addr >= at[k] && addr < at[k] + in.block[k])
            fresh = 1, q = in.word[k] + addr - at[k], index = 0;
        if (!fresh && addr >= pl.buf) cst = 1, index = addr - pl.buf;
        out_entries.held = out_entries.held || (!fresh && !cst);
        beat.push_back(fresh << (1 + eb.q + eb.index) | q << (1 + eb.index) | cst << eb.index | index);
      }
      out_entries.hex += wide_hex(beat, eb.total());
    }
    for (size_t k = 0; k < reads.size(); ++k)
      if (reads[k]) at[k] += in.block[k];
  }
  return out_entries;
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
  const Inputs in = inputs(c, p, pl);
  const EntryBits eb = entry_bits(in, pl);
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
      "                   .IN_WORDS({}), .QW({}), .IW({}), .BI({}), .AT({}), .QAT({}), .BASES({}),\n"
      "                   .NE({}), .HELD({}),\n"
      "                   .STEP_FILE(\"{}_steps.hex\"), .SRC_FILE(\"{}_src.hex\"){}) u_{} (\n"
      "      .clk, .rst, .in_data({{{}}}), .in_valid({{{}}}), .in_ready({{{}}}),\n"
      "      .out_data({}_w_data), .out_valid({}_w_valid), .out_ready({}_w_ready));\n",
      in.block.size(), out.block, c.w, dataflow::schedule(c.d, pid).steps(), numel(out.shape) / out.block, pl.buf,
      pl.consts, bits, in.words, eb.q, eb.index, sv_words32(in.block), sv_words32(at), sv_words32(in.word),
      sv_words32(in.base), sv_words32(in.elems), entries(c, pid, pl).held ? 1 : 0, p.name, p.name, consts, p.name,
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
    if (!dataflow::is_gather(p.kind) || is_pass_through(c.d, p)) continue;
    if (is_sum(p)) {
      for (auto& f : sum_files(c, ProcessId(pid))) files.push_back(std::move(f));
      continue;
    }
    const Places pl = places(p);
    files.emplace_back(p.name + "_steps.hex", steps_hex(c, ProcessId(pid)));
    files.emplace_back(p.name + "_src.hex", entries(c, ProcessId(pid), pl).hex);
    if (pl.consts > 0) files.emplace_back(const_file(p), const_hex(c, ProcessId(pid)));
  }
  return files;
}

}  // namespace inrarch::rtl::detail
