// The RTL backend's column of the kinds table (dataflow/kernels.def): for each kernel kind,
// how a process of it is checked and which module instance it becomes in the top. As with
// the schedules, the HLS kernels and the resource model, -Werror=switch makes a new kind
// fail to compile here until it has a module. Sources, sinks and copies are not computed
// from ops, so the top emits them itself (emit.cpp).
#include <fmt/format.h>

#include "backend/rtl/rtl_detail.h"
#include "dataflow/elementwise.h"
#include "support/error.h"

namespace inrarch::rtl::detail {

using dataflow::Design;
using dataflow::Process;
using dataflow::ProcessId;

namespace {

// A lane for the op, and a ROM operand whose period a beat can read whole or wrap in.
void check_elementwise(const Design& d, const Process& p) {
  dataflow::elementwise_row(d, p);  // throws for an op without a lane
  const int64_t block = d.streams[p.outputs.at(0)].block;
  for (const auto& od : p.operands) {
    const int64_t words = rom_words(od);
    if (od.stream < 0 && !od.splat && words != 1 && words % block != 0)
      throw Error(fmt::format("rtl: process {} ({}): a ROM of {} words read {} a beat", p.name,
                              ir::op_name(p.op), words, block));
  }
}

// A reshape that keeps the beat is a one-output copy; every other gather (a sum included)
// is inrarch_gather or inrarch_sum with its tables.
void check_data_movement(const Design& d, const Process& p) {
  if (!dataflow::is_pass_through(d, p)) check_gather(p);
}

std::string data_movement_instance(const Ctx& c, ProcessId pid) {
  return dataflow::is_pass_through(c.d, c.d.processes[pid]) ? copy_instance(c, pid) : gather_instance(c, pid);
}

void not_a_kernel(const Design&, const Process& p) {
  throw Error(fmt::format("rtl: process {} ({}, {}) is not a kernel: the top emits it itself", p.name,
                          ir::op_name(p.op), dataflow::kind_name(p.kind)));
}

}  // namespace

KernelModule kernel_module(dataflow::Kind k) {
  using dataflow::Kind;
  switch (k) {
    case Kind::Source: case Kind::Sink: case Kind::Copy: case Kind::Custom: return {not_a_kernel, nullptr};
    case Kind::Unary: case Kind::Binary: return {check_elementwise, elementwise_instance};  // inrarch_ew1/ew2/ew2r
    case Kind::Mm: return {check_mm, mm_instance};  // inrarch_mm, inrarch_mm_rom_a, inrarch_mm_rom_b
    case Kind::MmReduce: return {check_mm_reduce, mm_reduce_instance};  // inrarch_mm_reduce
    case Kind::Transpose:
    case Kind::Permute: return {check_permute, permute_instance};  // inrarch_permute
    case Kind::IdentityMap:
    case Kind::ExpandMap:
    case Kind::SelectMap:
    case Kind::SliceMap:
    case Kind::CatMap:
    case Kind::SumMap: return {check_data_movement, data_movement_instance};  // inrarch_gather, inrarch_sum
  }
  throw Error("rtl: unknown process kind");
}

}  // namespace inrarch::rtl::detail
