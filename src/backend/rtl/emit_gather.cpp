// Gathers other than a pass-through (select, slice, cat, expand, reshape of any blocks, with
// constant operands or without) as inrarch_gather with its tables: each step's {write, read
// mask}, from the schedule; each written beat's entries (where each output element is when
// the beat is written: in the step's input beats, the buffer or the constants), from
// dataflow::gather_layout, both kept to a period of lines; and the constant operands' words.
#include <fmt/format.h>

#include <algorithm>

#include "backend/rtl/rtl_detail.h"
#include "dataflow/gather_layout.h"
#include "dataflow/kernels.h"
#include "dataflow/schedule.h"
#include "ir/interpreter.h"
#include "support/error.h"
#include "support/looped_table.h"

namespace inrarch::rtl::detail {

using dataflow::Process;
using dataflow::ProcessId;

namespace {

std::string const_file(const Process& p) { return p.name + "_const.hex"; }

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

// The step and entry tables as inrarch_gather keeps them: their lines up to where they
// start repeating, once round the period (support/looped_table.h).
struct Tables {
  LoopedTable steps, entries;
};

Tables looped_tables(const dataflow::GatherLayout& g, const std::vector<std::vector<uint64_t>>& entries) {
  return {looped_table(g.steps), looped_table(entries)};
}

// The entry table's first `lines` lines: a line per written beat, each output element's
// entry, the index of its candidate (dataflow::GatherLayout::entries). A position's
// candidates (CAND, GatherLayout::candidates) are the words it is ever taken from, in the
// order first taken: words of the step's input beats, of the buffer or of the constants, so
// that its multiplexer spans those words alone (a row expanded over the batch at 10
// elements a beat: 4 of the row's 40 words).
std::string entries_hex(const dataflow::GatherLayout& g, const std::vector<std::vector<uint64_t>>& entries,
                        int64_t lines) {
  std::string hex;
  for (int64_t b = 0; b < lines; ++b) hex += wide_hex(entries[size_t(b)], g.pick_bits());
  return hex;
}

// Position e's candidate j at e * MS + j, MS the most of any position: {const (bit 31),
// fresh (bit 30), word}; a position with fewer repeats its last.
std::vector<int64_t> candidate_words(const dataflow::GatherLayout& g) {
  std::vector<int64_t> cand;
  for (const auto& list : g.candidates)
    for (int64_t j = 0; j < g.picks(); ++j)
      cand.push_back(list.empty() ? 0 : list[size_t(std::min<int64_t>(j, int64_t(list.size()) - 1))]);
  return cand;
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
  const dataflow::GatherLayout g = dataflow::gather_layout(c.d, pid);
  const Tables t = looped_tables(g, g.entries());
  std::vector<int64_t> ring_words;
  for (size_t k = 0; k < g.block.size(); ++k) ring_words.push_back(g.ring_words(k));
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
  const std::string consts = g.const_words > 0 ? fmt::format(", .CONST_FILE(\"{}\")", const_file(p)) : "";
  return fmt::format(
      "  inrarch_gather #(.NIN({}), .BO({}), .W({}), .STEPS({}), .STEP_LINES({}), .STEP_LOOP({}), .SRC_LINES({}),\n"
      "                   .SRC_LOOP({}), .BUF({}), .NC({}), .IN_BITS({}),\n"
      "                   .IN_WORDS({}), .PKW({}), .MS({}), .BI({}), .AT({}), .QAT({}), .BASES({}),\n"
      "                   .NE({}), .HELD({}), .CAND({}),\n"
      "                   .STEP_FILE(\"{}_steps.hex\"), .SRC_FILE(\"{}_src.hex\"){}) u_{} (\n"
      "      .clk, .rst, .in_data({{{}}}), .in_valid({{{}}}), .in_ready({{{}}}),\n"
      "      .out_data({}_w_data), .out_valid({}_w_valid), .out_ready({}_w_ready));\n",
      g.block.size(), out.block, c.w, g.steps.size(), t.steps.lines, t.steps.loop, t.entries.lines, t.entries.loop,
      std::max<int64_t>(g.buffer, 1), g.const_words, bits, g.in_words, g.pick_bits(), g.picks(), sv_words32(g.block),
      sv_words32(at), sv_words32(g.word), sv_words32(g.ring_base), sv_words32(ring_words), g.held() ? 1 : 0,
      sv_words32(candidate_words(g)), p.name, p.name, consts, p.name,
      data, valid, ready, out.name, out.name, out.name);
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
    const dataflow::GatherLayout g = dataflow::gather_layout(c.d, ProcessId(pid));
    const std::vector<std::vector<uint64_t>> entries = g.entries();
    const Tables t = looped_tables(g, entries);
    std::string steps;
    for (int64_t i = 0; i < t.steps.lines; ++i) steps += fmt::format("{:x}\n", g.steps[size_t(i)]);
    files.emplace_back(p.name + "_steps.hex", steps);
    files.emplace_back(p.name + "_src.hex", entries_hex(g, entries, t.entries.lines));
    if (g.const_words > 0) files.emplace_back(const_file(p), const_hex(c, ProcessId(pid)));
  }
  return files;
}

}  // namespace inrarch::rtl::detail
