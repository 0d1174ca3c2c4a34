// On-chip memory of a design (docs/dataflow.md §5): FIFO storage and kernel-internal storage,
// reported separately.
//
// FIFO of depth d and width w = block * elem_bits + 1 (the beat's overflow bit, design.h):
// bits = d * w. Depth <= 2 is a register pair, up to kLutRamFifoDepth LUT RAM (0 BRAM:
// a LUT holds 14 bits of a beat up to depth 32 as a RAM32M16's share, 7 up to 64 as a
// RAM64M8's), deeper the cheapest tiling by 18Kb blocks in one of the aspect ratios
// 512 x 36 (simple dual port: a FIFO's one write and one read port), 1K x 18, 2K x 9,
// 4K x 4, 8K x 2, 16K x 1. So Yosys builds inrarch_fifo (docs/resources.md §2).
#pragma once

#include <cstdint>
#include <vector>

#include "dataflow/design.h"

namespace inrarch::dataflow {

int64_t fifo_bits(const Stream& s, int64_t depth);
int64_t fifo_bram18k(int64_t width_bits, int64_t depth);
int64_t fifo_lutram_luts(int64_t width_bits, int64_t depth);

struct MemoryReport {
  int64_t total_depth = 0;         // sum of FIFO depths (beats)
  int64_t fifo_bits = 0;
  int64_t bram18k = 0;             // FIFOs only (those deeper than kLutRamFifoDepth)
  int64_t kernel_buffer_bits = 0;  // RAM buffers inside kernels (mm B, transpose, ...)
  int64_t rom_bits = 0;            // constant operands held inside kernels
};

// `depths` must be finite (pass observed depths for unbounded streams).
MemoryReport memory(const Design& d, const std::vector<int64_t>& depths);

}  // namespace inrarch::dataflow
