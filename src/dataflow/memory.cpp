#include "dataflow/memory.h"

#include <algorithm>

#include "support/error.h"

namespace inrarch::dataflow {

int64_t fifo_bits(const Stream& s, int64_t depth) { return depth * s.width_bits(); }

int64_t fifo_bram18k(int64_t width_bits, int64_t depth) {
  if (depth <= kLutRamFifoDepth) return 0;
  static constexpr int64_t kShapes[][2] = {{36, 512}, {18, 1024}, {9, 2048}, {4, 4096}, {2, 8192}, {1, 16384}};
  int64_t best = INT64_MAX;
  for (const auto& [w, d] : kShapes)
    best = std::min(best, ((width_bits + w - 1) / w) * ((depth + d - 1) / d));
  return best;
}

int64_t fifo_lutram_luts(int64_t width_bits, int64_t depth) {
  if (depth <= kShiftRegisterDepth || depth > kLutRamFifoDepth) return 0;
  const int64_t bits_a_cell = depth <= 32 ? 14 : 7;  // RAM32M16 or RAM64M8, 8 LUTs each
  return 8 * ((width_bits + bits_a_cell - 1) / bits_a_cell);
}

MemoryReport memory(const Design& d, const std::vector<int64_t>& depths) {
  INRARCH_ASSERT(depths.size() == d.streams.size(), "memory: one depth per stream");
  MemoryReport m;
  for (size_t s = 0; s < depths.size(); ++s) {
    INRARCH_ASSERT(depths[s] != kUnbounded, "memory of an unbounded FIFO");
    m.total_depth += depths[s];
    m.fifo_bits += fifo_bits(d.streams[s], depths[s]);
    m.bram18k += fifo_bram18k(d.streams[s].width_bits(), depths[s]);
  }
  for (const auto& p : d.processes) {
    m.kernel_buffer_bits += p.buffer_bits;
    m.rom_bits += p.rom_bits;
  }
  return m;
}

}  // namespace inrarch::dataflow
