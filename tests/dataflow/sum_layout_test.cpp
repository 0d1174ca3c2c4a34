// The sum kernel's ring of accumulators (sum_layout.h) against rings worked out by hand, and
// the resource model's price of a sum, which must not grow with the batch where the rows
// are summed.
#include <gtest/gtest.h>

#include "dataflow/lower.h"
#include "dataflow/resources.h"
#include "dataflow/sum_layout.h"
#include "support/looped_table.h"
#include "support/error.h"

namespace inrarch::dataflow {
namespace {

struct Summed {
  Design d;
  ProcessId sum = -1;
};

// x [rows, cols] summed over `dims` at `block` elements a beat (every stream).
Summed summed(int64_t rows, int64_t cols, std::vector<int64_t> dims, bool keepdim, int64_t block) {
  ir::Graph g("sum_layout");
  ir::NodeId x = g.input("x", {rows, cols});
  g.add_output("s", g.sum(g.unary(ir::Op::Neg, x), std::move(dims), keepdim));
  LowerOptions o;
  o.block = block;
  Summed s{lower(g, o)};
  for (size_t p = 0; p < s.d.processes.size(); ++p)
    if (s.d.processes[p].kind == Kind::SumMap) s.sum = ProcessId(p);
  return s;
}

TEST(SumLayout, ARowSumKeepsTwoBeatsOfAccumulators) {
  for (int64_t rows : {16, 256}) {
    const Summed s = summed(rows, 6, {1}, false, 1);
    ASSERT_GE(s.sum, 0);
    const SumLayout l = sum_layout(s.d, s.sum);
    // Row r's sum is written four steps after its last read, with the fourth read of row
    // r + 1, and picked (read out, its accumulator cleared) two steps before: two rows open
    // at once.
    EXPECT_EQ(l.ring, 2) << rows;
    EXPECT_EQ(l.contributors, 6);
    ASSERT_EQ(l.slots.size(), size_t(rows * 6));
    for (size_t b = 0; b < l.slots.size(); ++b) EXPECT_EQ(l.slots[b], std::vector<uint64_t>{b / 6 % 2}) << b;
    EXPECT_EQ(l.steps.at(8), 1u);
    EXPECT_EQ(l.steps.at(9), 3u);  // row 0's write with row 1's fourth read
    // The last row's write, alone, after three steps of nothing: the suffix and the tail,
    // not the table.
    EXPECT_EQ(l.suffix, (std::vector<uint64_t>{0, 0, 0}));
    EXPECT_EQ(l.tail_writes, 1);
    EXPECT_EQ(l.steps.size(), size_t(rows * 6));
  }
  // Two elements a beat, two outputs a beat: rows 0 and 1 (three beats each, the last read
  // in step 5), then the beat of both sums in step 9 with row 3's first, picked in step 7
  // with row 2's second: outputs 0 to 2 open, so 4 accumulators.
  const Summed s = summed(8, 6, {1}, false, 2);
  const SumLayout l = sum_layout(s.d, s.sum);
  EXPECT_EQ(l.ring, 4);
  ASSERT_EQ(l.slots.size(), 24u);
  EXPECT_EQ(l.slots[0], (std::vector<uint64_t>{0, 0}));
  EXPECT_EQ(l.slots[3], (std::vector<uint64_t>{1, 1}));
  EXPECT_EQ(l.slots[6], (std::vector<uint64_t>{2, 2}));
  EXPECT_EQ(l.slots[12], (std::vector<uint64_t>{0, 0}));
  EXPECT_EQ(l.steps.at(5), 1u);  // the last read of rows 0 and 1
  // Both elements of a beat are in one row: they share its accumulator, and the second
  // stores it, whichever of the four it is; a written beat's first output is even, so
  // position 0 reads accumulators 0 and 2, position 1 reads 1 and 3.
  EXPECT_EQ(l.shares, (std::vector<bool>{false, true, true, false}));
  EXPECT_EQ(l.shared_pairs(), 2);
  EXPECT_EQ(l.chain_pairs(), 1);
  EXPECT_EQ(l.elem_accs(), (std::vector<int64_t>{0, 4}));
  EXPECT_EQ(l.acc_elems(), (std::vector<int64_t>{1, 1, 1, 1}));
  EXPECT_EQ(l.out_accs(), (std::vector<int64_t>{2, 2}));
  EXPECT_EQ(l.steps.at(8), 1u);  // row 2's last read
  EXPECT_EQ(l.steps.at(9), 3u);  // rows 0 and 1's beat, with row 3's first read
}

// Rows of two elements at one a beat: row r's last read is step 2r + 1 and its write is
// due 4 steps later. After the last row's last read (step 2R - 1), row R - 2's write, due
// at 2R + 1, stands between steps of nothing, and the last row's follows at 2R + 3: the
// suffix is nothing, a write, nothing, then one write.
TEST(SumLayout, WritesDueBeforeTheLastOneStandInTheSuffix) {
  const Summed s = summed(16, 2, {1}, false, 1);
  const SumLayout l = sum_layout(s.d, s.sum);
  EXPECT_EQ(l.steps.size(), 32u);
  EXPECT_EQ(l.suffix, (std::vector<uint64_t>{0, 2, 0}));
  EXPECT_EQ(l.tail_writes, 1);
  EXPECT_EQ(l.steps.at(5), 3u);  // row 0's write (due at 1 + 4) with row 2's second read
}

// A column sum of rows of 8 beats (one element a beat): column c's last read is step
// 8(R - 1) + c, its write due 4 steps later, so the first four columns are written with
// the last row's last four reads, and the other four follow. Those four lines stand apart
// as the suffix, so the table before them is one line of reads whatever the batch (it
// kept every line, as long as the batch).
TEST(SumLayout, AColumnSumsLastRowStandsApartFromItsPeriod) {
  std::vector<int64_t> table_lines;
  for (int64_t rows : {16, 256}) {
    const Summed s = summed(rows, 8, {0}, false, 1);
    const SumLayout l = sum_layout(s.d, s.sum);
    EXPECT_EQ(l.suffix, (std::vector<uint64_t>{3, 3, 3, 3})) << rows;
    EXPECT_EQ(l.tail_writes, 4) << rows;
    EXPECT_EQ(l.steps.size(), size_t(8 * rows - 4)) << rows;
    table_lines.push_back(looped_table(l.steps).lines);
  }
  EXPECT_EQ(table_lines, (std::vector<int64_t>{1, 1}));
}

TEST(SumLayout, AColumnSumKeepsOneAccumulatorAColumn) {
  for (int64_t rows : {16, 256}) {
    const SumLayout l = sum_layout(summed(rows, 6, {0}, false, 2).d, summed(rows, 6, {0}, false, 2).sum);
    EXPECT_EQ(l.ring, 8) << rows;  // 6 columns open until the last row, rounded to a power of two
    EXPECT_EQ(l.contributors, rows);
    EXPECT_EQ(l.slots.at(1), (std::vector<uint64_t>{2, 3}));
    EXPECT_EQ(l.slots.at(3), (std::vector<uint64_t>{0, 1}));
    // A beat's two elements are in two columns: they never share, and column c is always
    // stored by element c mod 2 and written at position c mod 2 (accumulators 6 and 7 hold
    // no column).
    EXPECT_EQ(l.shared_pairs(), 0);
    EXPECT_EQ(l.elem_accs(), (std::vector<int64_t>{3, 3}));
    EXPECT_EQ(l.acc_elems(), (std::vector<int64_t>{1, 1, 1, 1, 1, 1, 0, 0}));
    EXPECT_EQ(l.out_accs(), (std::vector<int64_t>{3, 3}));
  }
  const Summed all = summed(16, 6, {}, false, 1);
  EXPECT_EQ(sum_layout(all.d, all.sum).ring, 1);
  EXPECT_EQ(sum_layout(all.d, all.sum).contributors, 96);
}

TEST(SumLayout, AccumulatorBitsGrowWithTheContributorsUpToTheWrap) {
  EXPECT_EQ(sum_acc_bits(32, 1, 50), 32);
  EXPECT_EQ(sum_acc_bits(32, 2, 50), 33);
  EXPECT_EQ(sum_acc_bits(32, 6, 50), 35);
  EXPECT_EQ(sum_acc_bits(32, 8, 50), 35);
  EXPECT_EQ(sum_acc_bits(32, 1 << 20, 50), 50);
}

TEST(SumLayout, RefusesAProcessThatIsNotASum) {
  const Summed s = summed(4, 6, {1}, false, 1);
  ProcessId other = s.sum == 0 ? 1 : 0;
  EXPECT_THROW(sum_layout(s.d, other), Error);
}

// The model prices the ring the RTL builds: the same LUTs and flip-flops at 256 rows as at
// 4,096, where one accumulator per output was 4,096 × 64 flip-flops.
TEST(SumLayout, TheModelsRowSumDoesNotGrowWithTheBatch) {
  const Capacity big{100000, 100000, 1000, 10000000, 10000000};
  std::vector<Usage> priced;
  for (int64_t rows : {256, 4096}) {
    const Summed s = summed(rows, 64, {1}, false, 4);
    const ResourceReport r = estimate_resources(s.d, std::vector<int64_t>(s.d.streams.size(), 2),
                                                {Arith::Fixed, 32}, big);
    priced.push_back(r.per_process.at(size_t(s.sum)));
  }
  EXPECT_EQ(priced[1].ff, priced[0].ff + 4);  // the step counter: 16 times the steps
  EXPECT_EQ(priced[1].lut, priced[0].lut);
  EXPECT_EQ(priced[1].bram18k, 0);
  // The ring, the high halves' stage, the output beat's two stages and the tables' registers.
  EXPECT_LT(priced[1].ff, 800);
}

}  // namespace
}  // namespace inrarch::dataflow
