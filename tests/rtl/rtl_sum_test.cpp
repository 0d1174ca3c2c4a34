// inrarch_sum: a ring of accumulators over the outputs open at once and tables kept to a
// period of lines, so a row sum's kernel is the same at 16 rows as at 64 (it held one
// 64-bit accumulator per output and a table line per input element), and a column sum's
// ring is one accumulator a column. The outputs equal the HLS C simulation's bits under
// random stalls and the event graph's cycles without.
#include <fstream>
#include <iterator>
#include <map>

#include "dataflow/kernels.h"
#include "rtl_test_util.h"

namespace inrarch::rtl {
namespace {

using ir::Op;

// Row sums of two elements a beat (each beat's elements share an accumulator) and a column
// sum (every column open until the last row), of values whose sums need more bits than
// theirs.
ir::Bundle sums(int64_t rows) {
  ir::Bundle b{ir::Graph("sums"), {}, {}, {}};
  ir::Graph& g = b.graph;
  ir::NodeId x = g.input("x", {rows, 6});
  ir::NodeId y = g.unary(Op::Neg, x);
  g.add_output("rows", g.sum(y, {1}, false));
  g.add_output("cols", g.sum(y, {0}, false));
  g.add_output("sq", g.sum(g.binary(Op::Mul, x, x), {1}, false));
  // Rows of two: the writes due before the last row's stand between steps of nothing after
  // its last read (the suffix).
  g.add_output("pairs", g.sum(g.slice(y, 1, 0, 2, 1), {1}, false));
  // Columns of rows of six beats: the first columns are written among the last row's
  // reads, lines that stand apart from the table's period (the suffix).
  g.add_output("wide", g.sum(g.cat({y, x}, 1), {0}, false));
  hls::hls_test::fill_bundle(b, 13);
  return b;
}

TEST(RtlSum, RingAndTablesStayTheSameWhateverTheBatch) {
  INRARCH_NEED_TOOL("verilator");
  std::map<int64_t, std::map<std::string, std::vector<int64_t>>> params;  // rows -> sum -> parameters
  for (int64_t rows : {16, 64}) {
    rtl_test::Case c = rtl_test::emit_case(sums(rows), "sum_ring_" + std::to_string(rows), 2);
    std::ifstream in(c.dir / "rtl" / "inrarch_top.sv");
    const std::string top{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
    for (const auto& p : c.design.processes) {
      if (p.kind != dataflow::Kind::SumMap) continue;
      auto param = [&](const std::string& name) { return rtl_test::instance_param(top, p.name, name); };
      params[rows][p.name] = {param("RING"), param("AW"), param("STEP_LINES"), param("DST_LINES")};
      if (param("AW") == 32 + 1) {  // the rows of two: a write in the tail's head
        EXPECT_EQ(param("SUF_LINES"), 3);
        EXPECT_NE(top.find(".SUFFIX(6'b001000)"), std::string::npos);
      }
      // At most a line per beat of a row (3) for each accumulator of the ring (4): the period.
      EXPECT_LE(param("DST_LINES"), 12) << rows << " " << p.name;
    }
    if (rows == 64) rtl_test::expect_exact(c);
  }
  ASSERT_EQ(params[16].size(), 5u);
  for (const auto& [name, v] : params[64]) {
    SCOPED_TRACE(name);
    ASSERT_TRUE(params[16].count(name));
    if (v.at(1) == 32 + 3) {  // a row sum, 6 contributors: 4 accumulators (a written beat's
      EXPECT_EQ(v.at(0), 4);  // two outputs and the next row's, which its step reads)
      EXPECT_EQ(v, params[16].at(name));
    } else if (v.at(1) == 32 + 1) {  // the rows of two
      EXPECT_EQ(v, params[16].at(name));
    } else {  // the column sums: a column an accumulator, 6 or 12 rounded up to a power of
      // two, 64 contributors, and tables that do not grow with the batch
      EXPECT_TRUE(v.at(0) == 8 || v.at(0) == 16) << v.at(0);
      EXPECT_EQ(v.at(1), 32 + 6);
      EXPECT_EQ(v.at(2), params[16].at(name).at(2));
      EXPECT_EQ(v.at(3), params[16].at(name).at(3));
    }
  }
}

}  // namespace
}  // namespace inrarch::rtl
