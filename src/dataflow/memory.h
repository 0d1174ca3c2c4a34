// On-chip memory of a design (docs/dataflow.md §5): FIFO storage and kernel-internal storage,
// reported separately.
//
// FIFO of depth d and width w = block * elem_bits + 1 (the beat's overflow bit, design.h):
// bits = d * w. BRAM18K (LightningSim's rule): depth <= 2 is a shift register (0 BRAM);
// otherwise the cheapest tiling by 18Kb blocks in one of the aspect ratios 1K x 18,
// 2K x 9, 4K x 4, 8K x 2, 16K x 1.
#pragma once

#include <cstdint>
#include <vector>

#include "dataflow/design.h"

namespace inrarch::dataflow {

int64_t fifo_bits(const Stream& s, int64_t depth);
int64_t fifo_bram18k(int64_t width_bits, int64_t depth);

struct MemoryReport {
  int64_t total_depth = 0;         // sum of FIFO depths (beats)
  int64_t fifo_bits = 0;
  int64_t bram18k = 0;             // FIFOs only
  int64_t kernel_buffer_bits = 0;  // RAM buffers inside kernels (mm B, transpose, ...)
  int64_t rom_bits = 0;            // constant operands held inside kernels
};

// `depths` must be finite (pass observed depths for unbounded streams).
MemoryReport memory(const Design& d, const std::vector<int64_t>& depths);

}  // namespace inrarch::dataflow
