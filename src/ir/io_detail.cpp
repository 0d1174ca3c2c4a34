#include "ir/io_detail.h"

#include <fmt/format.h>

#include "support/error.h"

namespace inrarch::ir::detail {

namespace {
// Same spirit as the graph's own sanity limits: shapes past these are input errors.
constexpr int64_t kMaxDim = int64_t{1} << 31;
constexpr int64_t kMaxNumel = int64_t{1} << 36;
}  // namespace

std::optional<int64_t> checked_numel(const Shape& shape) {
  int64_t n = 1;
  for (int64_t d : shape) {
    if (d < 0 || d > kMaxDim) return std::nullopt;
    // Zero-size tensors are fine, but their other dims must still be sane.
    n = n == 0 ? 0 : n * d;
    if (n > kMaxNumel) return std::nullopt;
  }
  return n;
}

std::pair<size_t, size_t> line_col(std::string_view text, size_t offset) {
  offset = std::min(offset, text.size());
  size_t line = 1, col = 1;
  for (size_t i = 0; i < offset; ++i) {
    if (text[i] == '\n') {
      ++line;
      col = 1;
    } else {
      ++col;
    }
  }
  return {line, col};
}

}  // namespace inrarch::ir::detail
