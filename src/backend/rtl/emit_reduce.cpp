// sum (a gather kind, dataflow/schedule_gather.cpp) as inrarch_sum: the gather's steps from
// the schedule, and a table of where each input element goes. The HLS gather keeps every
// input element and adds up an output's contributors into acc_type (ap_fixed<64, 2I+8>,
// wrapping) when it writes; integer addition modulo 2^64 does not depend on the order, so
// running sums per output element give the same bits with one accumulator per output.
#include <fmt/format.h>

#include "backend/rtl/rtl_detail.h"
#include "dataflow/kernels.h"
#include "dataflow/schedule.h"
#include "ir/graph.h"

namespace inrarch::rtl::detail {

using dataflow::Process;
using dataflow::ProcessId;

bool is_sum(const Process& p) {
  return p.kind == dataflow::Kind::SumMap;
}

namespace {

// Input element i's output element: its index over the dims that are kept (a reduced dim
// kept with keepdim has size 1 in the output and adds nothing).
std::vector<int64_t> destinations(const Process& p) {
  const ir::Shape& in = p.operands.at(0).shape;
  std::vector<bool> reduced(in.size(), p.attrs.dims.empty());
  for (int64_t d : p.attrs.dims) reduced[ir::normalize_dim(d, int64_t(in.size()), "sum")] = true;
  std::vector<int64_t> dst(numel(in));
  for (int64_t i = 0; i < int64_t(dst.size()); ++i) {
    int64_t rest = i, o = 0, weight = 1;
    for (size_t d = in.size(); d-- > 0;) {
      const int64_t idx = rest % in[d];
      rest /= in[d];
      if (reduced[d]) continue;
      o += idx * weight;
      weight *= in[d];
    }
    dst[i] = o;
  }
  return dst;
}

}  // namespace

std::string sum_instance(const Ctx& c, ProcessId pid) {
  const Process& p = c.d.processes[pid];
  const auto& in = c.d.streams[p.inputs.at(0)];
  const auto& out = c.d.streams[p.outputs.at(0)];
  return fmt::format(
      "  inrarch_sum #(.BI({}), .BO({}), .W({}), .F({}), .FA({}), .STEPS({}), .IN_ELEMS({}), .OUT_ELEMS({}),\n"
      "                .STEP_FILE(\"{}_steps.hex\"), .DST_FILE(\"{}_dst.hex\")) u_{} (\n"
      "      .clk, .rst, .in_data({}_r_data), .in_valid({}_r_valid), .in_ready({}_r_ready),\n"
      "      .out_data({}_w_data), .out_valid({}_w_valid), .out_ready({}_w_ready));\n",
      in.block, out.block, c.w, c.f, c.fa, dataflow::schedule(c.d, pid).steps(), numel(in.shape),
      numel(out.shape), p.name, p.name, p.name, in.name, in.name, in.name, out.name, out.name, out.name);
}

std::vector<std::pair<std::string, std::string>> sum_files(const Ctx& c, ProcessId pid) {
  const Process& p = c.d.processes[pid];
  std::string dst;
  for (int64_t o : destinations(p)) dst += fmt::format("{:x}\n", o);
  return {{p.name + "_steps.hex", steps_hex(c, pid)}, {p.name + "_dst.hex", dst}};
}

}  // namespace inrarch::rtl::detail
