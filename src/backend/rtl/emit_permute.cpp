// Transposes and permutes as inrarch_permute (the output's dims and, per output dim, the
// input's stride along it), and constant outputs as inrarch_rom_source with their ROM.
#include <fmt/format.h>

#include "backend/rtl/rtl_detail.h"
#include "support/error.h"

namespace inrarch::rtl::detail {

using dataflow::Kind;
using dataflow::Process;
using dataflow::ProcessId;

namespace {

// Output dim d is input dim perm[d] (a transpose is <1, 0>).
std::vector<int64_t> perm_of(const Process& p) {
  return p.kind == Kind::Transpose ? std::vector<int64_t>{1, 0} : p.attrs.perm;
}

}  // namespace

void check_permute(const dataflow::Design& d, const Process& p) {
  const auto& in = d.streams[p.inputs.at(0)];
  const auto& out = d.streams[p.outputs.at(0)];
  const std::vector<int64_t> perm = perm_of(p);
  bool ok = perm.size() == in.shape.size() && out.shape.size() == in.shape.size() &&
            numel(in.shape) % in.block == 0 && (out.shape.empty() ? out.block == 1 : out.shape.back() % out.block == 0);
  for (size_t k = 0; ok && k < perm.size(); ++k)
    ok = perm[k] >= 0 && perm[k] < int64_t(in.shape.size()) && out.shape[k] == in.shape[perm[k]];
  if (!ok)
    throw Error(fmt::format("rtl: process {} ({}): its perm, shapes or blocks are inconsistent (a block must "
                            "divide the output's last dim)", p.name, ir::op_name(p.op)));
}

std::string permute_instance(const Ctx& c, ProcessId pid) {
  const Process& p = c.d.processes[pid];
  const auto& in = c.d.streams[p.inputs.at(0)];
  const auto& out = c.d.streams[p.outputs.at(0)];
  std::vector<int64_t> perm = perm_of(p), dims = out.shape, strides;
  const std::vector<int64_t> in_strides = strides_of(in.shape);
  for (int64_t k : perm) strides.push_back(in_strides[k]);
  if (dims.empty()) dims = {1}, strides = {1};  // a scalar: one element, rank 1
  return fmt::format(
      "  inrarch_permute #(.W({}), .BI({}), .BO({}), .NUM({}), .RANK({}), .DIMS({}), .STRIDES({})) u_{} (\n"
      "      .clk, .rst, .in_data({}_r_data), .in_valid({}_r_valid), .in_ready({}_r_ready),\n"
      "      .out_data({}_w_data), .out_valid({}_w_valid), .out_ready({}_w_ready));\n",
      c.w, in.block, out.block, numel(in.shape), dims.size(), sv_words32(dims), sv_words32(strides), p.name, in.name,
      in.name, in.name, out.name, out.name, out.name);
}

void check_rom_source(const dataflow::Design& d, const Process& p) {
  const auto& od = p.operands.at(0);
  const int64_t words = rom_words(od), block = d.streams[p.outputs.at(0)].block;
  if (words != 1 && words % block != 0)  // from_rom's rule: a period of 1 or whole beats
    throw Error(fmt::format("rtl: process {} (a constant output): a ROM of {} words read {} a beat", p.name,
                            words, block));
}

std::string rom_source_instance(const Ctx& c, ProcessId pid) {
  const Process& p = c.d.processes[pid];
  const auto& out = c.d.streams[p.outputs.at(0)];
  return fmt::format(
      "  inrarch_rom_source #(.B({}), .W({}), .BEATS({}), .P({}), .ROM_FILE(\"{}\")) u_{} (\n"
      "      .clk, .rst, .out_data({}_w_data), .out_valid({}_w_valid), .out_ready({}_w_ready));\n",
      out.block, c.w, out.beats(), rom_words(p.operands.at(0)), rom_file(p, 0), p.name, out.name, out.name,
      out.name);
}

}  // namespace inrarch::rtl::detail
