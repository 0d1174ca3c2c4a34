// looped_table: the fewest lines of a table read in order whose tail repeats, against
// hand-worked tables; and every line of the whole table read back from the kept lines.
#include "support/looped_table.h"

#include <gtest/gtest.h>

#include <random>
#include <string>

namespace inrarch {
namespace {

// Line j of the table as the kept lines give it: past the last, back to `loop`.
template <class Line>
Line read_back(const std::vector<Line>& t, const LoopedTable& l, int64_t j) {
  const int64_t period = l.lines - l.loop;
  if (j >= l.lines) j = l.loop + (j - l.loop) % period;
  return t[size_t(j)];
}

std::vector<char> chars(const std::string& s) { return {s.begin(), s.end()}; }

TEST(LoopedTable, HandWorkedTables) {
  struct Want {
    std::string table;
    int64_t lines, loop;
  };
  const Want cases[] = {
      {"abcbcbc", 3, 1},     // a lead-in, then bc
      {"aaaa", 1, 0},        // one line over and over
      {"abcd", 4, 3},        // nothing repeats: every line kept
      {"abab", 2, 0},        // a period from the first line
      {"xabcabcab", 4, 1},   // a period cut short at the end
      {"abcabd", 6, 5},      // the end breaks the period
      {"a", 1, 0},
  };
  for (const Want& w : cases) {
    const LoopedTable l = looped_table(chars(w.table));
    EXPECT_EQ(l.lines, w.lines) << w.table;
    EXPECT_EQ(l.loop, w.loop) << w.table;
  }
  EXPECT_EQ(looped_table(std::vector<int>{}).lines, 0);
}

// Random tables made of a lead-in and a repeated period, cut anywhere: the kept lines read
// back the whole table, and they are no more than the lead-in and one period.
TEST(LoopedTable, KeptLinesReadBackEveryLine) {
  std::mt19937 rng(7);
  for (int trial = 0; trial < 500; ++trial) {
    const int lead = int(rng() % 5), period = 1 + int(rng() % 6), n = lead + int(rng() % 40);
    std::vector<int> t;
    for (int i = 0; i < lead; ++i) t.push_back(int(rng() % 3));
    std::vector<int> row;
    for (int i = 0; i < period; ++i) row.push_back(int(rng() % 3));
    for (int i = lead; i < n; ++i) t.push_back(row[size_t(i - lead) % row.size()]);
    const LoopedTable l = looped_table(t);
    ASSERT_LE(l.lines, std::min(n, lead + period));
    ASSERT_LT(l.loop, std::max<int64_t>(l.lines, 1));
    for (int64_t j = 0; j < int64_t(t.size()); ++j) ASSERT_EQ(read_back(t, l, j), t[size_t(j)]) << trial << " line " << j;
  }
}

}  // namespace
}  // namespace inrarch
