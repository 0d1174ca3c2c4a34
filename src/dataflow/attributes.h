// Hardware choices stored on a design (docs/architecture.md, "The back half"): design passes
// that set a lowered design's attributes, and who sets each.
//
//   Process::mm_par, mm_lanes  the MACs asked of an mm and the MACs that work. Set by
//                              set_mm_par only: lower() for the uniform LowerOptions::mm_par,
//                              apply_parallelism for a search's (or a plan file's) choice,
//                              and the search itself on its working copy.
//   Process::mm_depth          the mm pipeline's cycles from a beat's last MAC cycle to its
//                              write: mm_pipeline_depth(mm_lanes, K, its operands' bits) (0 on an mm_reduce), set with the lanes by
//                              set_mm_par only; the schedule, the HLS delay line and the RTL's D
//                              read it (the RTL checks its stages against it at elaboration).
//   Process::ew_fold           an elementwise kernel's cycles a beat (its lanes: block / ew_fold):
//                              set_ew_fold only, from apply_parallelism (the search's choice,
//                              a plan file).
//   options.fabric_elementwise_mul  elementwise multipliers in LUTs: apply_parallelism.
//   Operand::rom_elem_bits     an mm's weights narrower than the streams: lower(), from
//                              LowerOptions::weight_bits.
//   Stream::depth              Design::set_depths (FIFO sizing, a depth file).
//
// The lane rule: mm_lanes = min(mm_par, bC*K), the products of one output beat. The MACs
// take the row's products in order, mm_lanes a cycle (MmCadence); past bC*K a cycle would
// finish more than one beat, which the kernel cannot write. Everything downstream reads the
// stored mm_lanes (the schedule, the event graph, the resource model's banks, the HLS
// template argument and its array partitions, the RTL's L); nothing else caps.
//
// A search result is keyed by process (ProcessId of the design it was computed on); names
// appear only at the edges (report.json, a plan file), through parallelism_by_name and
// parallelism_names.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "dataflow/design.h"

namespace inrarch::dataflow {

// The products one output beat of mm process p needs: bC * K (its output stream's block
// times the inner dim). The most MACs that can work.
int64_t mm_beat_work(const Design& d, const Process& p);
// K, the inner dim of mm process p (its A operand's last dim; 1 when it has none).
int64_t mm_inner(const Process& p);

// The register stages of inrarch_select_tree picking one of `inputs` values: 1 up to 18, then
// one more for every factor of 36 (two LUT levels a stage). 18: 1; 19 to 648: 2.
int64_t select_tree_stages(int64_t inputs);

// Whether an mm's lanes are aligned with its inner dim K: lanes divide K or K divides the
// lanes, so every MAC cycle's products fall into whole groups of min(lanes, K), each of one
// element. The RTL then sums each group by a plain adder tree (inrarch_mm_engine_aligned);
// otherwise an element may start and end at any lane (inrarch_mm_engine_prefix).
bool mm_lanes_aligned(int64_t lanes, int64_t inner);

// The pipeline depth of an mm with `lanes` MACs, inner dim K = `inner`, products of
// a_bits x b_bits (docs/rtl.md, "The mm engine"); md = mul_dsp_depth(a_bits, b_bits) the
// product's stages.
//   aligned (mm_lanes_aligned): 4 + md + lv + s, lv = ceil(log2 min(lanes, K)) adder-tree
//     levels, s = select_tree_stages(lanes / min(lanes, K)) stages routing the cycle's
//     elements to their beat slots; the 4 are the operand registers, the element sums' low
//     and high halves (the accumulator) and the fits. 1 lane: 6 at 27 x 18 bits; 256 lanes
//     of K = 256: 14.
//   otherwise: 5 + md + lv + 2 s, lv = ceil(log2 lanes) levels of the lanes' prefix tree,
//     s = select_tree_stages(lanes) the stages that pick the sum before the open element
//     and that route the elements' sums to their beat slots; the 5 are the operand
//     registers, the difference, the low and the high halves of the sums, and the fits.
//     At 32 bits: 3 lanes 13, 247 lanes of K = 256 21.
int64_t mm_pipeline_depth(int64_t lanes, int64_t inner, int64_t a_bits, int64_t b_bits);
// The bits of mm process p's two operands (operand_bits of each): its products' widths.
std::pair<int64_t, int64_t> mm_operand_bits(const Design& d, const Process& p);

// The registers of that prefix tree that inrarch_mm_half builds (docs/rtl.md, "The mm
// engine"): an element's last product can only fall on a lane u = G-1 mod G, G = gcd(lanes,
// inner), so only those lanes' sums after the last level are read, and before each level
// only what that level's read lanes read. lv * lanes when G = 1; L = 216, K = 256 (G = 8):
// 324 of 1,728; L = 32, K = 24 (G = 8): 36 of 160.
int64_t mm_tree_registers(int64_t lanes, int64_t inner);

// Sets the MACs of mm process p: mm_par = requested, mm_lanes = min(requested, beat work),
// mm_depth = mm_pipeline_depth(mm_lanes, K, its operands' bits).
// Throws inrarch::Error (LimitError past limits::kMaxParallel) naming the process when p is
// not an mm or requested is out of [1, kMaxParallel].
void set_mm_par(Design& d, ProcessId p, int64_t requested);

// Sets elementwise process p's cycles a beat (Process::ew_fold). Throws inrarch::Error naming
// the process when p is not elementwise or `fold` is not a power of two dividing its block.
void set_ew_fold(Design& d, ProcessId p, int64_t fold);

// A choice of the parallelism search for one design: the MACs of each mm, by process, the
// folded elementwise kernels' cycles a beat (the others keep one) and whether the
// elementwise multipliers are LUTs.
struct Parallelism {
  std::vector<std::pair<ProcessId, int64_t>> mm_par;  // (mm process, MACs asked), by process
  bool fabric_elementwise_mul = false;
  std::vector<std::pair<ProcessId, int64_t>> ew_fold;  // (elementwise process, cycles a beat > 1)
  bool operator==(const Parallelism&) const = default;
};

// The design pass: every listed mm gets its MACs (set_mm_par), every listed elementwise kernel
// its fold (set_ew_fold), the design its multiplier binding. Throws inrarch::Error naming the process for an id out of range, a process that is
// not an mm, a process listed twice or a value out of range.
void apply_parallelism(Design& d, const Parallelism& p);

// The design's own parallelism (every mm's mm_par, the multiplier binding).
Parallelism parallelism_of(const Design& d);

// `p`, chosen on `from`, for `to`, another lowering of the same graph (another fan-out, or
// the graph at another number of rows, passes/rebatch.h): the mm processes of both, in
// design order, are the same kernels (lower.h: kernels in live order, fan-out only adds
// copies). Throws inrarch::Error when the two disagree on their mm kernels (count, op or
// name), or `p` lists a process `from` does not have as an mm.
Parallelism carry_parallelism(const Parallelism& p, const Design& from, const Design& to);

// The edge: by process name. parallelism_by_name throws inrarch::Error for a name that is
// not an mm of d (naming it and the design's mm kernels) and for a value out of range;
// `what` prefixes the message ("plan file x.json"). mm kernels the map does not name are
// left out of the result (they keep what they have).
// fold_by_name: elementwise kernels' cycles a beat, by name (checked as set_ew_fold does).
Parallelism parallelism_by_name(const Design& d, const std::map<std::string, int64_t>& by_name,
                                const std::string& what, const std::map<std::string, int64_t>& fold_by_name = {});
std::map<std::string, int64_t> parallelism_names(const Design& d, const Parallelism& p);
std::map<std::string, int64_t> fold_names(const Design& d, const Parallelism& p);

}  // namespace inrarch::dataflow
