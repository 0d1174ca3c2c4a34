// What a user's file may ask of the tool. Every reader (text IR, graph.json of both formats,
// .npy, meta.json, the --depths JSON) checks against these constants, so that a hostile or
// corrupt file is a clear error (LimitError, exit 1) instead of an overflow, a terabyte
// allocation or a stack overflow. The values and the reasons for them are in docs/errors.md.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace inrarch::limits {

// Elements of one tensor (2^31: 16 GiB of doubles, past any model this tool compiles, and
// every count still fits an int64 product of two of them).
inline constexpr int64_t kMaxElements = int64_t{1} << 31;
// Dimensions of one tensor (the IR's ops, PyTorch's exports and the HLS kernels use <= 4).
inline constexpr size_t kMaxRank = 8;
// Nodes of one graph file. INSP order 4 has about 4,000; graphs of 10^5 nodes still read
// in well under a second.
inline constexpr size_t kMaxNodes = size_t{1} << 18;
// Nesting of a JSON document or of csynth.xml's elements (graph.json nests 4 deep, Vitis's
// reports about 6; the XML reader and JSON's dump recurse, one stack frame a level).
inline constexpr int kMaxNesting = 64;
// Bytes of one string: a name, a JSON string or key, a token of text IR, a .npy header.
inline constexpr size_t kMaxStringBytes = 4096;
// A FIFO depth in beats (--depths): 2^24 beats of 64 bits is already 1 Gbit, more than any
// FPGA's on-chip memory; past it, bit counts would overflow.
inline constexpr int64_t kMaxFifoDepth = int64_t{1} << 24;
// Elements per stream beat (--block) and MACs per mm (--mm-par): 2^16 is past every
// part's DSP count, and beats stay narrow enough to count in bits.
inline constexpr int64_t kMaxParallel = int64_t{1} << 16;

// Throws when a shape read from a file is unusable: Error for a negative dimension
// (malformed), LimitError for a rank past kMaxRank or more than kMaxElements elements
// (checked before each multiplication, so no shape overflows the count). Messages start
// with `where` (the file and place).
void check_shape(const std::vector<int64_t>& shape, std::string_view where);
// The element count of a shape, after check_shape.
int64_t checked_numel(const std::vector<int64_t>& shape, std::string_view where);

// Throw LimitError when `s` is longer than kMaxStringBytes; `what` says which string
// ("string", "name").
void check_string(std::string_view s, std::string_view what, std::string_view where);
// Throw LimitError when a graph file has more than kMaxNodes nodes.
void check_node_count(size_t nodes, std::string_view where);
// Throw LimitError unless lo <= value <= hi; `what` names the value ("--block 0").
void check_range(int64_t value, int64_t lo, int64_t hi, std::string_view what, std::string_view where);

}  // namespace inrarch::limits
