// The limits of support/limits.h in every reader of model files: text IR, graph.json
// (native and "inrarch-aten"), .npy and meta.json. Each case asserts a LimitError (not
// another error, not a crash) whose message names the file and the limit.
#include <gtest/gtest.h>

#include <string>

#include "backend/hls/hls.h"
#include "frontend/load.h"
#include "../io_test_util.h"
#include "ir/bundle.h"
#include "ir/text.h"
#include "support/limits.h"

namespace inrarch {
namespace {

using ir::testing::expect_limit;
using ir::testing::spit;
using ir::testing::TempDir;

const std::string kElements = "limit of 2147483648";
const std::string kRank = "limit of 8 dimensions";
const std::string kNodes = "limit of 262144 nodes";
const std::string kDepth = "limit of 64 levels";
const std::string kString = "limit of 4096 bytes";

std::string one_node_ir(const std::string& node) { return "graph @g {\n" + node + "\n}\n"; }

void parse_ir(const std::string& text) { ir::parse_text(text, "t.ir"); }
void read_json(const std::string& text) { frontend::graph_from_json_text(text, "g.json"); }

// JSON arrays nested `levels` deep.
std::string nested(int levels) { return std::string(levels, '[') + std::string(levels, ']'); }

TEST(Limits, TextShapes) {
  expect_limit([] { parse_ir(one_node_ir("  %0 = input \"x\" : [65536,32769]")); }, {"t.ir:2:20: ", kElements});
  // The product overflows int64 long before the last dimension: still the limit, not UB.
  const std::string huge = "[4294967296,4294967296,4294967296,4294967296]";
  expect_limit([&] { parse_ir(one_node_ir("  %0 = input \"x\" : " + huge)); }, {"t.ir:2:20: ", kElements});
  expect_limit([] { parse_ir(one_node_ir("  %0 = input \"x\" : [1,1,1,1,1,1,1,1,1]")); },
               {"t.ir:2:20: ", "rank 9", kRank});
}

TEST(Limits, TextNodeCount) {
  std::string text = "graph @g {\n  %0 = input \"x\" : [1]\n";
  for (size_t i = 1; i <= limits::kMaxNodes; ++i) text += "  %" + std::to_string(i) + " = neg %" + std::to_string(i - 1) + " : [1]\n";
  const std::string line = std::to_string(limits::kMaxNodes + 2);
  expect_limit([&] { parse_ir(text + "}\n"); }, {"t.ir:" + line + ":4: ", kNodes});
}

TEST(Limits, TextStrings) {
  const std::string name(limits::kMaxStringBytes + 1, 'n');
  expect_limit([&] { parse_ir(one_node_ir("  %0 = input \"" + name + "\" : [1]")); },
               {"t.ir:2:14: string of 4097 bytes", kString});
  expect_limit([&] { parse_ir("graph @" + name + " {}"); }, {"t.ir:1:8: identifier of 4097 bytes", kString});
  // A name of exactly the limit is fine.
  EXPECT_NO_THROW(parse_ir(one_node_ir("  %0 = input \"" + name.substr(1) + "\" : [1]")));
}

TEST(Limits, GraphJsonShapes) {
  auto leaf = [](const std::string& shape) {
    return R"({"nodes": [{"id": 3, "op": "input", "name": "x", "shape": )" + shape + "}]}";
  };
  expect_limit([&] { read_json(leaf("[65536,32769]")); }, {"g.json: node 3: ", kElements});
  expect_limit([&] { read_json(leaf("[9223372036854775807,9223372036854775807]")); }, {"g.json: node 3: ", kElements});
  expect_limit([&] { read_json(leaf("[1,1,1,1,1,1,1,1,1]")); }, {"g.json: node 3: ", kRank});
  // graph.json may leave out the shapes the graph infers: they are held to the same limits.
  expect_limit([] { read_json(R"({"nodes": [{"id": 0, "op": "input", "name": "x", "shape": [65536,1]},
      {"id": 1, "op": "input", "name": "y", "shape": [1,65536]}, {"id": 2, "op": "mm", "operands": [0, 1]}]})"); },
               {"g.json: node 2: mm: shape [65536,65536]", kElements});
}

TEST(Limits, GraphJsonNodeCountDepthAndStrings) {
  std::string nodes;
  for (size_t i = 0; i <= limits::kMaxNodes; ++i) nodes += i ? ",{}" : "{}";
  expect_limit([&] { read_json(R"({"nodes": [)" + nodes + "]}"); }, {"g.json: ", "262145 nodes", kNodes});
  // The top-level object and 64 arrays: 65 levels.
  expect_limit([] { read_json(R"({"nodes": [], "x": )" + nested(64) + "}"); }, {"g.json: ", kDepth});
  EXPECT_NO_THROW(read_json(R"({"nodes": [], "x": )" + nested(63) + "}"));
  const std::string name(limits::kMaxStringBytes + 1, 'n');
  expect_limit([&] { read_json(R"({"name": ")" + name + R"(", "nodes": []})"); }, {"g.json: JSON string of 4097 bytes", kString});
  expect_limit([&] { read_json(R"({")" + name + R"(": 1, "nodes": []})"); }, {"g.json: JSON key of 4097 bytes", kString});
}

std::string aten(const std::string& nodes) {
  return R"({"format": "inrarch-aten", "outputs": [{"name": "y", "node": 0}], "nodes": [)" + nodes + "]}";
}

TEST(Limits, AtenJson) {
  expect_limit([] { read_json(aten(R"({"id": 0, "op": "input", "name": "x", "shape": [65536,32769]})")); },
               {"g.json: node 0 (#0): ", kElements});
  expect_limit([] { read_json(aten(R"({"id": 0, "op": "const", "value": 1.0, "shape": [1,1,1,1,1,1,1,1,1]})")); },
               {"g.json: node 0 (#0): ", kRank});
  // The result shape PyTorch recorded is held to the limit before anything is built.
  expect_limit([] { read_json(aten(R"({"id": 0, "op": "input", "name": "x", "shape": [1, 65536]},
      {"id": 1, "op": "aten.expand.default", "shape": [65536, 65536], "args": [{"node": 0}, [65536, 65536]]})")); },
               {"g.json: node 1 (#1)", kElements});
  std::string nodes;
  for (size_t i = 0; i <= limits::kMaxNodes; ++i) nodes += i ? ",{}" : "{}";
  expect_limit([&] { read_json(aten(nodes)); }, {"g.json: ", kNodes});
  expect_limit([] { read_json(aten(R"({"id": 0, "op": "input", "name": "x", "shape": [1], "args": )" + nested(70) + "}")); },
               {"g.json: ", kDepth});
  const std::string op = "aten." + std::string(limits::kMaxStringBytes, 'a');
  expect_limit([&] { read_json(aten(R"({"id": 0, "op": ")" + op + R"(", "shape": [1], "args": []})")); },
               {"g.json: JSON string of 4101 bytes", kString});
}

// An .npy file assembled by hand: magic, version 1.0, header length, header, data.
std::string npy(const std::string& header, const std::string& data = "") {
  std::string out = "\x93NUMPY\x01";
  out += '\0';
  out += static_cast<char>(header.size() & 0xff);
  out += static_cast<char>(header.size() >> 8);
  return out + header + data;
}

std::string npy_header(const std::string& shape) {
  return "{'descr': '<f8', 'fortran_order': False, 'shape': " + shape + ", }\n";
}

TEST(Limits, Npy) {
  auto bytes = [](const std::string& b) { ir::npy_from_bytes(b, "t.npy"); };
  expect_limit([&] { bytes(npy(npy_header("(65536, 32769)"))); }, {"t.npy: ", kElements});
  expect_limit([&] { bytes(npy(npy_header("(99999999999999999999999999,)"))); }, {"t.npy: ", kElements});
  expect_limit([&] { bytes(npy(npy_header("(1, 1, 1, 1, 1, 1, 1, 1, 1)"))); }, {"t.npy: ", kRank});
  const std::string padded = npy_header("(1,)") + std::string(limits::kMaxStringBytes, ' ');
  expect_limit([&] { bytes(npy(padded, std::string(8, '\0'))); }, {"t.npy: .npy header of 4154 bytes", kString});
  // read_npy is the same reader, naming the file it read.
  TempDir dir;
  spit(dir / "big.npy", npy(npy_header("(1, 1, 1, 1, 1, 1, 1, 1, 1)")));
  expect_limit([&] { ir::read_npy(dir / "big.npy"); }, {(dir / "big.npy").string(), kRank});
}

TEST(Limits, MetaJson) {
  TempDir dir;
  spit(dir / "meta.json", "{\"source_dtype\": " + nested(65) + "}");
  expect_limit([&] { frontend::source_dtype(dir.path()); }, {(dir / "meta.json").string(), kDepth});
}

// hls-report's reader of Vitis's csynth.xml recurses per element: a deep tree (here 200,000
// levels, 1.4 MB) overflowed the stack.
TEST(Limits, CsynthXmlNesting) {
  TempDir dir;
  std::string xml = "<profile>";
  for (int i = 0; i < 200000; ++i) xml += "<a>";
  for (int i = 0; i < 200000; ++i) xml += "</a>";
  spit(dir / "csynth.xml", xml + "</profile>");
  expect_limit([&] { hls::parse_csynth_report(dir / "csynth.xml"); }, {(dir / "csynth.xml").string(), kDepth});
}

}  // namespace
}  // namespace inrarch
