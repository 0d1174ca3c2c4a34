// Where a sum kernel (inrarch_sum, docs/rtl.md §2 "Sums") keeps its running sums: a ring of
// accumulators over the output elements, output o's accumulator o mod `ring`. The ring
// covers the outputs open at once (from the lowest not yet written to the highest a read
// has reached), so a row sum keeps a beat or two of accumulators and a column sum one per
// column, whatever the batch. The RTL emitter writes its tables from this layout and the
// resource model prices the same ring, so the two cannot drift apart.
#pragma once

#include <cstdint>
#include <vector>

#include "dataflow/design.h"

namespace inrarch::dataflow {

// The most lines of a sum's step table kept apart as its suffix (SumLayout::suffix).
inline constexpr size_t kMaxSumSuffix = 256;

struct SumLayout {
  // Per cycle of the kernel, its line of inrarch_sum's step table: bit 0 reads a beat, bit 1
  // writes one, 0 a step of nothing (where the schedule's next step has a delay above 1: a
  // write not yet due). The last cycles stand apart, since in the table they would end the
  // lines' period and the table would then keep every line: `suffix`, the lines after the
  // period (at most kMaxSumSuffix: a column sum's writes among its last row's reads, the
  // writes due after the last read with steps of nothing between them), then `tail_writes`
  // writes. `steps` holds the lines before them, whose table repeats a period.
  std::vector<uint64_t> steps, suffix;
  int64_t tail_writes = 0;
  // Per input beat read, each element's accumulator (element 0 first).
  std::vector<std::vector<uint64_t>> slots;
  // Element pairs of a beat that some beat has in one accumulator: shares[e · block + k]
  // for e ≠ k (inrarch_sum's SHARE: only these need a compare and an add between them).
  std::vector<bool> shares;
  // stores[a · in block + e]: element e of some beat stores accumulator a's sum (it is the
  // last of the beat's elements in it); outs[a · out block + j]: position j of some written
  // beat reads accumulator a. inrarch_sum's STORE and OUTS: each element reads, each
  // accumulator is loaded from, and each output position reads only those (a column sum's
  // element meets a few of the ring's accumulators, not all).
  std::vector<bool> stores, outs;
  int64_t ring = 1;          // accumulators: a power of two, at least the output's block
  int64_t contributors = 1;  // input elements each output sums
  int slot_bits() const;     // the bits of an accumulator's index (at least 1)
  int64_t shared_pairs() const;  // the pairs set in `shares`
  // Counted from the masks: per element, the accumulators it stores (0: it never stores);
  // per accumulator, the elements that store it; per output position, the accumulators
  // it reads; and the pairs in `shares` whose first element stores (its chain's adds).
  std::vector<int64_t> elem_accs() const, acc_elems() const, out_accs() const;
  std::vector<int64_t> elem_sharers() const;  // per element, the others of its beat it may share with
  int64_t chain_pairs() const;
};

// The layout of sum p, walked over its whole schedule, or over its first max_writes written
// beats and the step after (the resource model's estimate: that step holds the last of
// those writes with the next reads, as every step that writes does but the last). Throws
// inrarch::Error when p is not a sum.
SumLayout sum_layout(const Design& d, ProcessId p, int64_t max_writes = INT64_MAX);

// The bits a sum keeps each running sum in: n contributors of `bits` bits need
// bits + ⌈log2 n⌉, and never more than `wrap_bits`, where the HLS accumulator wraps.
int sum_acc_bits(int bits, int64_t contributors, int wrap_bits);

}  // namespace inrarch::dataflow
