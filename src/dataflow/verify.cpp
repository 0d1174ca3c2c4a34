// The design verifier (verify.h): one pass over the streams, then one over the processes.
#include "dataflow/verify.h"

#include <algorithm>
#include <atomic>
#include <cctype>
#include <unordered_set>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "dataflow/attributes.h"
#include "dataflow/elementwise.h"
#include "dataflow/kernels.h"
#include "support/error.h"
#include "support/limits.h"

namespace inrarch::dataflow {

namespace {

bool identifier(const std::string& s) {
  if (s.empty() || std::isdigit(static_cast<unsigned char>(s[0]))) return false;
  return std::all_of(s.begin(), s.end(), [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; });
}

std::string shape_text(const ir::Shape& s) { return fmt::format("[{}]", fmt::join(s, ",")); }

struct Checker {
  const Design& d;
  std::string prefix;

  [[noreturn]] void fail(const std::string& what) const { throw Error(prefix + what); }
  // "process <name>" / "stream <name>", or the index when the name is the problem.
  std::string proc(ProcessId p) const {
    const std::string& n = d.processes[p].name;
    return n.empty() ? fmt::format("process #{}", p) : "process " + n;
  }
  std::string strm(StreamId s) const {
    const std::string& n = d.streams[s].name;
    return n.empty() ? fmt::format("stream #{}", s) : "stream " + n;
  }
  void check(bool ok, const std::string& who, const std::string& what) const {
    if (!ok) fail(who + ": " + what);
  }

  void names() const {
    std::unordered_set<std::string> seen;
    for (size_t p = 0; p < d.processes.size(); ++p) {
      const std::string& n = d.processes[p].name;
      check(identifier(n), proc(ProcessId(p)), "the name is not a C identifier");
      check(seen.insert(n).second, proc(ProcessId(p)), "a second process of this name");
    }
    seen.clear();
    for (size_t s = 0; s < d.streams.size(); ++s) {
      const std::string& n = d.streams[s].name;
      check(identifier(n), strm(StreamId(s)), "the name is not a C identifier");
      check(seen.insert(n).second, strm(StreamId(s)), "a second stream of this name");
    }
  }

  // How many times `list` holds s.
  static int64_t count(const std::vector<StreamId>& list, StreamId s) { return std::count(list.begin(), list.end(), s); }

  void stream(StreamId id) const {
    const Stream& s = d.streams[id];
    const std::string who = strm(id);
    const auto n = static_cast<ProcessId>(d.processes.size());
    check(s.producer >= 0 && s.producer < n, who, fmt::format("producer {} is not a process (the design has {})", s.producer, n));
    check(s.consumer >= 0 && s.consumer < n, who, fmt::format("consumer {} is not a process (the design has {})", s.consumer, n));
    check(s.producer != s.consumer, who, "its producer is its consumer (" + proc(s.producer) + ")");
    check(count(d.processes[s.producer].outputs, id) == 1, who,
          fmt::format("its producer {} lists it {} times among its outputs, not once", d.processes[s.producer].name,
                      count(d.processes[s.producer].outputs, id)));
    check(count(d.processes[s.consumer].inputs, id) == 1, who,
          fmt::format("its consumer {} lists it {} times among its inputs, not once", d.processes[s.consumer].name,
                      count(d.processes[s.consumer].inputs, id)));
    for (int64_t dim : s.shape) check(dim >= 1, who, "shape " + shape_text(s.shape) + " has a dim below 1");
    check(s.block >= 1 && s.block <= limits::kMaxParallel, who,
          fmt::format("block {} is outside 1 to {}", s.block, limits::kMaxParallel));
    // stream_block's guarantee: a beat never straddles a row of the last dim, nor a sample
    // of a rank-1 stream of the batch's rows.
    int64_t last = s.shape.empty() ? 1 : s.shape.back();
    if (s.shape.size() == 1 && d.options.rows > 0 && last % d.options.rows == 0) last /= d.options.rows;
    check(last % s.block == 0, who,
          fmt::format("block {} does not divide {} (the last dim of {}{}): a beat would straddle a row", s.block, last,
                      shape_text(s.shape), s.shape.size() == 1 && d.options.rows > 0 ? " per row" : ""));
    check(s.depth >= 1, who, fmt::format("depth {} is below 1", s.depth));
    check(s.elem_bits >= 1, who, fmt::format("elem_bits {} is below 1", s.elem_bits));
  }

  // The process's own stream lists: in range, and it is the end of each.
  void ends(ProcessId p) const {
    const Process& pr = d.processes[p];
    const auto n = static_cast<StreamId>(d.streams.size());
    for (StreamId s : pr.inputs) {
      check(s >= 0 && s < n, proc(p), fmt::format("input {} is not a stream (the design has {})", s, n));
      check(d.streams[s].consumer == p, proc(p),
            fmt::format("lists {} among its inputs but is not its consumer ({} is)", d.streams[s].name,
                        d.processes[d.streams[s].consumer].name));
    }
    for (StreamId s : pr.outputs) {
      check(s >= 0 && s < n, proc(p), fmt::format("output {} is not a stream (the design has {})", s, n));
      check(d.streams[s].producer == p, proc(p),
            fmt::format("lists {} among its outputs but is not its producer ({} is)", d.streams[s].name,
                        d.processes[d.streams[s].producer].name));
    }
  }

  void stream_counts(ProcessId p) const {
    const Process& pr = d.processes[p];
    const std::string who = proc(p);
    auto expect = [&](size_t ins, size_t outs) {
      check(pr.inputs.size() == ins && pr.outputs.size() == outs, who,
            fmt::format("a {} has {} input and {} output streams, not {} and {}", kind_name(pr.kind), pr.inputs.size(),
                        pr.outputs.size(), ins, outs));
    };
    switch (pr.kind) {
      case Kind::Source: expect(0, 1); return;
      case Kind::Sink: expect(1, 0); return;
      case Kind::Copy: {
        check(pr.inputs.size() == 1 && !pr.outputs.empty(), who,
              fmt::format("a copy has {} input and {} output streams, not 1 and at least 1", pr.inputs.size(),
                          pr.outputs.size()));
        const Stream& in = d.streams[pr.inputs[0]];
        for (StreamId s : pr.outputs)
          check(d.streams[s].shape == in.shape && d.streams[s].block == in.block, who,
                fmt::format("copies {} ({}, block {}) to {} ({}, block {}): a copy writes the beats it reads", in.name,
                            shape_text(in.shape), in.block, d.streams[s].name, shape_text(d.streams[s].shape),
                            d.streams[s].block));
        return;
      }
      case Kind::Unary: case Kind::Binary: case Kind::Mm: case Kind::MmReduce: case Kind::Transpose:
      case Kind::Permute: case Kind::IdentityMap: case Kind::ExpandMap: case Kind::SelectMap: case Kind::SliceMap:
      case Kind::CatMap: case Kind::SumMap:
        check(pr.outputs.size() == 1, who, fmt::format("a kernel has {} output streams, not 1", pr.outputs.size()));
        return;
      case Kind::Custom: return;  // an explicit step list: any streams
    }
  }

  void operands(ProcessId p) const {
    const Process& pr = d.processes[p];
    const std::string who = proc(p);
    if (pr.kind == Kind::Source) {
      check(pr.op == ir::Op::Input || pr.op == ir::Op::Const, who, "a source of an op other than input or const");
      const size_t want = pr.op == ir::Op::Const ? 1 : 0;
      check(pr.operands.size() == want, who,
            fmt::format("a source of {} has {} operands, not {}", ir::op_name(pr.op), pr.operands.size(), want));
    } else if (!is_kernel(pr.kind)) {
      check(pr.operands.empty(), who, fmt::format("a {} has {} operands, not none", kind_name(pr.kind), pr.operands.size()));
    }
    for (size_t k = 0; k < pr.operands.size(); ++k) {
      const Operand& od = pr.operands[k];
      const bool streamed = od.stream >= 0, constant = od.static_node != ir::kNoNode;
      check(streamed != constant, who,
            fmt::format("operand {} is {}", k, streamed ? "both streamed and constant" : "neither streamed nor constant"));
      check(od.rom_period >= 0 && (od.rom_period == 0 || numel(od.shape) % od.rom_period == 0), who,
            fmt::format("operand {}: ROM period {} does not divide its {} elements", k, od.rom_period, numel(od.shape)));
      check(od.rom_elem_bits == 0 || (!streamed && !od.splat && pr.kind == Kind::Mm && k == 1 &&
                                       od.rom_elem_bits < d.options.elem_bits),
            who, fmt::format("operand {}: ROM elements of {} bits, but only an mm's constant B may be narrower than "
                             "the design's {}",
                             k, od.rom_elem_bits, d.options.elem_bits));
      if (!streamed) continue;
      check(od.stream < (StreamId)d.streams.size(), who, fmt::format("operand {}: stream {} is not a stream", k, od.stream));
      const Stream& s = d.streams[od.stream];
      check(s.consumer == p && s.slot == (int32_t)k, who,
            fmt::format("operand {} is {}, whose consumer is {} at slot {}", k, s.name, d.processes[s.consumer].name, s.slot));
      check(s.shape == od.shape, who,
            fmt::format("operand {} has shape {} but its stream {} has {}", k, shape_text(od.shape), s.name,
                        shape_text(s.shape)));
    }
    check(pr.rom_bits >= 0 && pr.buffer_bits >= 0, who, "negative ROM or buffer bits");
    if (is_kernel(pr.kind)) kernel_operands(p);
  }

  // A kernel: the op's kind (ops.def) says the process's; the op's arity the operands.
  void kernel_operands(ProcessId p) const {
    const Process& pr = d.processes[p];
    const std::string who = proc(p);
    const Kind want = kernel_kind(pr.op);
    // A binary op with a constant operand is Unary; a batch reduction is an mm that lowering
    // gave a kernel of its own (reduce_rows.h).
    const bool ok = want == pr.kind || (want == Kind::Binary && pr.kind == Kind::Unary) ||
                    (want == Kind::Mm && pr.kind == Kind::MmReduce);
    check(want != Kind::Source && ok, who,
          fmt::format("a {} process computing {} (ops.def's kind {})", kind_name(pr.kind), ir::op_name(pr.op),
                      kind_name(want)));
    const int arity = ir::op_info(pr.op).arity;
    check(arity < 0 ? !pr.operands.empty() : pr.operands.size() == size_t(arity), who,
          fmt::format("{} takes {} operands, the process has {}", ir::op_name(pr.op),
                      arity < 0 ? std::string("at least 1") : std::to_string(arity), pr.operands.size()));
    size_t streamed = 0;
    for (const Operand& od : pr.operands) streamed += od.stream >= 0;
    check(streamed == pr.inputs.size(), who,
          fmt::format("{} streamed operands but {} input streams", streamed, pr.inputs.size()));
    for (StreamId s : pr.inputs) {
      const int32_t slot = d.streams[s].slot;
      check(slot >= 0 && size_t(slot) < pr.operands.size() && pr.operands[slot].stream == s, who,
            fmt::format("input {} is at slot {}, which is not an operand streamed from it ({} operands)",
                        d.streams[s].name, slot, pr.operands.size()));
    }
    check(streamed >= 1, who, "no streamed operand: a kernel of constants is folded, not lowered");
    const Stream& out = d.streams[pr.outputs[0]];
    if (ir::is_elementwise(pr.op)) {
      check(pr.kind == Kind::Binary ? streamed == 2 : streamed == 1, who,
            fmt::format("a {} kernel with {} streamed operands", kind_name(pr.kind), streamed));
      for (size_t k = 0; k < pr.operands.size(); ++k) {
        const Operand& od = pr.operands[k];
        check(od.shape == out.shape, who,
              fmt::format("operand {} has shape {}, the output {} has {}", k, shape_text(od.shape), out.name,
                          shape_text(out.shape)));
        if (od.stream >= 0)
          check(d.streams[od.stream].block == out.block, who,
                fmt::format("operand {} ({}) has block {}, the output {} block {}: elementwise reads beat i of each "
                            "and writes beat i", k, d.streams[od.stream].name, d.streams[od.stream].block, out.name,
                            out.block));
      }
    }
    if (pr.kind == Kind::Mm) {
      const ir::Shape &a = pr.operands[0].shape, &b = pr.operands[1].shape;
      check(a.size() == 2 && b.size() == 2 && a[1] == b[0] && out.shape == ir::Shape{a[0], b[1]}, who,
            fmt::format("mm of {} and {} into {} ({}): not [M,K]·[K,N] -> [M,N]", shape_text(a), shape_text(b),
                        out.name, shape_text(out.shape)));
    }
    if (pr.kind == Kind::MmReduce) {
      const ir::Shape &a = pr.operands[0].shape, &b = pr.operands[1].shape;
      check(a.size() == 2 && b.size() == 2 && a[0] == b[0] && out.shape == ir::Shape{a[1], b[1]}, who,
            fmt::format("mm_reduce of {} and {} into {} ({}): not [R,K], [R,N] -> [K,N]", shape_text(a),
                        shape_text(b), out.name, shape_text(out.shape)));
      check(pr.operands[0].stream >= 0 && pr.operands[1].stream >= 0, who,
            "mm_reduce streams both operands by rows");
    }
  }

  // A dim attribute of rank `rank` (negative counts from the end; `past` allows == rank).
  void dim_in_range(ProcessId p, const char* what, int64_t dim, int64_t rank, bool past = false) const {
    const int64_t hi = past ? rank : rank - 1;
    check(dim >= -(hi + 1) && dim <= hi, proc(p), fmt::format("{} {} is out of range for rank {}", what, dim, rank));
  }

  // The MACs: the lane rule on an mm, none elsewhere.
  void macs(ProcessId p) const {
    const Process& pr = d.processes[p];
    const std::string who = proc(p);
    if (has_macs(pr.kind)) {
      check(pr.mm_par >= 1 && pr.mm_par <= limits::kMaxParallel, who,
            fmt::format("mm_par {} is outside 1 to {}", pr.mm_par, limits::kMaxParallel));
      const int64_t work = mm_beat_work(d, pr);
      check(pr.mm_lanes >= 1, who, fmt::format("mm_lanes {} is below 1", pr.mm_lanes));
      check(pr.mm_lanes <= work, who,
            fmt::format("mm_lanes {} is above the {} products of {}", pr.mm_lanes, work,
                        pr.kind == Kind::Mm ? "an output beat (bC*K)" : "a row pair (K*N)"));
      check(pr.mm_lanes == std::min(pr.mm_par, work), who,
            fmt::format("mm_lanes {} but the lane rule gives min(mm_par {}, {} {}) = {} (set_mm_par sets both)",
                        pr.mm_lanes, pr.mm_par, pr.kind == Kind::Mm ? "bC*K" : "K*N", work,
                        std::min(pr.mm_par, work)));
      const auto [a_bits, b_bits] = mm_operand_bits(d, pr);
      const int64_t depth = pr.kind == Kind::Mm ? mm_pipeline_depth(pr.mm_lanes, mm_inner(pr), a_bits, b_bits) : 0;  // mm_reduce: none
      check(pr.mm_depth == depth, who,
            fmt::format("mm_depth {} but {} lanes give a pipeline of {} (set_mm_par sets both)", pr.mm_depth,
                        pr.mm_lanes, depth));
    } else {
      check(pr.mm_par == 1 && pr.mm_lanes == 1 && pr.mm_depth == 0, who,
            fmt::format("a {} with mm_par {}, mm_lanes {} and mm_depth {}: only an mm has MACs", kind_name(pr.kind),
                        pr.mm_par, pr.mm_lanes, pr.mm_depth));
    }
    // The fold: block / ew_fold lanes on an elementwise kernel, one cycle a beat elsewhere.
    const bool ew = is_elementwise(pr.kind);
    const int64_t block = ew && !pr.outputs.empty() ? d.streams[pr.outputs[0]].block : 1;
    const int64_t f = pr.ew_fold;
    check(f == 1 || (ew && fold_fits(block, f)), who,
          fmt::format("ew_fold {}: {}", f, ew ? fmt::format("not a power of two dividing the block {}", block)
                                              : "only an elementwise kernel folds"));
  }

  void steps(ProcessId p) const {
    const Process& pr = d.processes[p];
    const std::string who = proc(p);
    if (pr.kind == Kind::Custom) {
      for (size_t i = 0; i < pr.custom_steps.size(); ++i) {
        const Step& st = pr.custom_steps[i];
        check(st.delay >= 1, who, fmt::format("custom step {} has delay {}, below 1", i, st.delay));
        for (const FifoOp& op : st.ops) {
          const bool mine = op.stream >= 0 && op.stream < (StreamId)d.streams.size() &&
                            (op.write ? d.streams[op.stream].producer : d.streams[op.stream].consumer) == p;
          check(mine, who, fmt::format("custom step {} {} stream {}, which it is not the {} of", i,
                                       op.write ? "writes" : "reads", op.stream, op.write ? "producer" : "consumer"));
        }
      }
    } else {
      check(pr.custom_steps.empty(), who, "explicit steps on a process that is not custom");
    }
  }

  // The op's attributes against its operand's rank.
  void attributes(ProcessId p) const {
    const Process& pr = d.processes[p];
    const std::string who = proc(p);
    if (!is_kernel(pr.kind) || pr.operands.empty()) return;
    const int64_t rank = static_cast<int64_t>(pr.operands[0].shape.size());
    const ir::Attrs& at = pr.attrs;
    switch (pr.op) {
      case ir::Op::Transpose: check(rank == 2, who, fmt::format("transpose of rank {}, not 2", rank)); break;
      case ir::Op::Permute: {
        std::vector<int64_t> sorted = at.perm;
        std::sort(sorted.begin(), sorted.end());
        bool ok = int64_t(sorted.size()) == rank;
        for (size_t i = 0; ok && i < sorted.size(); ++i) ok = sorted[i] == int64_t(i);
        check(ok, who, fmt::format("perm [{}] is not a permutation of the {} dims", fmt::join(at.perm, ","), rank));
        break;
      }
      case ir::Op::Select:
        dim_in_range(p, "dim", at.dim, rank);
        if (rank > 0) {
          const int64_t n = pr.operands[0].shape[at.dim < 0 ? at.dim + rank : at.dim];
          check(at.index >= -n && at.index < n, who, fmt::format("index {} is out of range for a dim of {}", at.index, n));
        }
        break;
      case ir::Op::Slice:
        dim_in_range(p, "dim", at.dim, rank);
        check(at.step >= 1, who, fmt::format("slice step {} is below 1", at.step));
        break;
      case ir::Op::Unsqueeze: dim_in_range(p, "dim", at.dim, rank, true); break;
      case ir::Op::Squeeze: case ir::Op::Cat: dim_in_range(p, "dim", at.dim, rank); break;
      case ir::Op::Sum:
        for (int64_t dim : at.dims) dim_in_range(p, "sum dim", dim, rank);
        break;
      // No attributes to check (a new op with attributes must be added here, -Werror=switch).
      case ir::Op::Input: case ir::Op::Param: case ir::Op::Const: case ir::Op::Neg: case ir::Op::Sin:
      case ir::Op::Cos: case ir::Op::Exp: case ir::Op::Tanh: case ir::Op::Relu: case ir::Op::Step:
      case ir::Op::Log: case ir::Op::Sqrt: case ir::Op::Add: case ir::Op::Sub: case ir::Op::Mul: case ir::Op::Div:
      case ir::Op::Mm: case ir::Op::Reshape: case ir::Op::Expand: break;
    }
  }
};

}  // namespace

namespace {
std::atomic<bool> g_verify_each{false};
}  // namespace

void set_verify_each(bool on) { g_verify_each.store(on, std::memory_order_relaxed); }
bool verify_each() { return g_verify_each.load(std::memory_order_relaxed); }
void verify_step(const Design& d, const std::string& after) {
  if (verify_each()) verify(d, after);
}

void verify(const Design& d) { verify(d, ""); }

void verify(const Design& d, const std::string& after) {
  const Checker c{d, after.empty() ? "design verifier: " : "design verifier (after " + after + "): "};
  const LowerOptions& o = d.options;
  if (o.block < 1 || o.block > limits::kMaxParallel || o.mm_par < 1 || o.mm_par > limits::kMaxParallel ||
      o.elem_bits < 1)
    c.fail(fmt::format("options: block {}, mm_par {} or elem_bits {} out of range", o.block, o.mm_par, o.elem_bits));
  c.names();
  for (size_t s = 0; s < d.streams.size(); ++s) c.stream(StreamId(s));
  for (size_t p = 0; p < d.processes.size(); ++p) {
    const auto pid = static_cast<ProcessId>(p);
    c.ends(pid);
    c.stream_counts(pid);
    c.operands(pid);
    c.macs(pid);
    c.steps(pid);
    c.attributes(pid);
  }
}

}  // namespace inrarch::dataflow
