// A dataflow design: processes (kernel instances with static parameters) joined by streams
// (bounded FIFOs with exactly one producer and one consumer). docs/dataflow.md §1.
//
// A stream carries the elements of one array in row-major order, `block` elements per beat;
// FIFO depths count beats. Constant operands (weights, folded constants) are not streams:
// they live inside the consuming kernel, as a scalar parameter (splat) or an on-chip ROM.
#pragma once

#include <cstdint>
#include <limits>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "ir/graph.h"

namespace inrarch::dataflow {

using ProcessId = int32_t;
using StreamId = int32_t;

// A depth no FIFO reaches: "unbounded" (no write-after-read constraint).
inline constexpr int64_t kUnbounded = std::numeric_limits<int64_t>::max();

// A FIFO at most this deep is a register pair (no block RAM, a write readable the next
// cycle); a deeper one is a RAM whose read port adds a cycle (LightningSim's rule). It is
// also the least depth FIFO sizing gives any stream, and every stream's initial depth.
inline constexpr int64_t kShiftRegisterDepth = 2;
// A deeper FIFO, up to this depth, is LUT RAM (RAM32M16 up to 32 beats, RAM64M8 up to 64,
// inrarch_fifo's ram_style); a deeper one still is block RAM (docs/resources.md §2).
inline constexpr int64_t kLutRamFifoDepth = 64;
// Bits a beat carries besides its elements: the overflow flag (inrarch_hls::beat::ovf).
inline constexpr int64_t kBeatSidebandBits = 1;
// Cycles from a write to the earliest read of that beat (the RAW edge of the event graph).
inline constexpr int64_t raw_delay(int64_t depth) { return depth <= kShiftRegisterDepth ? 1 : 2; }

// The kernel model a process follows (see schedule.h for each one's step sequence): the one
// dispatch key of the back half, a row of dataflow/kernels.def each.
enum class Kind : uint8_t {
#define KIND(Name, report_name, family) Name,
#include "dataflow/kernels.def"
};
// Its name in reports and messages ("gather" for the six data-movement maps).
const char* kind_name(Kind k);
// The kinds whose MACs the search chooses (Process::mm_par, mm_lanes; attributes.h).
inline bool has_macs(Kind k) { return k == Kind::Mm || k == Kind::MmReduce; }
// The elementwise kinds (their lanes may fold: Process::ew_fold).
inline bool is_elementwise(Kind k) { return k == Kind::Unary || k == Kind::Binary; }
// The in-order data-movement maps (schedule_gather.cpp, movement.h, inrarch_gather/inrarch_sum):
// the kinds of family Gather in kernels.def.
bool is_gather(Kind k);
// The kinds that compute an op of ops.def (each has the op's operands).
bool is_kernel(Kind k);

// One FIFO operation inside a step. The element (beat) index is implicit: a process's n-th
// access to a stream is beat n of it.
struct FifoOp {
  StreamId stream;
  bool write;
  bool operator==(const FifoOp&) const = default;
};

// An explicit step (Custom processes, expanded schedules): the ops fire in one cycle,
// `delay` cycles (>= 1) after the previous step of the process (or after time 0).
struct Step {
  int64_t delay = 1;
  std::vector<FifoOp> ops;
};

// Where an operand of the kernel's IR node comes from.
struct Operand {
  StreamId stream = -1;                // streamed operand, or
  ir::NodeId static_node = ir::kNoNode;  // constant subtree held inside the kernel
  std::optional<double> splat;         // ... and its value when it is a scalar splat
  ir::Shape shape;                     // the operand's shape
  // What the ROM of a non-splat constant stores. A broadcast that repeats a smaller array
  // (a bias [1,N] expanded to [M,N]) is stored once: rom_node is then the array under the
  // expand and rom_period P its numel, element f of the operand being element f mod P of
  // rom_node. rom_period 0: the ROM is the operand itself (rom_node == static_node).
  ir::NodeId rom_node = ir::kNoNode;
  int64_t rom_period = 0;
  // The bits of one ROM element, when narrower than the design's elem_bits: an mm's constant
  // B (its weights) at LowerOptions::weight_bits. 0: the design's elem_bits. The binary point
  // stays the design type's; docs/dataflow.md, "Number formats".
  int32_t rom_elem_bits = 0;

  // The bits of its elements where the streams carry `width`-bit ones: rom_elem_bits when
  // narrower, else width (the one rule every layer applies).
  int64_t bits_at(int64_t width) const { return rom_elem_bits > 0 && rom_elem_bits < width ? rom_elem_bits : width; }

  // The node whose values fill the ROM (static_node where rom_node was never set, as in
  // hand-made designs).
  ir::NodeId rom_source() const { return rom_node == ir::kNoNode ? static_node : rom_node; }
  // Elements the ROM holds.
  int64_t rom_elems() const { return rom_period > 0 ? rom_period : numel(shape); }
};

struct Process {
  std::string name;  // stable, a C identifier: "mm_12", "in_x", "out_out0", "copy_7"
  Kind kind = Kind::Custom;
  ir::Op op = ir::Op::Input;           // the IR op (Source: Input or Const; Sink/Copy: Input)
  ir::NodeId node = ir::kNoNode;       // the IR node computed (Sink: the node read)
  ir::Attrs attrs;                     // the node's attributes (dims, index, ...)
  std::vector<Operand> operands;       // kernels: one per IR operand, in operand order
  std::vector<StreamId> inputs;        // streams read, in operand order
  std::vector<StreamId> outputs;       // streams written (Copy: round-robin order)
  // Mm, MmReduce: the MACs asked for (--mm-par, the search's choice) and the MACs that work, at most
  // the products of one output beat (mm_lanes = min(mm_par, bC*K): more buy nothing, a beat a
  // cycle at most). Both are set by set_mm_par (attributes.h), the one place that applies the
  // cap; the schedule, the event graph, the resource model and both backends read mm_lanes.
  int64_t mm_par = 1;
  int64_t mm_lanes = 1;
  // Mm: cycles from the MAC cycle that takes a beat's last product to the step that writes the
  // beat (mm_pipeline_depth(mm_lanes), attributes.h; set by set_mm_par). 0 elsewhere.
  int64_t mm_depth = 0;
  // Unary, Binary: the cycles a beat takes, C (a power of two dividing the output's block): the
  // kernel has block / C lanes, which take a beat's elements in C chunks, one a cycle
  // (schedule.h; set by set_ew_fold, attributes.h). 1: a lane per element. 1 elsewhere.
  int64_t ew_fold = 1;
  int64_t buffer_bits = 0;             // kernel-internal RAM buffers (mm B, transpose, ...)
  int64_t rom_bits = 0;                // constant operands held as ROM (rom_elems each)
  std::vector<Step> custom_steps;      // Custom only
};

struct Stream {
  std::string name;  // "s_<producer>__<consumer>[_<slot>]"
  ProcessId producer = -1;
  ProcessId consumer = -1;
  int32_t slot = 0;  // operand slot at the consumer
  ir::Shape shape;
  int64_t block = 1;        // elements per beat (row-major)
  int64_t depth = kShiftRegisterDepth;  // beats; kUnbounded = no bound
  int32_t elem_bits = 32;

  int64_t beats() const;    // numel(shape) / block
  // A beat's bits in its FIFO: the elements and the 1-bit overflow sideband every beat of
  // the HLS kernel library carries (docs/hls.md "Range safety").
  int64_t width_bits() const { return block * elem_bits + kBeatSidebandBits; }
};

// How a value read by k > 1 consumers fans out. Star: one copy with k outputs (the paper's
// copy_stream). Chain (default): copies in order of the consumers' lag (copy i feeds the
// consumers of lag group i and copy i+1; lock-step consumers form one group), so a lag that
// several later consumers share is buffered once, on a link (see lower.cpp).
enum class Fanout : uint8_t { Star, Chain };

// The consumers' positions on each chain fan-out, by the value fanned out (lower.h).
using ChainOrder = std::unordered_map<ir::NodeId, std::vector<size_t>>;

struct LowerOptions {
  int64_t block = 1;      // elements per beat (per stream: the largest divisor of the last dim <= block)
  int64_t rows = 0;       // the batch when the graph's rows are independent (lower.h's stream_block)
  int64_t mm_par = 1;     // parallel MACs asked of every mm (a search's choice: apply_parallelism)
  int32_t elem_bits = 32;
  // The element width of an mm's constant B (its weights' ROM, Operand::rom_elem_bits): 0 or
  // elem_bits for the same width, else 1 to elem_bits - 1 (a 27 x 18 product is one DSP48E2).
  int32_t weight_bits = 0;
  // Elementwise multipliers in LUTs (HLS bind_op impl=fabric) instead of DSP48E2s: a design
  // attribute lowering only copies (apply_parallelism sets it on a lowered design).
  bool fabric_elementwise_mul = false;
  int64_t depth = kShiftRegisterDepth;  // initial FIFO depth of every stream
  Fanout fanout = Fanout::Chain;
  // Chain fan-out: when set, the consumers' order (lower.h's chain_order of the same graph,
  // possibly at another number of rows) instead of ranking them by a resolve of this one,
  // so that the graph at any number of rows lowers to the same processes and streams.
  std::shared_ptr<const ChainOrder> chain_order;
};

struct Design {
  std::vector<Process> processes;
  std::vector<Stream> streams;
  LowerOptions options;

  ProcessId add_process(Process p);
  // Adds a stream and links it into the producer's outputs / consumer's inputs.
  StreamId add_stream(Stream s);
  ProcessId find_process(const std::string& name) const;  // -1 when absent
  StreamId find_stream(const std::string& name) const;    // -1 when absent

  std::vector<int64_t> depths() const;
  void set_depths(const std::vector<int64_t>& depths);
};

// The bits of one element of operand od: its ROM's (Operand::rom_elem_bits) when narrowed,
// else the design's elem_bits.
int64_t operand_bits(const Design& d, const Operand& od);

// A reshape, unsqueeze or squeeze whose blocks are equal: step i reads beat i and writes it
// unchanged, so the back ends build it as a copy with one output (and the resource model
// prices it as one).
bool is_pass_through(const Design& d, const Process& p);

// Number of processes of each kind, by kind_name (for reports).
std::vector<std::pair<std::string, int>> kernels_by_kind(const Design& d);

}  // namespace inrarch::dataflow
