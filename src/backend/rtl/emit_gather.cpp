// Gathers other than a pass-through (select, slice, cat, expand, reshape of any block) as
// inrarch_gather with two tables: each step's {write, read mask}, from the schedule, and
// each output element's place in the buffer of the inputs, from dataflow::gather_need.
#include <fmt/format.h>

#include "backend/rtl/rtl_detail.h"
#include "dataflow/kernels.h"
#include "dataflow/schedule.h"
#include "support/error.h"

namespace inrarch::rtl::detail {

using dataflow::Process;
using dataflow::ProcessId;

namespace {

std::vector<int64_t> bases(const Process& p) {
  std::vector<int64_t> b{0};
  for (const auto& od : p.operands) b.push_back(b.back() + numel(od.shape));
  return b;
}

}  // namespace

void check_gather(const dataflow::Design& d, const Process& p) {
  const int64_t block = d.streams[p.outputs.at(0)].block;
  bool ok = true;  // a sum accumulates, so its blocks may differ
  for (const auto& od : p.operands) ok = ok && od.stream >= 0 && (is_sum(p) || d.streams[od.stream].block == block);
  if (!ok)
    throw Error(fmt::format("rtl: process {} ({}, kernel kind gather) is not supported yet: a "
                            "constant operand or blocks that differ", p.name, ir::op_name(p.op)));
}

std::string gather_instance(const Ctx& c, ProcessId pid) {
  const Process& p = c.d.processes[pid];
  if (is_sum(p)) return sum_instance(c, pid);
  const auto& out = c.d.streams[p.outputs.at(0)];
  const std::vector<int64_t> base = bases(p);
  std::string data, valid, ready, base_bits;
  for (size_t k = p.inputs.size(); k-- > 0;) {  // concatenations list input NIN-1 first
    const std::string& n = c.d.streams[p.inputs[k]].name;
    const char* sep = data.empty() ? "" : ", ";
    data += sep + n + "_r_data";
    valid += sep + n + "_r_valid";
    ready += sep + n + "_r_ready";
    base_bits += fmt::format("{}32'd{}", sep, base[k]);
  }
  return fmt::format(
      "  inrarch_gather #(.NIN({}), .B({}), .W({}), .STEPS({}), .OUT_ELEMS({}), .BUF({}), .BASES({{{}}}),\n"
      "                   .STEP_FILE(\"{}_steps.hex\"), .SRC_FILE(\"{}_src.hex\")) u_{} (\n"
      "      .clk, .rst, .in_data({{{}}}), .in_valid({{{}}}), .in_ready({{{}}}),\n"
      "      .out_data({}_w_data), .out_valid({}_w_valid), .out_ready({}_w_ready));\n",
      p.inputs.size(), out.block, c.w, dataflow::schedule(c.d, pid).steps(), numel(out.shape), base.back(),
      base_bits, p.name, p.name, p.name, data, valid, ready, out.name, out.name, out.name);
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
    if (p.kind != dataflow::Kind::Gather || is_pass_through(c.d, p)) continue;
    if (is_sum(p)) {
      for (auto& f : sum_files(c, ProcessId(pid))) files.push_back(std::move(f));
      continue;
    }
    const std::string steps = steps_hex(c, ProcessId(pid));
    std::string src;
    const std::vector<int64_t> base = bases(p);
    const auto& out = c.d.streams[p.outputs.at(0)].shape;
    for (int64_t o = 0; o < numel(out); ++o) {
      const dataflow::GatherNeed n = dataflow::gather_need(p, out, o);
      src += fmt::format("{:x}\n", base[n.slot] + n.elem);
    }
    files.emplace_back(p.name + "_steps.hex", steps);
    files.emplace_back(p.name + "_src.hex", src);
  }
  return files;
}

}  // namespace inrarch::rtl::detail
