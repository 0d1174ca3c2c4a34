// The values users give the dataflow layer: FIFO depths (`analyze --depths`, "all=N" or a
// JSON file) and the lowering's block and mm_par. Out of range is a LimitError whose message
// names the file (or the option) and the range.
#include <gtest/gtest.h>

#include <string>

#include "dataflow/attributes.h"
#include "dataflow/depths.h"
#include "dataflow/lower.h"
#include "../io_test_util.h"
#include "support/limits.h"

namespace inrarch::dataflow {
namespace {

using ir::testing::expect_limit;
using ir::testing::spit;
using ir::testing::TempDir;

const std::string kDepthRange = "the limit: 1 to 16777216";
const std::string kParRange = "the limit: 1 to 65536";

// The paper's Fig. 5 graph: a few streams, one of them named in every design.
ir::Graph fig5() {
  ir::Graph g;
  ir::NodeId x = g.input("x", {8, 1});
  ir::NodeId m = g.mm(g.param("w", {8, 8}), x);
  g.add_output("y", g.binary(ir::Op::Mul, m, g.unary(ir::Op::Cos, x)));
  return g;
}

TEST(DepthLimits, JsonValues) {
  const Design d = lower(fig5());
  const std::string s = d.streams.front().name;
  auto read = [&](const std::string& text) { return depths_from_json_text(d, text, "d.json"); };
  expect_limit([&] { read(R"({"all": 16777217})"); }, {"d.json: ", "16777217", kDepthRange});
  expect_limit([&] { read(R"({")" + s + R"(": 0})"); }, {"d.json: ", s, kDepthRange});
  expect_limit([&] { read(R"({"depths": {")" + s + R"(": 18446744073709551615}})"); }, {"d.json: ", s, kDepthRange});
  EXPECT_EQ(read(R"({"all": 16777216})").front(), limits::kMaxFifoDepth);
  EXPECT_EQ(read(R"({")" + s + R"(": "unbounded"})").front(), kUnbounded);
}

TEST(DepthLimits, JsonDocument) {
  const Design d = lower(fig5());
  auto read = [&](const std::string& text) { return depths_from_json_text(d, text, "d.json"); };
  expect_limit([&] { read(R"({"all": )" + std::string(64, '[') + std::string(64, ']') + "}"); },
               {"d.json: ", "limit of 64 levels"});
  expect_limit([&] { read(R"({")" + std::string(limits::kMaxStringBytes + 1, 's') + R"(": 2})"); },
               {"d.json: JSON key of 4097 bytes", "limit of 4096 bytes"});
}

TEST(DepthLimits, SpecAndFile) {
  const Design d = lower(fig5());
  expect_limit([&] { read_depths(d, "all=0"); }, {"--depths: all = 0", kDepthRange});
  expect_limit([&] { read_depths(d, "all=99999999999999999999999"); }, {"--depths: ", kDepthRange});
  EXPECT_EQ(read_depths(d, "all=16777216").back(), limits::kMaxFifoDepth);
  TempDir dir;
  spit(dir / "depths.json", R"({"all": 100000000})");
  expect_limit([&] { read_depths(d, (dir / "depths.json").string()); }, {(dir / "depths.json").string(), kDepthRange});
}

TEST(LowerLimits, BlockAndMmPar) {
  const ir::Graph g = fig5();
  auto lower_with = [&](int64_t block, int64_t mm_par) {
    LowerOptions lo;
    lo.block = block;
    lo.mm_par = mm_par;
    lower(g, lo);
  };
  expect_limit([&] { lower_with(65537, 1); }, {"lower: block 65537", kParRange});
  expect_limit([&] { lower_with(0, 1); }, {"lower: block 0", kParRange});
  expect_limit([&] { lower_with(1, 65537); }, {"lower: mm_par 65537", kParRange});
  EXPECT_NO_THROW(lower_with(65536, 65536));
  // A per-kernel choice is a design attribute, set on the lowered design (attributes.h).
  Design d = lower(g);
  const ProcessId mm = d.find_process("mm_2");
  ASSERT_GE(mm, 0);
  expect_limit([&] { set_mm_par(d, mm, int64_t{1} << 40); }, {"set_mm_par: mm_par 1099511627776 of mm_2", kParRange});
  expect_limit([&] { apply_parallelism(d, Parallelism{{{mm, 0}}, false, {}}); }, {"mm_par 0 of mm_2", kParRange});
}

}  // namespace
}  // namespace inrarch::dataflow
