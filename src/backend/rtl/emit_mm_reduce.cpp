// The batch-reduction matrix product in the top (dataflow kind mm_reduce): inrarch_mm_reduce
// with the stored mm_lanes MACs as its L (schedule.h "mm_reduce").
#include <fmt/format.h>

#include "backend/rtl/rtl_detail.h"
#include "support/error.h"

namespace inrarch::rtl::detail {

void check_mm_reduce(const dataflow::Design& d, const dataflow::Process& p) {
  for (const auto& od : p.operands)
    if (od.stream < 0 || d.streams[od.stream].shape.size() != 2)
      throw Error("rtl: process " + p.name + " (mm_reduce): an operand is not a streamed matrix");
}

std::string mm_reduce_instance(const Ctx& c, dataflow::ProcessId pid) {
  const dataflow::Process& p = c.d.processes[pid];
  const auto& a = c.d.streams[p.operands.at(0).stream];
  const auto& b = c.d.streams[p.operands.at(1).stream];
  const auto& out = c.d.streams[p.outputs.at(0)];
  const std::string params =
      fmt::format(".W({}), .F({}), .FA({}), .R({}), .K({}), .N({}), .BA({}), .BB({}), .BC({}), .L({}),\n      .SHIFT({})",
                  c.w, c.f, c.fa, a.shape.at(0), a.shape.at(1), b.shape.at(1), a.block, b.block, out.block,
                  p.mm_lanes, c.stream_exp(p.outputs[0]) - c.operand_exp(pid, 0) - c.operand_exp(pid, 1));
  std::string ports;
  for (const auto& [x, s] : {std::pair{"a", &a}, std::pair{"b", &b}})
    ports += fmt::format(".{0}_data({1}_r_data), .{0}_valid({1}_r_valid), .{0}_ready({1}_r_ready),\n      ", x, s->name);
  return fmt::format("  inrarch_mm_reduce #({}) u_{} (\n      .clk, .rst, {}.out_data({}_w_data), .out_valid({}_w_valid), "
                     ".out_ready({}_w_ready));\n",
                     params, p.name, ports, out.name, out.name, out.name);
}

}  // namespace inrarch::rtl::detail
