// A table read line by line from its first line, whose lines after a lead-in repeat with a
// period, kept as its first `lines` lines: after the last, the read goes back to line `loop`
// (line j >= lines of the whole table is line j - (lines - loop)). A gather's step and entry
// tables follow the batch's rows, so in this form they stay as long as a row's, whatever the
// batch (docs/rtl.md §2, "Gathers").
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

namespace inrarch {

struct LoopedTable {
  int64_t lines = 0, loop = 0;
};

// The shortest such form of `table` (lines compared with ==). Read backwards, the table's
// suffix from line s repeats with period p exactly where that reversed prefix of length
// n - s has a border of length n - s - p; the longest border over all those prefixes (the
// prefix function, linear time) gives the fewest lines kept, n - border.
template <class Line>
LoopedTable looped_table(std::span<const Line> table) {
  const int64_t n = int64_t(table.size());
  auto back = [&](int64_t i) -> const Line& { return table[std::size_t(n - 1 - i)]; };
  std::vector<int64_t> border(std::size_t(n), 0);
  LoopedTable best{n, n > 0 ? n - 1 : 0};  // no repeat: any loop line serves past the end
  for (int64_t m = 1; m < n; ++m) {
    int64_t b = border[std::size_t(m - 1)];
    while (b > 0 && !(back(m) == back(b))) b = border[std::size_t(b - 1)];
    if (back(m) == back(b)) ++b;
    border[std::size_t(m)] = b;
    // The reversed prefix of m + 1 lines has period m + 1 - b: the table from line
    // n - m - 1 repeats with it, from line n - b on.
    if (n - b < best.lines) best = {n - b, n - b - (m + 1 - b)};
  }
  return best;
}
template <class Line>
LoopedTable looped_table(const std::vector<Line>& table) {
  return looped_table(std::span<const Line>(table));
}

}  // namespace inrarch
