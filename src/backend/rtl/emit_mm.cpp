// The matrix product in the top (inrarch_mm, inrarch_mm_rom_b or inrarch_mm_rom_a, each with
// its stored mm_lanes MACs, the parameter L), and every ROM as a .hex file ($readmemh): mm's B (a line a MAC cycle, one
// word a MAC), mm's A (a line a row) and the constant operands of elementwise kernels, encoded
// as the HLS emitter's weights.h holds them, and the sine table.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <numeric>

#include "backend/rtl/rtl_detail.h"
#include "dataflow/schedule.h"
#include "ir/interpreter.h"
#include "support/error.h"

namespace inrarch::rtl::detail {

using dataflow::Kind;
using dataflow::Process;
using dataflow::ProcessId;

std::string wide_hex(const std::vector<uint64_t>& words, int w) {
  std::vector<uint64_t> bits((words.size() * w + 63) / 64 + 1, 0);
  for (size_t u = 0; u < words.size(); ++u)
    for (int b = 0; b < w; ++b)
      if ((words[u] >> b) & 1) bits[(u * w + b) / 64] |= uint64_t(1) << ((u * w + b) % 64);
  std::string line;
  for (int64_t d = (int64_t(words.size()) * w + 3) / 4 - 1; d >= 0; --d)
    line += "0123456789abcdef"[(bits[d * 4 / 64] >> (d * 4 % 64)) & 15];
  return line + "\n";
}

namespace {

// mm's one ROM: A (mm_rom_a) or B (mm_rom_b).
std::string mm_rom_file(const Process& p) { return p.name + (p.operands.at(0).stream < 0 ? "_a.hex" : "_b.hex"); }


// K, the inner dim, from whichever operand is streamed.
int64_t mm_inner(const dataflow::Design& d, const Process& p) {
  const auto& a = p.operands.at(0);
  return a.stream >= 0 ? d.streams[a.stream].shape.at(1) : d.streams[p.operands.at(1).stream].shape.at(0);
}

}  // namespace

void check_mm(const dataflow::Design& d, const Process& p) {
  const auto& a = p.operands.at(0);
  const auto& b = p.operands.at(1);
  if (a.stream < 0 && b.stream < 0)
    throw Error("rtl: process " + p.name + " (mm) has no streamed operand");
  for (const auto* od : {&a, &b})
    if (od->stream < 0 && (od->splat || od->rom_source() != od->static_node))
      throw Error(fmt::format("rtl: process {} (mm) has {} that is not a whole constant (a splat or a "
                              "periodic ROM): mm's constant operand must be held whole, as the HLS "
                              "weights.h holds it",
                              p.name, od == &a ? "an A" : "a B"));
  for (const auto* od : {&a, &b})
    if (od->stream >= 0 && d.streams[od->stream].shape.size() != 2)
      throw Error("rtl: process " + p.name + " (mm): a streamed operand is not a matrix");
}

std::string mm_instance(const Ctx& c, ProcessId pid) {
  const Process& p = c.d.processes[pid];
  const auto& a = p.operands.at(0);
  const auto& b = p.operands.at(1);
  const auto& out = c.d.streams[p.outputs.at(0)];
  const int64_t K = mm_inner(c.d, p);
  const int64_t lanes = p.mm_lanes;  // the stored lanes (dataflow/attributes.h): L
  std::string params = fmt::format(".W({}), .F({}), .FA({}), .M({}), .K({}), .N({}), ", c.w, c.f, c.fa,
                                   out.shape.at(0), K, out.shape.at(1));
  std::string ports;
  for (const auto* od : {&a, &b})
    if (od->stream >= 0) {
      const auto& s = c.d.streams[od->stream];
      const char* x = od == &a ? "a" : "b";
      params += fmt::format(".B{}({}), ", od == &a ? "A" : "B", s.block);
      ports += fmt::format(".{}_data({}_r_data), .{}_valid({}_r_valid), .{}_ready({}_r_ready),\n      ", x, s.name, x,
                           s.name, x, s.name);
    }
  // D: the stored pipeline depth (attributes.h); the engine checks it against its stages.
  params += fmt::format(".BC({}), .L({}), .G({}),\n      .SHIFT({}), .D({})", out.block, lanes, std::gcd(lanes, K),
                        c.stream_exp(p.outputs[0]) - c.operand_exp(pid, 0) - c.operand_exp(pid, 1), p.mm_depth);
  // Narrow weights (Operand::rom_elem_bits): the B ROM's words of WB bits, FB of them the fraction.
  if (const int wb = rom_word_bits(c, b); wb < c.w) params += fmt::format(", .WB({}), .FB({})", wb, c.f - (c.w - wb));
  const char* module = a.stream < 0 ? "inrarch_mm_rom_a" : b.stream < 0 ? "inrarch_mm_rom_b" : "inrarch_mm";
  if (a.stream < 0 || b.stream < 0) params += fmt::format(", .ROM_FILE(\"{}\")", mm_rom_file(p));
  return fmt::format("  {} #({}) u_{} (\n      .clk, .rst, {}.out_data({}_w_data), .out_valid({}_w_valid), "
                     ".out_ready({}_w_ready));\n",
                     module, params, p.name, ports, out.name, out.name, out.name);
}

std::string rom_file(const Process& p, size_t slot) {
  return p.kind == Kind::Mm ? mm_rom_file(p) : fmt::format("{}_{}.hex", p.name, slot);
}

int rom_word_bits(const Ctx& c, const dataflow::Operand& od) {
  return static_cast<int>(od.bits_at(c.w));
}

uint64_t rom_word(const Ctx& c, double x, int exp, int bits) {
  if (bits <= 0) bits = c.w;
  const int frac = c.f - (c.w - bits);  // a narrow ROM keeps the binary point: fewer fraction bits
  const double top = std::ldexp(1.0, bits - 1);
  const double v = std::nearbyint(std::ldexp(x, exp + frac));
  return static_cast<uint64_t>(static_cast<int64_t>(std::clamp(v, -top, top - 1))) & ((uint64_t(1) << bits) - 1);
}

int64_t rom_words(const dataflow::Operand& od) {
  return od.splat ? 1 : od.rom_period > 0 ? od.rom_period : numel(od.shape);
}

// Every ROM: mm's B column-major (element (k, n) at n*K + k), mm's A row-major (a row a line), an elementwise
// operand's or a constant output's rom_words values row-major (a splat: one word); each value rounded to the grid
// at its exponent and saturated
// (the HLS value_literal), one W-bit hex word a line.
std::vector<std::pair<std::string, std::string>> rom_files(const Ctx& c) {
  struct Rom {
    ProcessId p;
    size_t slot;
  };
  std::vector<Rom> roms;
  std::vector<ir::NodeId> nodes;
  // A gather's constants are its own file (gather_files); everything else here reads a ROM.
  auto reads_rom = [](const Process& pr) {
    return pr.kind == Kind::Mm || pr.kind == Kind::Unary || pr.kind == Kind::Binary ||
           (pr.kind == Kind::Source && pr.op != ir::Op::Input);
  };
  for (size_t p = 0; p < c.d.processes.size(); ++p) {
    const Process& pr = c.d.processes[p];
    if (!reads_rom(pr)) continue;
    for (size_t k = 0; k < pr.operands.size(); ++k)
      if (pr.operands[k].stream < 0 && !pr.operands[k].splat) {
        roms.push_back({ProcessId(p), k});
        nodes.push_back(pr.operands[k].rom_source());
      }
  }
  std::vector<Tensor> values = ir::evaluate_nodes(c.b.graph, nodes, c.b.inputs, c.b.params);
  for (size_t p = 0; p < c.d.processes.size(); ++p) {  // splats: one word, no evaluation
    const Process& pr = c.d.processes[p];
    for (size_t k = 0; k < pr.operands.size(); ++k)
      if (pr.operands[k].stream < 0 && pr.operands[k].splat && reads_rom(pr)) {
        roms.push_back({ProcessId(p), k});
        values.push_back(Tensor({1}, {*pr.operands[k].splat}));
      }
  }
  std::vector<std::pair<std::string, std::string>> files;
  for (size_t m = 0; m < roms.size(); ++m) {
    const Process& p = c.d.processes[roms[m].p];
    const Tensor& t = values[m];
    std::vector<double> order;
    if (p.kind == Kind::Mm && roms[m].slot == 1) {
      const int64_t K = t.shape.at(0), N = t.shape.at(1);
      for (int64_t n = 0; n < N; ++n)
        for (int64_t k = 0; k < K; ++k) order.push_back(t.data[k * N + n]);
    } else if (p.kind == Kind::Mm) {
      order = t.data;
    } else {
      order.assign(t.data.begin(), t.data.begin() + rom_words(p.operands[roms[m].slot]));
    }
    const int bits = rom_word_bits(c, p.operands[roms[m].slot]);
    std::vector<uint64_t> raw;
    for (double x : order) raw.push_back(rom_word(c, x, c.operand_exp(roms[m].p, roms[m].slot), bits));
    // mm's B: one line a MAC cycle, its L words (zeros past the row's end); mm's A: a line a
    // row; else a word a line.
    const int64_t per_line = p.kind != Kind::Mm ? 1 : roms[m].slot == 1 ? p.mm_lanes : t.shape.at(1);
    raw.resize((raw.size() + per_line - 1) / per_line * per_line, 0);
    std::string text;
    for (size_t at = 0; at < raw.size(); at += per_line)
      text += wide_hex({raw.begin() + at, raw.begin() + at + per_line}, bits);
    files.emplace_back(rom_file(p, roms[m].slot), text);
  }
  return files;
}

}  // namespace inrarch::rtl::detail
