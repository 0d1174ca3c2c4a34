// Kernel schedules ("the trace"): for every process, the ordered steps of FIFO operations it
// performs, mirroring the loop nest of its HLS kernel (docs/dataflow.md §2). A step is a set of
// FIFO ops on distinct streams that fire in one cycle, `delay` (>= 1) cycles after the
// previous step of the same process (the first step: after time 0). The n-th access of a
// process to a stream is beat n of that stream.
//
// Kernel models (II = initiation interval, L = pipeline depth in steps; docs/dataflow.md):
//   source     II=1: write beat i.                                   buffer 0
//   sink       II=1: read beat i.                                    buffer 0
//   copy       II=1, L=0: read beat i and write it to every output (round-robin order =
//              output order) in the same step.                       buffer 0
//   unary /    II = C (Process::ew_fold: block / C lanes take a beat in C chunks, a cycle
//   binary     each; 1 unless folded), L = elementwise_steps = ceil((C - 1 + D) / C) with D
//              the op's pipeline depth (elementwise_depth; L = D when C = 1): step i reads
//              beat i of every streamed operand and writes result beat i-L, a step every C
//              cycles (the first one cycle after the start); after the last read, L write
//              steps drain the pipeline (the first of them (L-n+1)*C cycles after the last
//              read when n < L). A constant operand is a parameter/ROM.
//   mm         C[M,N] = A[M,K] B[K,N] with L = mm_lanes MACs (min(mm_par, bC*K), stored
//              by set_mm_par) and a pipeline of D = mm_depth cycles (set_mm_par too).
//              Streamed B: read all of B first (II=1). Then read the K/bA beats of A row 0
//              (II=1), and per row i ceil(N*K/L) MAC cycles: the L MACs work through the
//              row's products in order, L a cycle, so the MAC cycle that takes beat j's last
//              product is ceil((j+1)*bC*K/L) cycles into the row (MmCadence) and beat j is
//              written D cycles after it (the write's own step, or merged into the step of
//              that cycle); after the last MAC cycle the pipeline drains (write-only steps).
//              The A row is double-buffered: the row's C MAC cycles also read S =
//              min(K/bA, C) beats of row i+1, spread evenly (beat r in MAC cycle
//              ceil((r+1)*C/S), so the row asks A at the pace it uses it), and the beats
//              of row i+1 left after the row's last MAC cycle are read at II=1 (the
//              pipeline keeps writing meanwhile): a row takes max(C, K/bA) cycles. A
//              constant A: no reads. Buffer: B (when streamed) and two rows of A: a MAC cycle registers
//              its operands, so the pipeline holds no row longer than D = 0 would.
//              Example (tests/dataflow/schedule_mm_test.cpp): C[3,5] = A[3,4] B[4,5],
//              L=3, D=13, a word a beat: B read at cycles 1..20, A row 0 at 21..24, row 0's
//              MAC cycles 25..31 (26, 28, 30, 31 also read row 1), beats 0..4 done at 26,
//              27, 28, 30, 31 and written at 39, 40, 41, 43, 44.
//   mm_reduce  C[K,N] = Σ_r A[r,:]ᵀ B[r,:] (A [R,K], B [R,N]: the inner dim is the rows)
//              with L = mm_lanes MACs (min(mm_par, K*N)), K*N accumulators. S = max(K/bA,
//              N/bB) read steps a row (step j reads beat j of the A row and of the B row,
//              each while it has one), W = ceil(K*N/L) cycles of MACs a row, T = max(W, S).
//              Read row 0 (II=1); then row r's MACs run T cycles, the first S also reading
//              row r+1 into the other half of a double buffer (so row r+2's first read is
//              T-S+1 after row r+1's last); after the last row's W cycles write the K*N/bC
//              beats of C (II=1). Buffer: two rows of A and of B, the accumulators.
//   transpose, full buffer: read every input beat (II=1), then write every output beat
//   permute    (II=1).                                                buffer numel
//   gather     reshape/unsqueeze/squeeze/expand/select/slice/cat/sum: demand-driven in
//              order, L=0: for each output beat, read (at most one beat per input per step)
//              the input beats it needs, the step with the last one also writes it; input
//              beats never needed are still read (after the last write). Buffer: expand's
//              replay span, sum's open accumulators.
//   custom     the explicit step list.
#pragma once

#include <algorithm>
#include <cstdint>
#include <span>
#include <vector>

#include "dataflow/design.h"

namespace inrarch::dataflow {

// When an mm with L working MACs finishes its beats (the write follows mm_depth cycles later): the MACs take the row's products in
// order, L a cycle, across beat boundaries, so beat j of a row (bC*K products each, `work`)
// is done ceil((j+1)*work/L) cycles into the row. L is the process's stored mm_lanes, at
// most `work` (the lane rule, attributes.h; the verifier checks it): a beat a cycle at most.
struct MmCadence {
  int64_t work, lanes;
  int64_t done(int64_t beats) const { return (beats * work + lanes - 1) / lanes; }
  int64_t delay(int64_t j) const { return done(j + 1) - done(j); }  // >= 1 when lanes <= work
};

// An mm_reduce's step counts (the model above): R rows, S read steps a row, K*N products a
// row pair, C's beats; with L lanes a row takes T = max(W, S) cycles, W = ceil(K*N/L).
struct MmReduceCadence {
  int64_t rows, reads, work, writes;
  int64_t macs(int64_t lanes) const { return (work + lanes - 1) / lanes; }                // W
  int64_t row(int64_t lanes) const { return std::max(macs(lanes), reads); }               // T
  // The kernel's own cycles (its steps' delays): S + (R-1)·T + W + the writes.
  int64_t cycles(int64_t lanes) const { return reads + (rows - 1) * row(lanes) + macs(lanes) + writes; }
};
// An mm_reduce accumulator's width in elements' widths (the HLS acc_type of a fixed<W,I>
// is 64 bits: twice a 32-bit element).
inline constexpr int64_t kMmReduceAccBits = 2;

// `count` consecutive steps that perform the same ops (on the same streams, successive
// beats) with the same delay before each. Programs are lists of runs, so an elementwise
// kernel over 16K beats is 3 runs, not 16K steps.
struct Run {
  uint32_t count;
  uint32_t delay;
  uint32_t op_begin;  // into Program::ops
  uint32_t op_count;
};

struct Program {
  std::vector<Run> runs;
  std::vector<FifoOp> ops;

  int64_t steps() const;
  int64_t fifo_ops() const;
};

// Appends steps, merging a step into the previous run when ops and delay are equal.
class ProgramBuilder {
 public:
  void steps(int64_t count, int64_t delay, std::span<const FifoOp> ops);
  void step(int64_t delay, std::span<const FifoOp> ops) { steps(1, delay, ops); }
  void steps(int64_t count, int64_t delay, std::initializer_list<FifoOp> ops) {
    steps(count, delay, std::span<const FifoOp>(ops.begin(), ops.size()));
  }
  Program take() { return std::move(p_); }

 private:
  Program p_;
};

// The schedule of one process. Throws inrarch::Error for an op/shape it cannot model.
Program schedule(const Design& d, ProcessId p);
std::vector<Program> schedule_all(const Design& d);

// The explicit steps of a program (for tests and the HLS trace check).
std::vector<Step> expand(const Program& prog);

// Kernel-internal buffer bits of a process (the "buffer" column above), excluding ROMs.
int64_t kernel_buffer_bits(const Design& d, ProcessId p);

// Checks that every stream is written by its producer and read by its consumer exactly
// beats() times and that no step touches a stream twice; throws inrarch::Error naming the
// process and stream otherwise.
void check_programs(const Design& d, const std::vector<Program>& progs);

// The mm kernel (schedule_mm.cpp).
Program schedule_mm(const Design& d, const Process& p);
// mm_reduce kernels (schedule_mm_reduce.cpp).
MmReduceCadence mm_reduce_cadence(const Design& d, const Process& p);
Program schedule_mm_reduce(const Design& d, const Process& p);

// Gather kernels (schedule_gather.cpp).
Program schedule_gather(const Design& d, ProcessId p);
// The steps from the read of a beat's last needed input to its write, at least: 0 for the
// gathers that copy, kSumWriteLag for a sum: its add is split over two cycles (its low
// half's carry registered), then each output element is read from its accumulator into a
// register and fit into T into another, a step each (inrarch_sum, docs/rtl.md §2), so no
// path holds both a selection among the accumulators and a fit. The HLS gather (movement.h,
// map_sum::lag) follows the same. kSumPickAhead: the steps from that read (the pick, which
// also clears the accumulators for the outputs that take them next) to the write.
inline constexpr int kSumPickAhead = 2;
inline constexpr int kSumWriteLag = 2 + kSumPickAhead;
int gather_write_lag(const Process& p);
// The operand slot and element that output element o (row-major in `out`) of gather
// process p needs (sum: the last element contributing to it). The RTL gather's tables.
struct GatherNeed {
  int slot;
  int64_t elem;
};
GatherNeed gather_need(const Process& p, const ir::Shape& out, int64_t o);
int64_t gather_buffer_elems(const Design& d, ProcessId p);

}  // namespace inrarch::dataflow
