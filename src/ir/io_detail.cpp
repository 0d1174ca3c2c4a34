#include "ir/io_detail.h"

#include <algorithm>

namespace inrarch::ir::detail {

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
