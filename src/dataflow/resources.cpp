// The resource model (resources.h): per-process compute and memory, FIFOs, and the BRAM /
// URAM placement of the arrays.
#include "dataflow/resources.h"

#include <algorithm>
#include <set>
#include <type_traits>

#include "dataflow/attributes.h"
#include "dataflow/elementwise.h"
#include "dataflow/gather_layout.h"
#include "dataflow/memory.h"
#include "dataflow/resources_detail.h"
#include "dataflow/schedule.h"
#include "dataflow/sum_layout.h"
#include "support/error.h"
#include "support/looped_table.h"

namespace inrarch::dataflow {

Usage& Usage::operator+=(const Usage& o) {
  dsp += o.dsp, bram18k += o.bram18k, uram += o.uram, lut += o.lut, ff += o.ff;
  return *this;
}

namespace {

int64_t ceil_div(int64_t a, int64_t b) { return (a + b - 1) / b; }

// `total` words read `lanes` at a time: that many banks (cyclic partition), never more
// banks than words.
MemArray banked(ProcessId p, const char* what, int64_t total, int64_t lanes, int64_t width) {
  int64_t banks = std::clamp<int64_t>(lanes, 1, std::max<int64_t>(total, 1));
  return {p, what, banks, ceil_div(total, banks), width, false};
}

// A ROM has two read ports per bank (rom_2p): `lanes` words a cycle need half as many banks.
int64_t rom_banks(int64_t lanes) { return (lanes + 1) / 2; }

int64_t out_block(const Design& d, const Process& p) {
  return p.outputs.empty() ? 1 : d.streams[p.outputs[0]].block;
}

// The prefix engine's LUTs a lane beyond its MAC (mm_usage).
constexpr int64_t kPrefixLaneLuts = 8 * 64;

// mm: L = mm_lanes MACs (the stored lanes, attributes.h); the A row double buffer and a
// streamed B's buffer are split into L banks so the L lanes read in parallel, a constant
// operand's ROM into ceil(L/2) dual-port banks (mm.h's partitions of the same L); fixed point:
// the engine the RTL builds, aligned (detail::aligned_mm_engine) or the prefix engine's
// pipeline registers.
Usage mm_usage(const Design& d, ProcessId pid, const Arith& a, std::vector<MemArray>& arrays) {
  const Process& p = d.processes[pid];
  const int64_t w = d.options.elem_bits;
  const ir::Shape& as = p.operands.at(0).shape;
  const ir::Shape& bs = p.operands.at(1).shape;
  const int64_t K = as.at(1), par = p.mm_lanes;  // the stored lanes (attributes.h)
  Usage u;
  const int64_t a_bits = p.operands[0].bits_at(a.bits), b_bits = p.operands[1].bits_at(a.bits);
  // The aligned engine (RTL) prices its pipeline and its A rows (registers) itself.
  const bool aligned = a.kind == Arith::Fixed && mm_lanes_aligned(par, K);
  if (aligned) {
    u += detail::aligned_mm_engine(par, K, out_block(d, p), w, a_bits, b_bits);
  } else {
    for (int64_t i = 0; i < par; ++i) u += detail::mac_lane(a, a_bits, b_bits);
    if (p.operands[0].stream >= 0) arrays.push_back(banked(pid, "buffer", 2 * K, par, w));
  }
  // The prefix engine's 64-bit registers (docs/rtl.md, "The mm engine"): the prefix tree's
  // that are read (mm_tree_registers), and a lane's window sum through the select stages and
  // one more, the element sum, the high half's delay and the low half's (S + 2.5 words); a
  // product split over DSP tiles adds its fabric stages (inrarch_mul_dsp: the middle sums,
  // the halves and the result, 3.5 words), where a product on one DSP48E2 keeps its register
  // in the DSP. Fitted to Yosys: 16-lane mms at fixed<24,10>, 76,605 FF against 76,924 with
  // 24-bit weights, 47,452 against 47,804 with 18-bit ones (docs/resources.md §2). Its LUTs
  // a lane: the two 64-bit selections (the window's start and the sum before the open
  // element) over their candidates, the window's difference and the element sum's add,
  // 8 LUT a bit of the 64 (fitted to Yosys on the NeRF MLP's mms of 137, 69 and 56 lanes at
  // fixed<24,10>: 0.96-1.01; docs/rtl.md "On a model of the zoo").
  if (a.kind == Arith::Fixed && !aligned) {
    const int64_t product_ffs = mul_dsp_depth(a_bits, b_bits) == 1 ? 0 : 224;
    u.ff += mm_tree_registers(par, K) * 64 + (64 * select_tree_stages(par) + 160 + product_ffs) * par;
    u.lut += kPrefixLaneLuts * par;
  }
  if (p.operands[1].stream >= 0) arrays.push_back(banked(pid, "buffer", numel(bs), par, w));
  if (p.rom_bits > 0) {
    const bool rom_b = p.operands[0].stream >= 0;
    const int64_t rw = operand_bits(d, p.operands[rom_b ? 1 : 0]);
    const int64_t words = p.rom_bits / rw, depth = ceil_div(words, par);
    // The RTL reads a constant B as one word of L lanes a MAC cycle, words / L deep:
    // shallow, a bit of it is a LUT6 ROM per 64 words (MUXF7/F8 join up to four), far
    // cheaper than a block RAM a few percent full; deeper (and a constant A, read a row at
    // a time), block RAM banks (mm.h's partition).
    if (rom_b && depth <= kLutRomMaxDepth)
      u.lut += ceil_div(depth, 64) * par * rw;
    else
      arrays.push_back(banked(pid, "rom", words, rom_banks(par), rw));
  }
  return u;
}

// mm_reduce: L MACs; the two rows of A and of B in registers; the K*N accumulators (twice
// an element's width) in L banks, as the L products of a cycle update L consecutive ones.
Usage mm_reduce_usage(const Design& d, ProcessId pid, const Arith& a, std::vector<MemArray>& arrays) {
  const Process& p = d.processes[pid];
  const int64_t w = d.options.elem_bits;
  const int64_t K = p.operands.at(0).shape.at(1), N = p.operands.at(1).shape.at(1), par = p.mm_lanes;
  Usage u;
  for (int64_t i = 0; i < par; ++i) u += detail::mac_lane(a);
  u.ff += 2 * (K + N) * w;
  arrays.push_back(banked(pid, "buffer", K * N, par, kMmReduceAccBits * w));
  return u;
}

// Elementwise: block / ew_fold lanes; a lookup table per lane; a constant operand (ROM) read
// a chunk a cycle. A folded kernel (C = ew_fold > 1) also holds the beat's other chunks of
// each streamed operand, picks a chunk by a C:1 multiplexer (a LUT6 a bit up to 4:1, MUXF7
// and MUXF8 beyond), and gathers the results' first C - 1 chunks beside its output register.
Usage elementwise_usage(const Design& d, ProcessId pid, const Arith& a,
                        std::vector<MemArray>& arrays) {
  const Process& p = d.processes[pid];
  const int64_t block = out_block(d, p), fold = p.ew_fold, lanes = block / fold, w = d.options.elem_bits;
  detail::LaneCost c = detail::lane_cost(p.op, a, d.options.fabric_elementwise_mul);
  Usage u{c.dsp * lanes, 0, 0, c.lut * lanes, c.ff * lanes};
  if (fold > 1) {
    const auto streamed = static_cast<int64_t>(p.inputs.size());
    const int64_t rest = (block - lanes) * w;  // the bits of a beat's chunks 1 .. C-1
    u.ff += streamed * rest + 2 * rest;        // the held operands; the gathered results, the output register's rest
    u.lut += streamed * lanes * w * ((fold + 2) / 4);
  }
  if (c.table_words > 0)
    for (int64_t i = 0; i < lanes; ++i)
      arrays.push_back({pid, "table", 1, c.table_words, c.table_width, false});
  if (p.rom_bits > 0) arrays.push_back(banked(pid, "rom", p.rom_bits / w, rom_banks(lanes), w));
  return u;
}

// A stream's beats as a counter's bits: what a copy, a source or a sink holds besides wires.
int64_t beat_counter_bits(const Design& d, const Process& p) {
  const StreamId s = p.outputs.empty() ? p.inputs.at(0) : p.outputs.at(0);
  int64_t bits = 1;
  while ((int64_t{1} << bits) < d.streams[s].beats()) ++bits;
  return bits;
}

// A data-movement kernel's buffer in `lanes` banks and its constants' ROM in dual-port
// banks, w-bit words.
void held_arrays(ProcessId pid, const Process& p, int64_t w, int64_t lanes, std::vector<MemArray>& arrays) {
  if (p.buffer_bits > 0) arrays.push_back(banked(pid, "buffer", p.buffer_bits / w, lanes, w));
  if (p.rom_bits > 0) arrays.push_back(banked(pid, "rom", p.rom_bits / w, rom_banks(lanes), w));
}

// The registers a table's first `lines` lines (each `fields` fields of `bits` bits) are read
// into, one a distinct column that is not constant: Yosys merges the registers of columns
// alike (and their ROM's LUTs), and a constant column is wires. The step register, zeroed
// past the last step, also keeps a column of ones.
template <class Line>
int64_t table_registers(const std::vector<Line>& table, int64_t lines, size_t fields, int bits, bool zeroed_after) {
  std::set<std::vector<bool>> columns;
  if (lines <= 0) return 0;
  for (size_t f = 0; f < fields; ++f)
    for (int bit = 0; bit < bits; ++bit) {
      std::vector<bool> column;
      for (int64_t b = 0; b < lines; ++b) {
        if constexpr (std::is_integral_v<Line>) column.push_back(table[size_t(b)] >> bit & 1);
        else column.push_back(table[size_t(b)][f] >> bit & 1);
      }
      const bool varies = std::find(column.begin(), column.end(), !column.front()) != column.end();
      if (varies || (zeroed_after && column.front())) columns.insert(column);
    }
  return int64_t(columns.size());
}

// A gather's tables as the RTL keeps them (support/looped_table.h), from the prefix the
// model walks (its rows repeat, so the tables' period shows in it).
detail::GatherTables gather_tables(const GatherLayout& g, int64_t inputs) {
  const std::vector<std::vector<uint64_t>> entries = g.entries();
  const LoopedTable steps = looped_table(g.steps), lines = looped_table(entries);
  return {steps.lines, table_registers(g.steps, steps.lines, 1, int(inputs) + 1, true), lines.lines,
          table_registers(entries, lines.lines, g.candidates.size(), g.pick_bits(), false)};
}

// A gather (inrarch_gather): its multiplexers and counters (detail::gather_logic), taking
// the steps as the most beats of any stream it reads or writes; the ring of recent input
// beats it reads back from, in registers as the RTL keeps it (gather_layout.h: the buffer
// words some position reads, a flip-flop a bit, and each ring's beat counter and slot
// compares); its constants as an array.
Usage gather_usage(const Design& d, ProcessId pid, std::vector<MemArray>& arrays) {
  const Process& p = d.processes[pid];
  const int64_t w = d.options.elem_bits, lanes = out_block(d, p), writes = d.streams[p.outputs.at(0)].beats();
  int64_t steps = writes;
  for (StreamId s : p.inputs) steps = std::max(steps, d.streams[s].beats());
  if (p.rom_bits > 0) arrays.push_back(banked(pid, "rom", p.rom_bits / w, rom_banks(lanes), w));
  const GatherLayout g = gather_layout(d, pid, gather_model_beats(d, pid));
  std::set<int64_t> held;  // the ring words some position reads
  for (const auto& list : g.candidates)
    for (int64_t c : list)
      if (!(c & (kGatherConstCandidate | kGatherFreshCandidate))) held.insert(c);
  return detail::gather_logic(g.sources(), w, steps, gather_tables(g, int64_t(p.inputs.size())), int64_t(held.size()),
                              g.ring);
}

// A sum (inrarch_sum): its ring of accumulators as the RTL keeps it (sum_layout.h), each
// in the bits its contributors need (the HLS accumulator's 64 at most), its adders and
// multiplexers, and its step and accumulator tables (detail::sum_logic).
Usage sum_usage(const Design& d, ProcessId pid) {
  const Process& p = d.processes[pid];
  const Stream& in = d.streams[p.inputs.at(0)];
  const Stream& out = d.streams[p.outputs.at(0)];
  const SumLayout s = sum_layout(d, pid, gather_model_beats(d, pid));
  const LoopedTable steps = looped_table(s.steps), slots = looped_table(s.slots);
  // The suffix's lines are the step table's too (a constant the RTL reads by a counter).
  const detail::GatherTables tables{steps.lines + int64_t(s.suffix.size()),
                                    table_registers(s.steps, steps.lines, 1, 2, true), slots.lines,
                                    table_registers(s.slots, slots.lines, size_t(in.block), s.slot_bits(), false)};
  const int64_t w = d.options.elem_bits;
  return detail::sum_logic({s.ring, sum_acc_bits(int(w), s.contributors, 64), in.block, out.block, w, s.elem_accs(),
                            s.acc_elems(), s.out_accs(), s.elem_sharers(), s.chain_pairs()},
                           std::max(in.beats(), out.beats()), tables);
}

Usage process_usage(const Design& d, ProcessId pid, const Arith& a, std::vector<MemArray>& arrays) {
  const Process& p = d.processes[pid];
  const int64_t w = d.options.elem_bits, lanes = out_block(d, p);
  // A copy, a streamed source, a sink or a pass-through reshape moves beats on wires
  // (inrarch_copy, inrarch_source, inrarch_sink): a beat counter and its last-beat flag, and
  // a few LUTs of handshake. Yosys on INSP's classes: 2 LUT a copy, 3 a source or sink, and
  // log2(beats) + 2 FF.
  const bool copies = p.kind == Kind::Copy || is_pass_through(d, p);
  if (copies || p.kind == Kind::Sink || (p.kind == Kind::Source && p.op == ir::Op::Input))
    return {0, 0, 0, copies ? 2 : 3, beat_counter_bits(d, p) + 2};
  Usage u = detail::process_control();
  switch (p.kind) {
    case Kind::Mm: u += mm_usage(d, pid, a, arrays); break;
    case Kind::MmReduce: u += mm_reduce_usage(d, pid, a, arrays); break;
    case Kind::Unary:
    case Kind::Binary: u += elementwise_usage(d, pid, a, arrays); break;
    case Kind::Copy: break;  // above
    case Kind::IdentityMap: case Kind::ExpandMap: case Kind::SelectMap: case Kind::SliceMap: case Kind::CatMap:
      return gather_usage(d, pid, arrays);
    case Kind::SumMap: return sum_usage(d, pid);
    case Kind::Source: case Kind::Sink: case Kind::Transpose: case Kind::Permute:
    case Kind::Custom: {  // registers per lane, a buffer, a ROM
      u += Usage{0, 0, 0, w * lanes, w * lanes};
      held_arrays(pid, p, w, lanes, arrays);
    }
  }
  return u;
}

// The cost of an array in LUTRAM, BRAM or URAM.
Usage array_usage(const MemArray& m) {
  if (m.words * m.width <= kLutramMaxBits)
    return {0, 0, 0, m.banks * ceil_div(m.words, 64) * m.width, 0};
  if (m.uram) return {0, 0, m.banks * uram_tiles(m.width, m.words), 0, 0};
  return {0, m.banks * bram18k_tiles(m.width, m.words), 0, 0, 0};
}

// Moves whole arrays to URAM, the largest BRAM saving per URAM first, while BRAM is over
// the capacity and URAM has room. Deterministic: ties keep array order.
void place_arrays(std::vector<MemArray>& arrays, int64_t bram_used, const Capacity& cap) {
  std::vector<size_t> order;
  for (size_t i = 0; i < arrays.size(); ++i)
    if (arrays[i].words * arrays[i].width > kLutramMaxBits) order.push_back(i);
  auto gain = [&](size_t i) {
    MemArray u = arrays[i];
    u.uram = true;
    return double(array_usage(arrays[i]).bram18k) / double(std::max<int64_t>(1, array_usage(u).uram));
  };
  std::stable_sort(order.begin(), order.end(), [&](size_t x, size_t y) { return gain(x) > gain(y); });
  int64_t uram_used = 0;
  for (size_t i : order) {
    if (bram_used <= cap.bram18k) break;
    MemArray u = arrays[i];
    u.uram = true;
    int64_t need = array_usage(u).uram;
    if (uram_used + need > cap.uram) continue;
    uram_used += need;
    bram_used -= array_usage(arrays[i]).bram18k;
    arrays[i].uram = true;
  }
}

const char* over_capacity(const Usage& t, const Capacity& cap) {
  if (t.dsp > cap.dsp) return "dsp";
  if (t.bram18k > cap.bram18k) return "bram";
  if (t.uram > cap.uram) return "uram";
  if (t.lut > cap.lut) return "lut";
  if (t.ff > cap.ff) return "ff";
  return "";
}

}  // namespace

ResourceReport estimate_resources(const Design& d, const std::vector<int64_t>& depths,
                                  const Arith& arith, const Capacity& cap) {
  INRARCH_ASSERT(depths.size() == d.streams.size(), "resources: one depth per stream");
  ResourceReport r;
  for (size_t s = 0; s < d.streams.size(); ++s) {
    INRARCH_ASSERT(depths[s] != kUnbounded, "resources of an unbounded FIFO");
    r.per_stream.push_back(detail::fifo_usage(d.streams[s].width_bits(), depths[s]));
    r.fifos += r.per_stream.back();
    r.fifo_bits += fifo_bits(d.streams[s], depths[s]);
  }
  for (size_t p = 0; p < d.processes.size(); ++p)
    r.per_process.push_back(process_usage(d, static_cast<ProcessId>(p), arith, r.arrays));
  int64_t bram = r.fifos.bram18k;
  for (const MemArray& m : r.arrays) bram += array_usage(m).bram18k;
  place_arrays(r.arrays, bram, cap);
  for (const MemArray& m : r.arrays) {
    r.per_process[m.process] += array_usage(m);
    (m.what == std::string("rom") ? r.rom_bits : r.buffer_bits) += m.bits();
  }
  for (size_t p = 0; p < d.processes.size(); ++p) {
    const std::string kind = kind_name(d.processes[p].kind);
    auto it = std::find_if(r.by_kind.begin(), r.by_kind.end(), [&](const auto& e) { return e.first == kind; });
    if (it == r.by_kind.end()) it = r.by_kind.insert(it, {kind, {}});
    it->second += r.per_process[p];
    r.total += r.per_process[p];
  }
  r.by_kind.push_back({"fifo", r.fifos});
  r.total += r.fifos;
  r.over = over_capacity(r.total, cap);
  r.fits = r.over.empty();
  return r;
}

ResourceReport estimate_unsized(const Design& d, const Arith& arith, const Capacity& cap) {
  return estimate_resources(d, std::vector<int64_t>(d.streams.size(), kShiftRegisterDepth), arith, cap);
}

int64_t count_multiplies(const Design& d) {
  int64_t n = 0;
  for (const Process& p : d.processes) {
    if (has_macs(p.kind))  // M*K*N; a batch reduction's R*K*N
      n += numel(p.operands.at(0).shape) * p.operands.at(1).shape.at(1);
    else if ((p.kind == Kind::Unary || p.kind == Kind::Binary) && p.op == ir::Op::Mul)
      n += numel(p.operands.at(0).shape);
  }
  return n;
}

int64_t dsp_per_product(const Process& p, const Arith& arith) {
  if (p.kind != Kind::Mm || arith.kind != Arith::Fixed) return dsp_per_multiply(arith);
  return dsp_for_product(p.operands.at(0).bits_at(arith.bits), p.operands.at(1).bits_at(arith.bits));
}

int64_t count_dsp_work(const Design& d, const Arith& arith) {
  int64_t work = 0;
  for (const Process& p : d.processes) {
    int64_t n = 0;
    if (has_macs(p.kind))
      n = numel(p.operands.at(0).shape) * p.operands.at(1).shape.at(1);
    else if ((p.kind == Kind::Unary || p.kind == Kind::Binary) && p.op == ir::Op::Mul)
      n = numel(p.operands.at(0).shape);
    work += n * dsp_per_product(p, arith);
  }
  return work;
}

int64_t floor_cycles(const Design& d, const Part& part, const Arith& arith) {
  return ceil_div(count_dsp_work(d, arith), std::max<int64_t>(1, part.dsp));
}

}  // namespace inrarch::dataflow
