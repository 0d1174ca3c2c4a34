// The kernel call of each dataflow process: which library template (inrarch/*.h) models
// its Kind (the one dispatch key, dataflow/kernels.def), with streams in the design's operand order and constant operands as splat
// scalars or ROM arrays. The call's FIFO-op order is the process's schedule (trace check).
#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "backend/hls/emit_common.h"
#include "dataflow/elementwise.h"
#include "dataflow/kernels.h"
#include "support/error.h"

namespace inrarch::hls::detail {

using dataflow::Kind;
using dataflow::Process;

namespace {

// ", <flags>" when process pid writes an output port (its kernel's trailing flag
// argument: the kernel sets the top's overflow flag of that port), else "".
std::string trailing_flag(const Ctx& c, dataflow::ProcessId pid) {
  const std::string f = flag_arg(c, pid);
  return f.empty() ? f : ", " + f;
}

// The operator struct of an elementwise process: its row of dataflow/elementwise.def
// (inrarch/elementwise.h has one struct per row; the every-op test C-simulates each),
// op_mul_fabric for a multiply the design puts in LUTs.
std::string functor(const Ctx& c, const Process& p) {
  return std::string("inrarch_hls::") + dataflow::elementwise_row(c.d, p).functor;
}

// The template arguments of a ROM reader: "B", or "B, P" when the ROM holds only the P
// values a broadcast repeats (elementwise.h's from_rom wraps its index at P).
std::string rom_args(int64_t period, int64_t block) {
  if (period == 0) return std::to_string(block);
  return fmt::format("{}, {}", block, period);
}

// An elementwise operand: streamed(s), splat(v) or rom<B[, P]>(array); a constant holds
// value * 2^exp (scaling.h).
std::string ew_operand(const Ctx& c, const Process& p, size_t slot, int64_t block, int exp) {
  const auto& od = p.operands.at(slot);
  if (od.stream >= 0) return "inrarch_hls::streamed(" + c.var[od.stream] + ")";
  if (od.splat)
    return "inrarch_hls::splat(data_t(" + value_literal(c, std::ldexp(*od.splat, exp)) + "))";
  return fmt::format("inrarch_hls::rom<{}>({})", rom_args(rom_period(c, p, slot), block), rom_name(p, slot));
}

// The operator, wrapped with its operands' and output's exponents when any is not zero.
std::string scaled_functor(const Ctx& c, dataflow::ProcessId pid) {
  const Process& p = c.d.processes[pid];
  const std::vector<int>& e = c.scale.operand_exp[pid];
  int out = c.scale.stream_exp[p.outputs.at(0)];
  std::string f = functor(c, p);
  if (out == 0 && std::all_of(e.begin(), e.end(), [](int k) { return k == 0; })) return f;
  if (e.size() == 1) return fmt::format("inrarch_hls::scaled1<{}, {}, {}>", f, e[0], out);
  return fmt::format("inrarch_hls::scaled2<{}, {}, {}, {}>", f, e.at(0), e.at(1), out);
}

// unary<OP[, D[, FOLD]]> / binary<OP[, D[, FOLD]]>: D, the kernel's depth in steps
// (elementwise_steps), is written where it is not 1, the depth of every table and one-step op;
// FOLD, its cycles a beat (Process::ew_fold), where it is not 1.
std::string elementwise(const Ctx& c, dataflow::ProcessId pid) {
  const Process& p = c.d.processes[pid];
  const std::string& out = c.var[p.outputs.at(0)];
  int64_t block = c.d.streams[p.outputs[0]].block;
  const int64_t depth = dataflow::elementwise_steps(c.d, p);
  std::string f = scaled_functor(c, pid) + (depth != 1 || p.ew_fold != 1 ? fmt::format(", {}", depth) : "") +
                  (p.ew_fold != 1 ? fmt::format(", {}", p.ew_fold) : "");
  if (p.operands.size() == 1)
    return fmt::format("inrarch_hls::unary<{}>({}, {}, {}{})", f, c.rows_arg(), c.var[p.inputs.at(0)], out,
                       trailing_flag(c, pid));
  const std::vector<int>& e = c.scale.operand_exp[pid];
  return fmt::format("inrarch_hls::binary<{}>({}, {}, {}, {}{})", f, c.rows_arg(),
                     ew_operand(c, p, 0, block, e[0]), ew_operand(c, p, 1, block, e[1]), out,
                     trailing_flag(c, pid));
}

// mm<PAR, SHIFT, DEPTH>: PAR is the stored lanes (Process::mm_lanes, the lane rule applied
// once by set_mm_par: the array partitions and ROM banks of mm.h follow it); SHIFT realigns
// the accumulator to the output's exponent; DEPTH is the stored pipeline depth
// (Process::mm_depth): mm.h writes each beat that many cycles after its MAC cycle.
std::string mm(const Ctx& c, dataflow::ProcessId pid) {
  const Process& p = c.d.processes[pid];
  const auto& a = p.operands.at(0);
  const auto& b = p.operands.at(1);
  const std::vector<int>& e = c.scale.operand_exp[pid];
  int shift = c.scale.stream_exp[p.outputs.at(0)] - e.at(0) - e.at(1);
  std::string params = fmt::format("{}, {}, {}", p.mm_lanes, shift, p.mm_depth);
  const std::string out = c.var[p.outputs.at(0)] + trailing_flag(c, pid);
  if (a.stream >= 0 && b.stream >= 0)
    return fmt::format("inrarch_hls::mm<{}>({}, {}, {})", params, c.var[a.stream],
                       c.var[b.stream], out);
  if (a.stream >= 0)
    return fmt::format("inrarch_hls::mm_rom_b<{}>({}, {}, {}, {})", params, c.rows_arg(),
                       c.var[a.stream], rom_name(p, 1), out);
  return fmt::format("inrarch_hls::mm_rom_a<{}>({}, {}, {})", params, rom_name(p, 0),
                     c.var[b.stream], out);
}

// mm_reduce<PAR[, SHIFT]>(a, b, c): both operands streamed by rows (mm_reduce.h).
std::string mm_reduce(const Ctx& c, dataflow::ProcessId pid) {
  const Process& p = c.d.processes[pid];
  const std::vector<int>& e = c.scale.operand_exp[pid];
  int shift = c.scale.stream_exp[p.outputs.at(0)] - e.at(0) - e.at(1);
  std::string params = std::to_string(p.mm_lanes) + (shift ? ", " + std::to_string(shift) : "");
  return fmt::format("inrarch_hls::mm_reduce<{}>({}, {}, {}{})", params, c.var[p.operands.at(0).stream],
                     c.var[p.operands.at(1).stream], c.var[p.outputs.at(0)], trailing_flag(c, pid));
}

std::string join_ints(const std::vector<int64_t>& v) {
  std::string s;
  for (size_t i = 0; i < v.size(); ++i) s += (i ? ", " : "") + std::to_string(v[i]);
  return s;
}

// The gather map type of a data-movement op (movement.h), dims normalized.
std::string gather_map(const Ctx& c, const Process& p, const ir::Shape& out_full) {
  const ir::Shape in = row_shape(c, p.operands.at(0).shape), out = row_shape(c, out_full);
  std::string si = shape_type(in), so = shape_type(out);
  auto rank = static_cast<int64_t>(in.size());
  switch (p.kind) {
    case Kind::IdentityMap: return fmt::format("inrarch_hls::map_identity<{}, {}>", si, so);
    case Kind::ExpandMap: return fmt::format("inrarch_hls::map_expand<{}, {}>", si, so);
    case Kind::SelectMap: {
      int64_t dim = ir::normalize_dim(p.attrs.dim, rank, "select");
      int64_t index = p.attrs.index < 0 ? p.attrs.index + in[dim] : p.attrs.index;
      return fmt::format("inrarch_hls::map_select<{}, {}, {}, {}>", si, so, dim, index);
    }
    case Kind::SliceMap: {
      int64_t dim = ir::normalize_dim(p.attrs.dim, rank, "slice");
      int64_t start = p.attrs.start < 0 ? p.attrs.start + in[dim] : p.attrs.start;
      return fmt::format("inrarch_hls::map_slice<{}, {}, {}, {}, {}>", si, so, dim, start,
                         p.attrs.step);
    }
    case Kind::CatMap: {
      int64_t dim = ir::normalize_dim(p.attrs.dim, static_cast<int64_t>(out.size()), "cat");
      std::string shapes;
      for (const auto& od : p.operands) shapes += ", " + shape_type(row_shape(c, od.shape));
      return fmt::format("inrarch_hls::map_cat<{}, {}{}>", so, dim, shapes);
    }
    case Kind::SumMap: {
      int64_t mask = 0;
      for (int64_t d = 0; d < rank; ++d) mask |= p.attrs.dims.empty() ? (1 << d) : 0;
      for (int64_t d : p.attrs.dims) mask |= int64_t(1) << ir::normalize_dim(d, rank, "sum");
      return fmt::format("inrarch_hls::map_sum<{}, {}, {}, {}>", si, so, mask,
                         p.attrs.keepdim ? 1 : 0);
    }
    case Kind::Source: case Kind::Sink: case Kind::Copy: case Kind::Unary: case Kind::Binary: case Kind::Mm:
    case Kind::MmReduce: case Kind::Transpose: case Kind::Permute: case Kind::Custom: break;  // not gathers
  }
  throw Error("hls: no gather kernel for " + std::string(ir::op_name(p.op)) + " (" + p.name + ")");
}

std::string gather(const Ctx& c, dataflow::ProcessId pid) {
  const Process& p = c.d.processes[pid];
  std::string ins;
  for (size_t k = 0; k < p.operands.size(); ++k) {
    const auto& od = p.operands[k];
    if (od.stream >= 0) {
      ins += ", " + c.var[od.stream];
      continue;
    }
    // A constant operand (cat with zeros from slice/select backward): a ROM or a splat,
    // at the moved data's exponent.
    int exp = c.scale.operand_exp[pid][k];
    std::string value = od.splat ? "data_t(" + value_literal(c, std::ldexp(*od.splat, exp)) + ")"
                                 : rom_name(p, k);
    ins += ", inrarch_hls::const_operand<data_t, " + shape_type(row_shape(c, od.shape)) + " >(" + value + ")";
  }
  const auto& os = c.d.streams[p.outputs.at(0)];
  const std::string flag = flag_arg(c, pid);
  if (!flag.empty())
    return fmt::format("inrarch_hls::gather_port<{} >({}, {}, {}{})", gather_map(c, p, os.shape),
                       c.rows_arg(), flag, c.var[p.outputs[0]], ins);
  return fmt::format("inrarch_hls::gather<{} >({}, {}{})", gather_map(c, p, os.shape), c.rows_arg(),
                     c.var[p.outputs[0]], ins);
}

}  // namespace

std::string kernel_call(const Ctx& c, dataflow::ProcessId pid) {
  const Process& p = c.d.processes.at(pid);
  const std::string flag = trailing_flag(c, pid);
  switch (p.kind) {
    case Kind::Source:
      if (p.op == ir::Op::Input) return "";
      if (int64_t period = rom_period(c, p, 0); period > 0)  // a broadcast constant output: wrap at P
        return fmt::format("inrarch_hls::rom_source<{}>({}, {}, {}{})", period, c.rows_arg(),
                           rom_name(p, 0), c.var[p.outputs.at(0)], flag);
      return fmt::format("inrarch_hls::rom_source({}, {}, {}{})", c.rows_arg(), rom_name(p, 0),
                         c.var[p.outputs.at(0)], flag);
    case Kind::Sink: return "";
    case Kind::Copy: {
      std::string outs;
      for (auto s : p.outputs) outs += ", " + c.var[s];
      const std::string flags = flag_arg(c, pid);
      if (flags.find(',') != std::string::npos)  // one value under several names: a flag each
        return fmt::format("inrarch_hls::copy_stream_ports({}, {}{}, {})", c.rows_arg(),
                           c.var[p.inputs.at(0)], outs, flags);
      if (!flags.empty())
        return fmt::format("inrarch_hls::copy_stream_port({}, {}, {}{})", c.rows_arg(), flags,
                           c.var[p.inputs.at(0)], outs);
      return fmt::format("inrarch_hls::copy_stream({}, {}{})", c.rows_arg(), c.var[p.inputs.at(0)], outs);
    }
    case Kind::Unary: case Kind::Binary: return elementwise(c, pid);
    case Kind::Mm: return mm(c, pid);
    case Kind::MmReduce: return mm_reduce(c, pid);
    case Kind::Transpose:
      return fmt::format("inrarch_hls::permute<1, 0>({}, {}{})", c.var[p.inputs.at(0)],
                         c.var[p.outputs.at(0)], flag);
    case Kind::Permute:
      return fmt::format("inrarch_hls::permute<{}>({}, {}{})", join_ints(p.attrs.perm),
                         c.var[p.inputs.at(0)], c.var[p.outputs.at(0)], flag);
    case Kind::IdentityMap: case Kind::ExpandMap: case Kind::SelectMap: case Kind::SliceMap: case Kind::CatMap:
    case Kind::SumMap: return gather(c, pid);
    case Kind::Custom: break;
  }
  throw Error("hls: process " + p.name + " is a custom (hand-made) process: no kernel to emit");
}

}  // namespace inrarch::hls::detail
