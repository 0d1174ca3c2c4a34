// Text IR: golden round-trips, printer output for graphs built through the API, and parse
// errors with their positions.
#include "ir/text.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <random>
#include <set>

#include "io_test_util.h"

namespace inrarch::ir {
namespace {

using testing::expect_error;
using testing::golden_ir_files;
using testing::slurp;

TEST(TextGolden, PrintOfParseIsIdentity) {
  ASSERT_GE(golden_ir_files().size(), 4u);
  for (const auto& file : golden_ir_files()) {
    SCOPED_TRACE(file.string());
    const std::string text = slurp(file);
    EXPECT_EQ(print_text(parse_text(text, file.string())), text);
  }
}

TEST(TextGolden, CoverEveryOpInOpsDef) {
  std::set<Op> seen;
  for (const auto& file : golden_ir_files()) {
    const Graph g = parse_text(slurp(file), file.string());
    for (const Node& n : g.nodes()) seen.insert(n.op);
  }
  for (int i = 0; i < kNumOps; ++i)
    EXPECT_TRUE(seen.count(static_cast<Op>(i))) << "no golden IR uses " << op_name(static_cast<Op>(i));
}

TEST(TextGolden, ParsePrintParseGivesTheSameGraph) {
  for (const auto& file : golden_ir_files()) {
    SCOPED_TRACE(file.string());
    Graph a = parse_text(slurp(file), file.string());
    verify(a);
    Graph b = parse_text(print_text(a));
    testing::expect_same_graph(a, b);
  }
}

TEST(Text, PrintsGraphBuiltThroughTheApi) {
  Graph g("insp");
  NodeId x = g.input("x", {64, 2});
  NodeId w = g.param("l0.weight", {256, 2});
  NodeId h = g.mm(x, g.transpose(w));
  NodeId y = g.select(g.binary(Op::Mul, h, g.constant(30.0, {64, 256})), 1, 0);
  g.add_output("out0", y);
  NodeId s = g.sum(g.permute(h, {1, 0}), {-1}, true);
  g.add_output("s", g.slice(s, 0, -6, 1000, 5));
  g.add_output("c", g.constant(Tensor({2}, {1.0, 0.25})));
  EXPECT_EQ(print_text(g),
            "graph @insp {\n"
            "  %0 = input \"x\" : [64,2]\n"
            "  %1 = param \"l0.weight\" : [256,2]\n"
            "  %2 = transpose %1 : [2,256]\n"
            "  %3 = mm %0, %2 : [64,256]\n"
            "  %4 = const 30.0 : [64,256]\n"
            "  %5 = mul %3, %4 : [64,256]\n"
            "  %6 = select %5 {dim = 1, index = 0} : [64]\n"
            "  %7 = permute %3 {perm = [1, 0]} : [256,64]\n"
            "  %8 = sum %7 {dims = [1], keepdim = true} : [256,1]\n"
            "  %9 = slice %8 {dim = 0, start = 250, end = 256, step = 5} : [2,1]\n"
            "  %10 = const dense<[1.0, 0.25]> : [2]\n"
            "  output \"out0\" = %6\n"
            "  output \"s\" = %9\n"
            "  output \"c\" = %10\n"
            "}\n");
}

TEST(Text, RenumbersGapsAndDropsDeadNodes) {
  const char* text = R"(graph @g {   // ids with gaps, a dead node, free layout
  %10 = input "x" : [3]
  %7 = exp %10 : [3]     // dead: no output reaches it
  %42 =
     neg %10 : [3]
  output "y" = %42
})";
  Graph g = parse_text(text);
  EXPECT_EQ(print_text(g),
            "graph @g {\n"
            "  %0 = input \"x\" : [3]\n"
            "  %1 = neg %0 : [3]\n"
            "  output \"y\" = %1\n"
            "}\n");
  EXPECT_EQ(print_text(g, /*all_nodes=*/true),
            "graph @g {\n"
            "  %0 = input \"x\" : [3]\n"
            "  %1 = exp %0 : [3]\n"
            "  %2 = neg %0 : [3]\n"
            "  output \"y\" = %2\n"
            "}\n");
}

TEST(Text, DuplicateDefinitionsHashConsToOneNode) {
  Graph g = parse_text(R"(graph @g {
  %0 = input "x" : [3]
  %1 = sin %0 : [3]
  %2 = sin %0 : [3]
  %3 = add %2, %1 : [3]
  output "y" = %3
})");
  EXPECT_EQ(g.size(), 3u);
  EXPECT_EQ(print_text(g), "graph @g {\n  %0 = input \"x\" : [3]\n  %1 = sin %0 : [3]\n  %2 = add %1, %1 : [3]\n"
                           "  output \"y\" = %2\n}\n");
}

TEST(Text, NormalizesNegativeDimsAndIndices) {
  Graph g = parse_text(R"(graph @g {
  %0 = input "x" : [2,3]
  %1 = select %0 {index = -1, dim = -1} : [2]
  %2 = sum %0 {keepdim = false, dims = [-1, 0]} : []
  output "a" = %1
  output "b" = %2
})");
  EXPECT_EQ(g.node(1).attrs.dim, 1);
  EXPECT_EQ(g.node(1).attrs.index, 2);
  EXPECT_EQ(g.node(2).attrs.dims, (std::vector<int64_t>{0, 1}));
  EXPECT_NE(print_text(g).find("%1 = select %0 {dim = 1, index = 2} : [2]\n"), std::string::npos);
}

TEST(Text, EscapedNamesAndQuotedGraphName) {
  Graph g("my graph");
  g.add_output("o\"1\"", g.input("a\\b\n\tc\x01", {1}));
  const std::string text = print_text(g);
  EXPECT_EQ(text, "graph @\"my graph\" {\n  %0 = input \"a\\\\b\\n\\tc\\x01\" : [1]\n  output \"o\\\"1\\\"\" = %0\n}\n");
  Graph back = parse_text(text);
  EXPECT_EQ(back.name(), "my graph");
  EXPECT_EQ(back.node(0).attrs.name, "a\\b\n\tc\x01");
  EXPECT_EQ(back.outputs()[0].name, "o\"1\"");
}

TEST(Text, FormatNumber) {
  EXPECT_EQ(format_number(30.0), "30.0");
  EXPECT_EQ(format_number(-2.0), "-2.0");
  EXPECT_EQ(format_number(0.0), "0.0");
  EXPECT_EQ(format_number(-0.0), "-0.0");
  EXPECT_EQ(format_number(0.1), "0.1");
  EXPECT_EQ(format_number(1.0 / 189.0), "0.005291005291005291");
  EXPECT_EQ(format_number(1e-8), "1e-08");
  EXPECT_EQ(format_number(1e300), "1e+300");
  EXPECT_EQ(format_number(HUGE_VAL), "inf");
  EXPECT_EQ(format_number(-HUGE_VAL), "-inf");
  EXPECT_EQ(format_number(std::nan("")), "nan");
}

TEST(Text, FormatNumberRoundTripsThroughStrtod) {
  std::mt19937_64 rng(7);
  for (int i = 0; i < 20000; ++i) {
    const double v = std::bit_cast<double>(rng());
    if (std::isnan(v)) continue;
    const std::string s = format_number(v);
    EXPECT_TRUE(testing::same_double(std::strtod(s.c_str(), nullptr), v)) << s;
    EXPECT_NE(s.find_first_of(".ei"), std::string::npos) << s;
  }
}

// A node line inside a minimal graph; errors are then reported on line 3.
std::string with_node(const std::string& line) {
  return "graph @g {\n  %0 = input \"x\" : [2,3]\n" + line + "\n  output \"y\" = %0\n}\n";
}

void expect_parse_error(const std::string& text, std::initializer_list<std::string> parts) {
  SCOPED_TRACE(text);
  expect_error([&] { parse_text(text, "t.ir"); }, parts);
}

TEST(TextError, UnknownOp) { expect_parse_error(with_node("  %1 = frob %0 : [2,3]"), {"t.ir:3:8: unknown op 'frob'"}); }

TEST(TextError, UndefinedOperand) {
  expect_parse_error(with_node("  %1 = neg %5 : [2,3]"), {"t.ir:3:13: undefined operand %5"});
}

TEST(TextError, DuplicateId) {
  expect_parse_error(with_node("  %0 = neg %0 : [2,3]"), {"t.ir:3:4: duplicate definition of %0"});
}

TEST(TextError, BadAndMissingAttributes) {
  expect_parse_error(with_node("  %1 = select %0 {dim = 0, idx = 1} : [3]"), {"t.ir:3:28: bad attribute 'idx'"});
  expect_parse_error(with_node("  %1 = neg %0 {dim = 0} : [2,3]"), {"t.ir:3:16: bad attribute 'dim'"});
  expect_parse_error(with_node("  %1 = select %0 {dim = 0, dim = 1} : [3]"), {"t.ir:3:28: attribute 'dim' given twice"});
  expect_parse_error(with_node("  %1 = select %0 {dim = 0} : [3]"), {"t.ir:3:8: missing attribute 'index' for select"});
  expect_parse_error(with_node("  %1 = sum %0 {dims = [0], keepdim = 1} : [3]"), {"t.ir:3:38: expected true or false"});
}

TEST(TextError, ShapeMismatch) {
  expect_parse_error(with_node("  %1 = neg %0 : [3,2]"), {"t.ir:3:8: ", "stated shape [3,2] but operands give [2,3]"});
  expect_parse_error(with_node("  %1 = mm %0, %0 : [2,2]"), {"t.ir:3:8: ", "inner dimensions differ"});
  expect_parse_error(with_node("  %1 = neg %0, %0 : [2,3]"), {"t.ir:3:8: ", "expects 1 operand(s), got 2"});
  expect_parse_error(with_node("  %1 = const dense<[1.0, 2.0]> : [3]"), {"t.ir:3:34: dense value has 2 elements"});
  expect_parse_error(with_node("  %1 = input \"z\" : [99999999999,99999999999]"), {"t.ir:3:20: shape [99999999999,99999999999] has more elements than the limit"});
}

TEST(TextError, SyntaxErrorsHaveLineAndColumn) {
  expect_parse_error("graph @g {\n  %0 = input \"x\" : [2]\n", {"t.ir:3:1: missing '}'"});
  expect_parse_error("graph @g {\n  %0 = input \"x : [2]\n}\n", {"t.ir:2:14: unterminated string"});
  expect_parse_error("graph @g {\n  %0 = const 1.2.3 : [2]\n}\n", {"t.ir:2:14: expected a number, found '1.2.3'"});
  expect_parse_error("graph @g {\n  %0 = input \"x\" [2]\n}\n", {"t.ir:2:18: expected ':', found '['"});
  expect_parse_error("graph @g {\n  %0 = input \"x\" : [2] #\n}\n", {"t.ir:2:24: unexpected character '#'"});
  expect_parse_error("grph @g {}", {"t.ir:1:1: expected 'graph'"});
  expect_parse_error("graph @g {}\nextra", {"t.ir:2:1: unexpected 'extra' after the graph"});
  expect_parse_error("graph @g {\n  output \"y\" = %3\n}", {"t.ir:2:17: undefined operand %3"});
  expect_parse_error("graph @g {\n  %0 = input \"x\" : [2]\n  output \"y\" = %0\n  output \"y\" = %0\n}",
                     {"t.ir:4:3: ", "declared twice"});
}

// Every prefix and many single-byte corruptions of a golden file either parse or throw
// inrarch::Error; nothing else (no crash, no other exception type).
TEST(TextError, CorruptedInputNeverCrashes) {
  const std::string text = slurp(golden_ir_files().front());
  auto try_parse = [](const std::string& t) {
    try {
      parse_text(t);
    } catch (const Error&) {
    }
  };
  for (size_t n = 0; n < text.size(); ++n) try_parse(text.substr(0, n));
  std::mt19937 rng(1);
  const std::string junk = "%=,{}[]:@<>\"\\-+.e0123456789 \nabcxyz\x01\xff";
  for (int i = 0; i < 3000; ++i) {
    std::string t = text;
    t[rng() % t.size()] = junk[rng() % junk.size()];
    try_parse(t);
  }
}

}  // namespace
}  // namespace inrarch::ir
