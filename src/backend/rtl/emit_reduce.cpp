// sum (a gather kind, dataflow/schedule_gather.cpp) as inrarch_sum: the steps from the
// schedule and each input beat's accumulators, from dataflow::sum_layout, both kept to a
// period of lines (support/looped_table.h). The HLS gather adds up an output's contributors
// into acc_type (ap_fixed<64, 64 - FA>, wrapping) when it writes; integer addition modulo
// 2^64 does not depend on the order, so running sums in a ring of accumulators give the
// same bits (inrarch_sum's header says why AW bits suffice).
#include <fmt/format.h>

#include "backend/rtl/rtl_detail.h"
#include "dataflow/kernels.h"
#include "dataflow/sum_layout.h"
#include "support/looped_table.h"

namespace inrarch::rtl::detail {

using dataflow::Process;
using dataflow::ProcessId;

bool is_sum(const Process& p) {
  return p.kind == dataflow::Kind::SumMap;
}

namespace {

struct SumTables {
  dataflow::SumLayout layout;
  LoopedTable steps, slots;
  int64_t step_count = 1;  // the schedule's steps: the table's and the last
};

SumTables sum_tables(const Ctx& c, ProcessId pid) {
  dataflow::SumLayout s = dataflow::sum_layout(c.d, pid);
  const int64_t step_count = int64_t(s.steps.size() + s.suffix.size()) + s.tail_writes;
  const LoopedTable steps = looped_table(s.steps), slots = looped_table(s.slots);
  return {std::move(s), steps, slots, step_count};
}

// One of SumLayout's masks as a binary literal, bit 0 the lowest.
std::string mask(const std::vector<bool>& bits) {
  std::string text;
  for (size_t i = bits.size(); i-- > 0;) text += bits[i] ? '1' : '0';
  return fmt::format("{}'b{}", bits.size(), text);
}

// The suffix's lines as one literal of 2 bits a line, line 0 lowest (at least one line of
// zeros, so that the parameter has a width).
std::string lines_literal(const std::vector<uint64_t>& lines) {
  std::vector<bool> bits(2 * std::max<size_t>(lines.size(), 1), false);
  for (size_t i = 0; i < lines.size(); ++i) bits[2 * i] = lines[i] & 1, bits[2 * i + 1] = (lines[i] >> 1) & 1;
  return mask(bits);
}

// A mask of `rows` × `cols` bits (bit r · cols + c) as bit c · rows + r.
std::vector<bool> transposed(const std::vector<bool>& bits, size_t rows, size_t cols) {
  std::vector<bool> t(bits.size());
  for (size_t r = 0; r < rows; ++r)
    for (size_t c = 0; c < cols; ++c) t[c * rows + r] = bits[r * cols + c];
  return t;
}

}  // namespace

std::string sum_instance(const Ctx& c, ProcessId pid) {
  const Process& p = c.d.processes[pid];
  const auto& in = c.d.streams[p.inputs.at(0)];
  const auto& out = c.d.streams[p.outputs.at(0)];
  const SumTables t = sum_tables(c, pid);
  const size_t ring = size_t(t.layout.ring);
  const int acc_bits = dataflow::sum_acc_bits(c.w, t.layout.contributors, 64 - (c.fa - c.f));
  return fmt::format(
      "  inrarch_sum #(.BI({}), .BO({}), .W({}), .AW({}), .RING({}), .STEPS({}),\n"
      "                .SUF_LINES({}), .SUFFIX({}), .TAIL_WRITES({}),\n"
      "                .STEP_LINES({}), .STEP_LOOP({}), .DST_LINES({}), .DST_LOOP({}), .SHARE({}),\n"
      "                .STORE({}),\n"
      "                .STORE_T({}),\n"
      "                .OUTS({}),\n"
      "                .STEP_FILE(\"{}_steps.hex\"), .DST_FILE(\"{}_dst.hex\")) u_{} (\n"
      "      .clk, .rst, .in_data({}_r_data), .in_valid({}_r_valid), .in_ready({}_r_ready),\n"
      "      .out_data({}_w_data), .out_valid({}_w_valid), .out_ready({}_w_ready));\n",
      in.block, out.block, c.w, acc_bits, t.layout.ring, t.step_count, t.layout.suffix.size(),
      lines_literal(t.layout.suffix), t.layout.tail_writes,
      t.steps.lines, t.steps.loop,
      t.slots.lines, t.slots.loop, mask(t.layout.shares), mask(t.layout.stores),
      mask(transposed(t.layout.stores, ring, size_t(in.block))), mask(transposed(t.layout.outs, ring, size_t(out.block))), p.name, p.name, p.name, in.name, in.name, in.name, out.name, out.name, out.name);
}

std::vector<std::pair<std::string, std::string>> sum_files(const Ctx& c, ProcessId pid) {
  const Process& p = c.d.processes[pid];
  const SumTables t = sum_tables(c, pid);
  std::string steps, slots;
  for (int64_t i = 0; i < t.steps.lines; ++i) steps += fmt::format("{:x}\n", t.layout.steps[size_t(i)]);
  for (int64_t i = 0; i < t.slots.lines; ++i) slots += wide_hex(t.layout.slots[size_t(i)], t.layout.slot_bits());
  return {{p.name + "_steps.hex", steps}, {p.name + "_dst.hex", slots}};
}

}  // namespace inrarch::rtl::detail
