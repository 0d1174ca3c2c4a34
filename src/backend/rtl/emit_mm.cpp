// The matrix product in the top (inrarch_mm_rom_b) and the contents of its B ROM as a
// .hex file ($readmemh), encoded as the HLS emitter's weights.h holds it.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "backend/rtl/rtl_detail.h"
#include "ir/interpreter.h"
#include "support/error.h"

namespace inrarch::rtl::detail {

using dataflow::Kind;
using dataflow::Process;
using dataflow::ProcessId;

namespace {

std::string rom_file(const Process& p) { return p.name + "_b.hex"; }

}  // namespace

void check_mm(const dataflow::Design& d, const Process& p) {
  const auto& a = p.operands.at(0);
  const auto& b = p.operands.at(1);
  if (a.stream < 0 || b.stream >= 0 || b.splat || b.rom_source() != b.static_node)
    throw Error(fmt::format("rtl: process {} (mm): only a streamed A times a constant B held whole "
                            "(mm_rom_b) is supported yet", p.name));
  if (p.mm_par != 1)
    throw Error(fmt::format("rtl: process {} (mm) has {} MACs: only mm_par = 1 is supported yet "
                            "(compile --no-dse --mm-par 1)", p.name, p.mm_par));
  if (d.streams[a.stream].shape.size() != 2) throw Error("rtl: process " + p.name + " (mm): A is not a matrix");
}

std::string mm_instance(const Ctx& c, ProcessId pid) {
  const Process& p = c.d.processes[pid];
  const auto& a = c.d.streams[p.operands.at(0).stream];
  const auto& out = c.d.streams[p.outputs.at(0)];
  const int shift = c.stream_exp(p.outputs[0]) - c.operand_exp(pid, 0) - c.operand_exp(pid, 1);
  return fmt::format(
      "  inrarch_mm_rom_b #(.W({}), .F({}), .FA({}), .M({}), .K({}), .N({}), .BA({}), .BC({}), .SHIFT({}),\n"
      "                     .ROM_FILE(\"{}\")) u_{} (\n      .clk, .rst, .a_data({}_r_data), .a_valid({}_r_valid), "
      ".a_ready({}_r_ready),\n      .out_data({}_w_data), .out_valid({}_w_valid), .out_ready({}_w_ready));\n",
      c.w, c.f, c.fa, a.shape[0], a.shape[1], out.shape.at(1), a.block, out.block, shift, rom_file(p), p.name,
      a.name, a.name, a.name, out.name, out.name, out.name);
}

// Every mm's B, column-major (element (k, n) at n*K + k), each value rounded to the grid at
// its exponent and saturated (the HLS value_literal), one W-bit hex word a line.
std::vector<std::pair<std::string, std::string>> rom_files(const Ctx& c) {
  std::vector<ProcessId> mms;
  std::vector<ir::NodeId> nodes;
  for (size_t p = 0; p < c.d.processes.size(); ++p)
    if (c.d.processes[p].kind == Kind::Mm) {
      mms.push_back(ProcessId(p));
      nodes.push_back(c.d.processes[p].operands.at(1).static_node);
    }
  std::vector<std::pair<std::string, std::string>> files;
  if (mms.empty()) return files;
  const std::vector<Tensor> values = ir::evaluate_nodes(c.b.graph, nodes, c.b.inputs, c.b.params);
  const double top = std::ldexp(1.0, c.w - 1);
  for (size_t m = 0; m < mms.size(); ++m) {
    const Tensor& t = values[m];
    const int64_t K = t.shape.at(0), N = t.shape.at(1);
    std::string text;
    for (int64_t n = 0; n < N; ++n)
      for (int64_t k = 0; k < K; ++k) {
        const double v = std::nearbyint(std::ldexp(t.data[k * N + n], c.operand_exp(mms[m], 1) + c.f));
        const auto raw = static_cast<uint64_t>(static_cast<int64_t>(std::clamp(v, -top, top - 1)));
        text += fmt::format("{:0{}x}\n", raw & ((uint64_t(1) << c.w) - 1), (c.w + 3) / 4);
      }
    files.emplace_back(rom_file(c.d.processes[mms[m]]), text);
  }
  return files;
}

}  // namespace inrarch::rtl::detail
