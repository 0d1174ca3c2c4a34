#include "support/limits.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "support/error.h"

namespace inrarch::limits {

namespace {

// "file: message", or the message alone when there is no place to name.
std::string at(std::string_view where, const std::string& message) {
  return where.empty() ? message : fmt::format("{}: {}", where, message);
}

std::string shape_text(const std::vector<int64_t>& shape) {
  // A shape past the rank limit may be long: its first dimensions are enough to know it.
  if (shape.size() > 2 * kMaxRank)
    return fmt::format("[{},...] ({} dimensions)", fmt::join(shape.begin(), shape.begin() + kMaxRank, ","),
                       shape.size());
  return fmt::format("[{}]", fmt::join(shape, ","));
}

}  // namespace

void check_shape(const std::vector<int64_t>& shape, std::string_view where) {
  if (shape.size() > kMaxRank)
    throw LimitError(at(where, fmt::format("shape {} has rank {}, over the limit of {} dimensions",
                                           shape_text(shape), shape.size(), kMaxRank)));
  for (int64_t d : shape)
    if (d < 0) throw Error(at(where, fmt::format("negative dimension {} in shape {}", d, shape_text(shape))));
  // The product of the non-zero dimensions: the count, or for a shape with a zero
  // dimension what the count would be without it (still to be sane). It stays <= 2^31
  // before each step, so testing against kMaxElements / d first means no product overflows.
  int64_t n = 1;
  for (int64_t d : shape) {
    if (d == 0) continue;
    if (n > kMaxElements / d) {
      n = kMaxElements + 1;
      break;
    }
    n *= d;
  }
  if (n > kMaxElements)
    throw LimitError(at(where, fmt::format("shape {} has more elements than the limit of {} (2^31)",
                                           shape_text(shape), kMaxElements)));
}

int64_t checked_numel(const std::vector<int64_t>& shape, std::string_view where) {
  check_shape(shape, where);
  int64_t n = 1;
  for (int64_t d : shape) n *= d;
  return n;
}

void check_string(std::string_view s, std::string_view what, std::string_view where) {
  if (s.size() > kMaxStringBytes)
    throw LimitError(at(where, fmt::format("{} of {} bytes is over the limit of {} bytes", what, s.size(),
                                           kMaxStringBytes)));
}

void check_node_count(size_t nodes, std::string_view where) {
  if (nodes > kMaxNodes)
    throw LimitError(at(where, fmt::format("{} nodes, over the limit of {} nodes per graph", nodes, kMaxNodes)));
}

void check_range(int64_t value, int64_t lo, int64_t hi, std::string_view what, std::string_view where) {
  if (value < lo || value > hi)
    throw LimitError(at(where, fmt::format("{} is out of range (the limit: {} to {})", what, lo, hi)));
}

}  // namespace inrarch::limits
