// Lowering: IR graph -> processes and streams.
//
// 1. Mark "static" nodes (no input below them): they are folded into their consumers.
// 2. Create processes in topological (live) order: a source per input, a kernel per
//    non-static non-leaf node, a copy right after any value with more than one consumer;
//    sinks last, in output order.
// 3. Create streams consumer by consumer, operand slot by slot, so that a copy's outputs
//    come in the order of its consumers (that is its round-robin order).
// Chain fan-out: the chain's consumer order comes from a star lowering resolved with all
//    FIFOs unbounded, earliest mean read time first; consumers in lock step share a copy
//    (a link between them would hold nothing). Each link of the chain then holds only
//    the lag between two successive consumers, so a beat read at lags s1 < s2 < s3 needs
//    about s3 beats of FIFO instead of s1 + s2 + s3 (the star's three copies).
#include "dataflow/lower.h"

#include <algorithm>
#include <numeric>
#include <tuple>
#include <unordered_map>
#include <unordered_set>

#include <fmt/format.h>

#include "dataflow/attributes.h"
#include "dataflow/event_graph.h"
#include "dataflow/kernels.h"
#include "dataflow/reduce_rows.h"
#include "dataflow/schedule.h"
#include "dataflow/verify.h"
#include "support/error.h"
#include "support/limits.h"

namespace inrarch::dataflow {

namespace {

std::string sanitize(const std::string& s) {
  std::string out;
  for (char c : s) out += (std::isalnum(static_cast<unsigned char>(c)) || c == '_') ? c : '_';
  return out.empty() ? "_" : out;
}

// The scalar value of a static node that is a splat seen through shape-only ops.
std::optional<double> splat_value(const ir::Graph& g, ir::NodeId v) {
  const auto& n = g.node(v);
  if (n.is_splat()) return n.attrs.value;
  switch (n.op) {
    case ir::Op::Expand: case ir::Op::Reshape: case ir::Op::Unsqueeze: case ir::Op::Squeeze:
    case ir::Op::Transpose: case ir::Op::Permute: case ir::Op::Select: case ir::Op::Slice:
      return splat_value(g, n.operands[0]);
    case ir::Op::Neg: {
      auto x = splat_value(g, n.operands[0]);
      return x ? std::optional<double>(-*x) : std::nullopt;
    }
    // Not a splat through these (a dense constant, or values that differ element to element);
    // a new op must say which it is (-Werror=switch).
    case ir::Op::Input: case ir::Op::Param: case ir::Op::Const: case ir::Op::Sin: case ir::Op::Cos:
    case ir::Op::Exp: case ir::Op::Tanh: case ir::Op::Relu: case ir::Op::Step: case ir::Op::Log: case ir::Op::Sqrt:
    case ir::Op::Add: case ir::Op::Sub: case ir::Op::Mul: case ir::Op::Div: case ir::Op::Mm:
    case ir::Op::Sum: case ir::Op::Cat: return std::nullopt;
  }
  return std::nullopt;
}

// True when every dim that `expand` broadcasts (in -> out, same rank) comes before every
// source dim of size > 1: then element f of out is element f mod numel(in) of in, so a ROM
// of in read with a wrapping index replaces one of out. [1,N] -> [M,N] qualifies,
// [M,1] -> [M,N] (a column repeated along rows) does not.
bool leading_broadcast(const ir::Shape& in, const ir::Shape& out) {
  bool kept = false;  // a source dim of size > 1 seen
  for (size_t i = 0; i < in.size(); ++i) {
    if (in[i] != out[i] && kept) return false;
    kept = kept || in[i] > 1;
  }
  return true;
}

// What a constant operand's ROM stores: {node, period}. Looks through leading-broadcast
// expands and the shape-only ops that keep the row-major order (reshape, unsqueeze,
// squeeze); the deepest expand crossed gives the period P (its source's numel, which
// divides every period above it, so one mod suffices). P must be 1 or a multiple of the
// operand's last dim, so that a beat (which divides the last dim) never wraps inside: the
// kernel then wraps a running index once per beat, no divider (elementwise.h from_rom).
// A reshape can break that ([3] repeated as [4,6]): such an expand is not taken.
// {v, 0} when no expand shrinks the ROM.
std::pair<ir::NodeId, int64_t> rom_of(const ir::Graph& g, ir::NodeId v) {
  const ir::Shape& shape = g.shape(v);
  const int64_t last = shape.empty() ? 1 : shape.back();
  std::pair<ir::NodeId, int64_t> rom{v, 0};
  for (ir::NodeId at = v;;) {
    const auto& n = g.node(at);
    if (n.op == ir::Op::Expand && leading_broadcast(g.shape(n.operands[0]), n.shape)) {
      at = n.operands[0];
      int64_t period = numel(g.shape(at));
      if (period == 1 || period % last == 0) rom = {at, period};
    } else if (n.op == ir::Op::Reshape || n.op == ir::Op::Unsqueeze || n.op == ir::Op::Squeeze) {
      at = n.operands[0];
    } else {
      break;
    }
  }
  if (rom.second >= numel(shape)) rom = {v, 0};  // nothing broadcast: nothing saved
  return rom;
}

// Fills a constant operand (od.static_node set): its splat value, else its ROM. Only
// elementwise kernels and constant-output sources read their ROM with a wrapping index;
// mm and gather index the operand's full array.
void set_constant(const ir::Graph& g, Operand& od, bool periodic) {
  od.splat = splat_value(g, od.static_node);
  od.rom_node = od.static_node;
  if (!od.splat && periodic) std::tie(od.rom_node, od.rom_period) = rom_of(g, od.static_node);
}

// The kind of the process that computes n: its op's (ops.def), a binary elementwise op with
// a constant operand being Unary (the constant is a parameter or a ROM).
Kind lowered_kind(const ir::Node& n, const std::vector<bool>& st) {
  const Kind k = kernel_kind(n.op);
  INRARCH_ASSERT(k != Kind::Source, "lower: a leaf is not a kernel");
  if (k != Kind::Binary) return k;
  bool constant_operand = std::any_of(n.operands.begin(), n.operands.end(), [&](ir::NodeId o) { return st[o]; });
  return constant_operand ? Kind::Unary : Kind::Binary;
}

// Chain fan-out of one value: the group (chain position) of each of its consumers, by link
// order. Consumers that read in lock step (equal mean read time) share a group, i.e. one copy
// (a star within the group): a link between them would hold nothing but cost a FIFO.
using ChainPos = ChainOrder;

size_t chain_copies(const ChainPos* pos, ir::NodeId v, int fanout) {
  if (!pos || !pos->count(v)) return static_cast<size_t>(fanout - 1);
  const auto& grp = pos->at(v);
  size_t last = *std::max_element(grp.begin(), grp.end());
  // A lone last consumer shares the previous group's copy (as in a plain chain); a last
  // group of several gets its own copy, so their common lag is held once, on the link.
  if (last == 0 || std::count(grp.begin(), grp.end(), last) > 1) return last + 1;
  return last;
}

struct Builder {
  const ir::Graph& g;
  const LowerOptions& opt;
  Design d;
  std::vector<bool> st;
  std::unordered_map<ir::NodeId, int> number;         // print_text numbering
  std::unordered_map<ir::NodeId, ProcessId> proc_of;  // producer of a value
  std::unordered_map<ir::NodeId, std::vector<ProcessId>> copy_of;  // its copies, when fanned out
  std::unordered_map<ir::NodeId, size_t> linked;  // consumers of a value linked so far
  std::unordered_map<ir::NodeId, int> fanout;
  const ChainPos* chain_pos = nullptr;  // chain fan-out only
  RowReductions reductions;             // mms lowered as mm_reduce (reduce_rows.h)

  // The node that operand `slot` of node v streams: a batch reduction's A reads the value
  // under the transpose it absorbed.
  ir::NodeId streamed_operand(ir::NodeId v, size_t slot) const {
    auto it = reductions.a_of.find(v);
    return slot == 0 && it != reductions.a_of.end() ? it->second : g.node(v).operands[slot];
  }

  void make_kernel(ir::NodeId v) {
    const auto& n = g.node(v);
    Process p;
    p.kind = reductions.a_of.count(v) ? Kind::MmReduce : lowered_kind(n, st);
    p.op = n.op;
    p.node = v;
    p.attrs = n.attrs;
    p.name = std::string(ir::op_name(n.op)) + "_" + std::to_string(number.at(v));
    for (size_t slot = 0; slot < n.operands.size(); ++slot) {
      const ir::NodeId o = streamed_operand(v, slot);
      Operand od;
      od.shape = g.shape(o);
      if (st[o]) {
        od.static_node = o;
        set_constant(g, od, p.kind == Kind::Unary);  // Unary: elementwise, incl. constant operand
        // An mm's MACs index their constant operand as an array (a ROM a line per cycle), so
        // a matrix of one value is held whole like any other.
        if (p.kind == Kind::Mm) od.splat.reset();
        // An mm's weights (a constant B) at their own width (LowerOptions::weight_bits).
        if (p.kind == Kind::Mm && slot == 1 && opt.weight_bits > 0 && opt.weight_bits < opt.elem_bits)
          od.rom_elem_bits = opt.weight_bits;
        if (!od.splat) p.rom_bits += od.rom_elems() * od.bits_at(opt.elem_bits);
      }
      p.operands.push_back(od);
    }
    proc_of[v] = d.add_process(std::move(p));
  }

  void make_source(ir::NodeId v) {
    const auto& n = g.node(v);
    Process p;
    p.kind = Kind::Source;
    p.op = n.op == ir::Op::Input ? ir::Op::Input : ir::Op::Const;
    p.node = v;
    if (n.op == ir::Op::Input) {
      p.name = "in_" + sanitize(n.attrs.name);
    } else {  // a constant output, played from ROM
      p.name = "const_" + std::to_string(number.at(v));
      Operand od{-1, v, std::nullopt, n.shape};
      set_constant(g, od, true);
      if (!od.splat) p.rom_bits = od.rom_elems() * opt.elem_bits;
      p.operands.push_back(std::move(od));
    }
    proc_of[v] = d.add_process(std::move(p));
  }

  void link(ir::NodeId v, ProcessId consumer, int slot) {
    ProcessId prod = proc_of.at(v);
    if (copy_of.count(v)) {  // star: the one copy; chain: consumer j on copy min(j, k-1)
      const auto& copies = copy_of.at(v);
      size_t j = linked[v]++;
      if (chain_pos && chain_pos->count(v)) j = chain_pos->at(v)[j];
      prod = copies[std::min(j, copies.size() - 1)];
    }
    Stream s;
    s.name = "s_" + d.processes[prod].name + "__" + d.processes[consumer].name;
    for (StreamId e : d.processes[consumer].inputs)
      if (d.streams[e].producer == prod) s.name += "_" + std::to_string(slot);
    s.producer = prod;
    s.consumer = consumer;
    s.slot = slot;
    s.shape = g.shape(v);
    s.block = stream_block(s.shape, opt.block, opt.rows);
    s.depth = opt.depth;
    s.elem_bits = opt.elem_bits;
    StreamId id = d.add_stream(std::move(s));
    if (slot < (int)d.processes[consumer].operands.size())
      d.processes[consumer].operands[slot].stream = id;
  }
};

// Processes in live order (a copy or chain of copies right after a fanned-out value), sinks
// last.
void make_processes(Builder& b) {
  const ir::Graph& g = b.g;
  const LowerOptions& options = b.opt;
  b.d.options = options;
  std::vector<ir::NodeId> live = ir::live_nodes(g);
  b.st = ir::static_nodes(g, live);
  b.reductions = find_row_reductions(g, live, b.st);
  for (size_t i = 0; i < live.size(); ++i) b.number[live[i]] = static_cast<int>(i);
  for (ir::NodeId v : live) {
    if (b.st[v] || b.reductions.absorbed.count(v)) continue;
    for (size_t slot = 0; slot < g.node(v).operands.size(); ++slot)
      if (ir::NodeId o = b.streamed_operand(v, slot); !b.st[o]) b.fanout[o]++;
  }
  for (const auto& out : g.outputs()) b.fanout[out.node]++;

  std::unordered_set<ir::NodeId> const_outputs;
  for (const auto& out : g.outputs())
    if (b.st[out.node]) const_outputs.insert(out.node);
  for (ir::NodeId v : live) {
    const auto& n = g.node(v);
    if (n.op == ir::Op::Input || const_outputs.count(v)) b.make_source(v);
    else if (!b.st[v] && !b.reductions.absorbed.count(v)) b.make_kernel(v);
    else continue;
    size_t copies = b.fanout[v] <= 1               ? 0
                    : options.fanout == Fanout::Star ? 1
                                                     : chain_copies(b.chain_pos, v, b.fanout[v]);
    for (size_t k = 0; k < copies; ++k) {
      Process c;
      c.kind = Kind::Copy;
      c.node = v;
      c.name = "copy_" + b.d.processes[b.proc_of[v]].name + (k ? "_" + std::to_string(k) : "");
      b.copy_of[v].push_back(b.d.add_process(std::move(c)));
    }
  }
  for (const auto& out : g.outputs()) {
    Process s;
    s.kind = Kind::Sink;
    s.node = out.node;
    s.name = "out_" + sanitize(out.name);
    b.d.add_process(std::move(s));
  }
}

// Streams, consumer by consumer; sinks are the last |outputs| processes.
void make_streams(Builder& b) {
  const ir::Graph& g = b.g;
  const LowerOptions& options = b.opt;
  size_t first_sink = b.d.processes.size() - g.outputs().size();
  for (size_t pi = 0; pi < b.d.processes.size(); ++pi) {
    const Process& p = b.d.processes[pi];
    auto id = static_cast<ProcessId>(pi);
    if (pi >= first_sink) {
      b.link(g.outputs()[pi - first_sink].node, id, 0);
    } else if (p.kind == Kind::Copy) {
      ir::NodeId v = p.node;
      const auto& copies = b.copy_of.at(v);
      size_t k = std::find(copies.begin(), copies.end(), id) - copies.begin();
      ProcessId from = k == 0 ? b.proc_of.at(v) : copies[k - 1];
      Stream s;
      s.name = "s_" + b.d.processes[from].name + "__" + p.name;
      s.producer = from;
      s.consumer = id;
      s.shape = g.shape(v);
      s.block = stream_block(s.shape, options.block, options.rows);
      s.depth = options.depth;
      s.elem_bits = options.elem_bits;
      b.d.add_stream(std::move(s));
    } else if (p.kind != Kind::Source) {
      for (size_t slot = 0; slot < g.node(p.node).operands.size(); ++slot)
        if (ir::NodeId o = b.streamed_operand(p.node, slot); !b.st[o]) b.link(o, id, static_cast<int>(slot));
    }
  }
}

Design lower_with(const ir::Graph& g, const LowerOptions& options, const ChainPos* chain_pos) {
  Builder b{g, options, {}, {}, {}, {}, {}, {}, {}, chain_pos, {}};
  make_processes(b);
  make_streams(b);
  for (size_t pi = 0; pi < b.d.processes.size(); ++pi) {
    b.d.processes[pi].buffer_bits = kernel_buffer_bits(b.d, static_cast<ProcessId>(pi));
    // The uniform MACs, capped by the lane rule once the output's block is known.
    if (has_macs(b.d.processes[pi].kind)) set_mm_par(b.d, static_cast<ProcessId>(pi), options.mm_par);
  }
  return std::move(b.d);
}

// For each value with >= 3 consumers: its consumers (in link order) grouped and ranked by
// mean read time in the unbounded resolve of the star design `star`.
ChainPos chain_positions(const Design& star) {
  auto wide = [](const Process& p) { return p.kind == Kind::Copy && p.outputs.size() >= 3; };
  ChainPos pos;
  if (std::none_of(star.processes.begin(), star.processes.end(), wide)) return pos;  // = star
  EventGraph eg(star);
  Resolution r = eg.resolve(std::vector<int64_t>(star.streams.size(), kUnbounded));
  if (r.deadlock) return pos;  // a schedule cycle: keep consumer order
  for (const Process& p : star.processes) {
    if (!wide(p)) continue;
    std::vector<double> mean;
    for (StreamId s : p.outputs) {
      auto t = eg.read_times(s);
      double sum = 0;
      for (uint32_t x : t) sum += x;
      mean.push_back(t.empty() ? 0 : sum / double(t.size()));
    }
    std::vector<size_t> by_time(mean.size()), rank(mean.size());
    std::iota(by_time.begin(), by_time.end(), 0);
    std::stable_sort(by_time.begin(), by_time.end(),
                     [&](size_t a, size_t b) { return mean[a] < mean[b]; });
    size_t group = 0;
    for (size_t k = 0; k < by_time.size(); ++k) {
      if (k > 0 && mean[by_time[k]] - mean[by_time[k - 1]] >= 0.5) ++group;
      rank[by_time[k]] = group;
    }
    pos[p.node] = std::move(rank);
  }
  return pos;
}

}  // namespace

int64_t stream_block(const ir::Shape& shape, int64_t requested, int64_t rows) {
  int64_t last = shape.empty() ? 1 : shape.back();
  if (shape.size() == 1 && rows > 0 && last % rows == 0) last /= rows;  // the batch's own dim
  for (int64_t b = std::max<int64_t>(1, std::min(requested, last)); b > 1; --b)
    if (last % b == 0) return b;
  return 1;
}

Design lower(const ir::Graph& g, const LowerOptions& options) {
  if (g.outputs().empty()) throw Error("lower: graph '" + g.name() + "' has no outputs");
  // Past kMaxParallel, a beat's or a MAC array's width in bits would overflow the counts.
  limits::check_range(options.block, 1, limits::kMaxParallel, fmt::format("block {}", options.block), "lower");
  limits::check_range(options.mm_par, 1, limits::kMaxParallel, fmt::format("mm_par {}", options.mm_par), "lower");
  if (options.elem_bits < 1) throw Error("lower: elem_bits must be >= 1");
  if (options.weight_bits < 0 || options.weight_bits > options.elem_bits)
    throw Error(fmt::format("lower: weight_bits {} is outside 0 to the element width {}", options.weight_bits,
                            options.elem_bits));
  Design d;
  if (options.fanout != Fanout::Chain) {
    d = lower_with(g, options, nullptr);
  } else if (options.chain_order) {
    d = lower_with(g, options, options.chain_order.get());
  } else {
    ChainPos pos = chain_order(g, options);
    d = lower_with(g, options, &pos);
  }
  verify_step(d, "lower");
  return d;
}

ChainOrder chain_order(const ir::Graph& g, const LowerOptions& options, const std::function<void(Design&)>& attrs) {
  LowerOptions star = options;
  star.fanout = Fanout::Star;
  star.chain_order.reset();
  Design d = lower_with(g, star, nullptr);
  if (attrs) attrs(d);
  return chain_positions(d);
}

}  // namespace inrarch::dataflow
