// graph.json: writer output, round-trips, node order, and malformed files.
#include <gtest/gtest.h>

#include <random>

#include "io_test_util.h"
#include "ir/bundle.h"
#include "ir/text.h"

namespace inrarch::ir {
namespace {

using testing::expect_error;
using testing::golden_ir_files;
using testing::slurp;

const char* kInspText =
    "graph @insp {\n"
    "  %0 = input \"x\" : [64,2]\n"
    "  %1 = param \"l0.weight\" : [256,2]\n"
    "  %2 = transpose %1 : [2,256]\n"
    "  %3 = mm %0, %2 : [64,256]\n"
    "  %4 = const 30.0 : [64,256]\n"
    "  %5 = mul %3, %4 : [64,256]\n"
    "  %6 = select %5 {dim = 1, index = 0} : [64]\n"
    "  output \"out0\" = %6\n"
    "}\n";

const char* kInspJson = R"({
  "format": "inrarch-graph",
  "version": 1,
  "name": "insp",
  "nodes": [
    {"id":0,"op":"input","name":"x","shape":[64,2]},
    {"id":1,"op":"param","name":"l0.weight","shape":[256,2]},
    {"id":2,"op":"transpose","operands":[1],"shape":[2,256]},
    {"id":3,"op":"mm","operands":[0,2],"shape":[64,256]},
    {"id":4,"op":"const","value":30.0,"shape":[64,256]},
    {"id":5,"op":"mul","operands":[3,4],"shape":[64,256]},
    {"id":6,"op":"select","operands":[5],"attrs":{"dim":1,"index":0},"shape":[64]}
  ],
  "outputs": [
    {"name":"out0","node":6}
  ]
}
)";

TEST(Json, WriterOutputIsTheDocumentedLayout) {
  EXPECT_EQ(graph_to_json_text(parse_text(kInspText)), kInspJson);
}

TEST(Json, ReadsTheDocumentedExample) { EXPECT_EQ(print_text(graph_from_json_text(kInspJson, "x.json")), kInspText); }

TEST(Json, RoundTripOfEveryGoldenGraph) {
  for (const auto& file : golden_ir_files()) {
    SCOPED_TRACE(file.string());
    Graph g = parse_text(slurp(file), file.string());
    Graph back = graph_from_json_text(graph_to_json_text(g), "rt.json");
    testing::expect_same_graph(g, back);
    EXPECT_EQ(print_text(back), slurp(file));
  }
}

TEST(Json, KeepsDeadNodesAndIds) {
  Graph g("d");
  NodeId x = g.input("x", {2});
  g.unary(Op::Exp, x);  // dead
  g.add_output("y", g.unary(Op::Neg, x));
  testing::expect_same_graph(g, graph_from_json_text(graph_to_json_text(g), "d.json"));
}

TEST(Json, NodesInAnyOrderWithSparseIds) {
  const char* text = R"({"format": "inrarch-graph", "version": 1, "name": "g", "nodes": [
    {"id": 5, "op": "mul", "operands": [9, 2], "shape": [3]},
    {"id": 9, "op": "sin", "operands": [2]},
    {"id": 2, "op": "input", "name": "x", "shape": [3]},
    {"id": 11, "op": "const", "value": [1, 2.5, "-inf", 4], "shape": [2, 2]},
    {"id": 12, "op": "sum", "operands": [11], "attrs": {"keepdim": false, "dims": [-1]}}
  ], "outputs": [{"name": "y", "node": 5}, {"name": "s", "node": 12}]})";
  EXPECT_EQ(print_text(graph_from_json_text(text, "g.json")),
            "graph @g {\n"
            "  %0 = input \"x\" : [3]\n"
            "  %1 = sin %0 : [3]\n"
            "  %2 = mul %0, %1 : [3]\n"
            "  %3 = const dense<[1.0, 2.5, -inf, 4.0]> : [2,2]\n"
            "  %4 = sum %3 {dims = [1], keepdim = false} : [2]\n"
            "  output \"y\" = %2\n"
            "  output \"s\" = %4\n"
            "}\n");
}

// A graph.json with the given node list, one output on node 0.
std::string with_nodes(const std::string& nodes) {
  return R"({"format": "inrarch-graph", "version": 1, "name": "g", "nodes": [)" + nodes +
         R"(], "outputs": [{"name": "y", "node": 0}]})";
}

const std::string kX = R"({"id": 0, "op": "input", "name": "x", "shape": [2]})";

void expect_json_error(const std::string& text, std::initializer_list<std::string> parts) {
  SCOPED_TRACE(text);
  expect_error([&] { graph_from_json_text(text, "g.json"); }, parts);
}

TEST(JsonError, MalformedJsonHasLineAndColumn) {
  expect_json_error("{\n  \"nodes\": [\n    {\"id\": 0,, }\n  ]\n}\n", {"g.json:3:14: malformed JSON", "syntax error"});
  expect_json_error("{\"nodes\": [", {"g.json:1:12: malformed JSON"});
  expect_json_error("", {"g.json:1:1: malformed JSON"});
}

TEST(JsonError, UnknownOpNamesOpAndNode) {
  expect_json_error(with_nodes(kX + R"(, {"id": 7, "op": "frob", "operands": [0]})"),
                    {"g.json: node 7: unknown op \"frob\""});
}

TEST(JsonError, ShapeMismatchNamesNode) {
  expect_json_error(with_nodes(kX + R"(, {"id": 3, "op": "neg", "operands": [0], "shape": [5]})"),
                    {"g.json: node 3: ", "stated shape [5] but operands give [2]"});
  expect_json_error(with_nodes(kX + R"(, {"id": 4, "op": "mm", "operands": [0, 0]})"),
                    {"g.json: node 4: ", "mm: needs 2-D operands"});
  expect_json_error(with_nodes(R"({"id": 0, "op": "input", "name": "x"})"),
                    {"g.json: node 0: ", "result shape must be stated"});
}

TEST(JsonError, CycleNamesTheNodesOnIt) {
  expect_json_error(with_nodes(kX + R"(, {"id": 1, "op": "add", "operands": [0, 3]},
                                         {"id": 2, "op": "neg", "operands": [1]},
                                         {"id": 3, "op": "neg", "operands": [2]})"),
                    {"g.json: cycle in the graph through nodes 1 -> 3 -> 2 -> 1"});
  expect_json_error(with_nodes(R"({"id": 0, "op": "neg", "operands": [0]})"), {"through nodes 0 -> 0"});
}

TEST(JsonError, BadNodesAndAttributes) {
  expect_json_error(with_nodes(kX + R"(, {"id": 1, "op": "select", "operands": [0], "attrs": {"dim": 0}})"),
                    {"node 1: missing attribute 'index'"});
  expect_json_error(with_nodes(kX + R"(, {"id": 1, "op": "neg", "operands": [0], "attrs": {"dim": 0}})"),
                    {"node 1: 'neg' has no attribute 'dim'"});
  expect_json_error(with_nodes(kX + R"(, {"id": 1, "op": "select", "operands": [0], "attrs": {"dim": 0, "index": 0.5}})"),
                    {"node 1: attribute 'index' must be an integer"});
  expect_json_error(with_nodes(kX + R"(, {"id": 1, "op": "neg", "operand": [0]})"), {"node 1: unknown key \"operand\""});
  expect_json_error(with_nodes(kX + R"(, {"id": 1, "op": "neg", "operands": [8]})"), {"node 1: operand 8 is not a node"});
  expect_json_error(with_nodes(kX + ", " + kX), {"duplicate node id 0"});
  expect_json_error(with_nodes(R"({"id": "a", "op": "input"})"), {"\"id\" must be an integer"});
  expect_json_error(with_nodes(R"({"id": 0, "op": "input", "name": "x", "shape": "abc"})"), {"node 0: ", "\"shape\" must be"});
  expect_json_error(with_nodes(R"({"id": 0, "op": "const", "value": [1, 2], "shape": [3]})"),
                    {"node 0: dense value has 2 elements"});
  expect_json_error(with_nodes(R"({"id": 0, "op": "const", "value": "many", "shape": [3]})"),
                    {"node 0: expected a number"});
  expect_json_error(with_nodes(R"({"id": 0, "op": 3})"), {"node 0: unknown op 3"});
}

TEST(JsonError, BadTopLevel) {
  expect_json_error("[1, 2]", {"g.json: the top level must be a JSON object"});
  expect_json_error(R"({"format": "onnx"})", {"unknown \"format\" \"onnx\""});
  expect_json_error(R"({"format": "inrarch-graph", "version": 2, "nodes": []})", {"unsupported version 2"});
  expect_json_error(R"({"name": "g"})", {"needs a \"nodes\" list"});
  expect_json_error(R"({"nodes": [], "outputs": [{"name": "y", "node": 4}]})", {"output \"y\": no node 4"});
  expect_json_error(R"({"nodes": [], "outputs": [{"node": 4}]})", {"each output needs a \"name\""});
}

TEST(JsonError, NumbersAndNamesJsonCannotHold) {
  expect_json_error(R"({"nodes": [{"id": 0, "op": "const", "value": 1e999, "shape": []}]})",
                    {"g.json: malformed JSON", "1e999"});
  Graph g;
  g.add_output("y", g.input("\xff", {1}));
  expect_error([&] { graph_to_json_text(g); }, {"cannot write graph", "UTF-8"});
}

// Prefixes and single-byte corruptions of a valid file parse or throw inrarch::Error only.
TEST(JsonError, CorruptedInputNeverCrashes) {
  const std::string text = kInspJson;
  auto try_read = [](const std::string& t) {
    try {
      graph_from_json_text(t, "c.json");
    } catch (const Error&) {
    }
  };
  for (size_t n = 0; n < text.size(); n += 3) try_read(text.substr(0, n));
  std::mt19937 rng(2);
  const std::string junk = "{}[],:\"0123456789-.eE truefalsnul\\";
  for (int i = 0; i < 3000; ++i) {
    std::string t = text;
    t[rng() % t.size()] = junk[rng() % junk.size()];
    try_read(t);
  }
}

TEST(JsonError, MissingFileNamesIt) {
  expect_error([] { read_graph_json("/nonexistent/dir/graph.json"); }, {"/nonexistent/dir/graph.json", "cannot open"});
}

}  // namespace
}  // namespace inrarch::ir
