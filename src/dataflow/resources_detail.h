// Internal to the resource model: the per-op and per-kind cost rules (resources_rules.cpp).
#pragma once

#include "dataflow/resources.h"
#include "ir/ops.h"

namespace inrarch::dataflow::detail {

// One lane (element per cycle) of an elementwise op: its DSPs, LUTs, FFs, and the lookup
// table it reads (words x width bits; 0 words when none).
struct LaneCost {
  int64_t dsp, lut, ff, table_words, table_width;
};
LaneCost lane_cost(ir::Op op, const Arith& a, bool fabric_mul = false);

Usage mac_lane(const Arith& a);
// A fixed-point MAC lane of a_bits x b_bits products (an mm with narrow weights).
Usage mac_lane(const Arith& a, int64_t a_bits, int64_t b_bits);
// The aligned mm engine of `lanes` MACs, inner dim K, beats of bc w-bit elements, products of
// a_bits x b_bits (fixed point): DSPs, LUTs and FFs.
Usage aligned_mm_engine(int64_t lanes, int64_t inner, int64_t bc, int64_t w, int64_t a_bits, int64_t b_bits);
Usage process_control();
// inrarch_gather's step and entry tables as it keeps them (support/looped_table.h): the
// lines of each, and the registers it is read into (a distinct column that is not constant).
struct GatherTables {
  int64_t step_lines = 1, step_bits = 0, entry_lines = 1, entry_bits = 0;
};
// inrarch_gather (select, slice, cat, expand, re-blocking reshape): each output position's
// multiplexer over `sources[e]` words of w bits, the step counter of `steps` and three
// flags, its tables (a LUT6 ROM a register per 64 lines) and their line counters, and the
// buffer: `held` words of registers, and per streamed input its ring of `rings[k]` beats (a
// beat counter and a slot compare a beat where it wraps).
Usage gather_logic(const std::vector<int64_t>& sources, int64_t w, int64_t steps, const GatherTables& tables,
                   int64_t held = 0, const std::vector<int64_t>& rings = {});
// inrarch_sum: `ring` accumulators of acc_bits, a beat of bi elements added into them and bo
// fit out of them a step, its step counter of `steps` and its tables (as a gather's).
struct SumShape {
  int64_t ring = 1, acc_bits = 0, bi = 1, bo = 1, w = 32;
  // From dataflow::SumLayout: per element the accumulators it stores, per accumulator the
  // elements that store it, per output position the accumulators it reads, and the
  // sharing pairs whose first element stores; per element, the others it may share with.
  std::vector<int64_t> elem_accs, acc_elems, out_accs, elem_sharers;
  int64_t chain_pairs = 0;
};
Usage sum_logic(const SumShape& s, int64_t steps, const GatherTables& tables);
Usage fifo_usage(int64_t width_bits, int64_t depth);

}  // namespace inrarch::dataflow::detail
