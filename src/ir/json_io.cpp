// graph.json reader and writer (format in docs/formats.md).
//
// Reading: parse with nlohmann (a syntax error's byte offset becomes line:col), index the
// nodes by id, order them by an iterative depth-first search (so a file already in
// topological order keeps its order, and a cycle is reported with the ids on it), then build
// each node through Graph::add, which does the arity, attribute and shape checks. Which
// attributes a node takes comes from ops.def. A graph with "format": "inrarch-aten" is
// handed to the PyTorch front end instead.
#include <algorithm>
#include <cmath>
#include <unordered_map>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "ir/bundle.h"
#include "support/error.h"
#include "ir/io_detail.h"
#include "ir/json_text.h"
#include "support/limits.h"

namespace inrarch::ir {

namespace {

using json = nlohmann::json;

int64_t get_int(const json& v, std::string_view what) {
  if (!v.is_number_integer() || (v.is_number_unsigned() && v.get<uint64_t>() > INT64_MAX))
    throw Error(fmt::format("{} must be an integer, got {}", what, v.dump()));
  return v.get<int64_t>();
}

std::vector<int64_t> get_int_list(const json& v, std::string_view what) {
  if (!v.is_array()) throw Error(fmt::format("{} must be a list of integers, got {}", what, v.dump()));
  std::vector<int64_t> out;
  for (const json& e : v) out.push_back(get_int(e, what));
  return out;
}

// Numbers, plus "inf", "-inf" and "nan" as strings since JSON has no spelling for them.
double get_number(const json& v) {
  if (v.is_number()) return v.get<double>();
  if (v.is_string()) {
    const auto& s = v.get_ref<const std::string&>();
    if (s == "inf") return INFINITY;
    if (s == "-inf") return -INFINITY;
    if (s == "nan") return NAN;
  }
  throw Error(fmt::format("expected a number, got {}", v.dump()));
}

nlohmann::ordered_json number_json(double v) {
  if (std::isfinite(v)) return v;
  return std::isnan(v) ? "nan" : v > 0 ? "inf" : "-inf";
}

std::optional<Attr> attr_from_name(std::string_view s) {
  for (int i = 0; i < kNumAttrKinds; ++i) {
    auto a = static_cast<Attr>(1u << i);
    if (a != ATTR_NAME && a != ATTR_VALUE && attr_name(a) == s) return a;
  }
  return std::nullopt;
}

void set_attr(Attr a, const json& v, Attrs& attrs) {
  const std::string what = fmt::format("attribute '{}'", attr_name(a));
  switch (a) {
    case ATTR_DIM: attrs.dim = get_int(v, what); break;
    case ATTR_INDEX: attrs.index = get_int(v, what); break;
    case ATTR_START: attrs.start = get_int(v, what); break;
    case ATTR_END: attrs.end = get_int(v, what); break;
    case ATTR_STEP: attrs.step = get_int(v, what); break;
    case ATTR_PERM: attrs.perm = get_int_list(v, what); break;
    case ATTR_DIMS: attrs.dims = get_int_list(v, what); break;
    case ATTR_KEEPDIM:
      if (!v.is_boolean()) throw Error(fmt::format("{} must be true or false, got {}", what, v.dump()));
      attrs.keepdim = v.get<bool>();
      break;
    default: break;
  }
}

// Every attribute the op carries, in Attr enum order (the text format's order).
nlohmann::ordered_json attrs_to_json(const Node& n) {
  nlohmann::ordered_json out = nlohmann::ordered_json::object();
  const uint32_t carried = op_info(n.op).attrs;
  for (int i = 0; i < kNumAttrKinds; ++i) {
    const auto a = static_cast<Attr>(1u << i);
    if (!(carried & a)) continue;
    const std::string key(attr_name(a));
    switch (a) {
      case ATTR_DIM: out[key] = n.attrs.dim; break;
      case ATTR_INDEX: out[key] = n.attrs.index; break;
      case ATTR_START: out[key] = n.attrs.start; break;
      case ATTR_END: out[key] = n.attrs.end; break;
      case ATTR_STEP: out[key] = n.attrs.step; break;
      case ATTR_PERM: out[key] = n.attrs.perm; break;
      case ATTR_DIMS: out[key] = n.attrs.dims; break;
      case ATTR_KEEPDIM: out[key] = n.attrs.keepdim; break;
      default: break;  // name and value are top-level keys of the node
    }
  }
  return out;
}

void read_attrs(Op op, const json& node, Attrs& attrs) {
  const uint32_t wanted = op_info(op).attrs & ~uint32_t{ATTR_NAME | ATTR_VALUE};
  uint32_t seen = 0;
  if (node.contains("attrs")) {
    const json& obj = node["attrs"];
    if (!obj.is_object()) throw Error("\"attrs\" must be an object");
    for (const auto& [key, v] : obj.items()) {
      auto a = attr_from_name(key);
      if (!a || !(wanted & *a)) throw Error(fmt::format("'{}' has no attribute '{}'", op_name(op), key));
      set_attr(*a, v, attrs);
      seen |= *a;
    }
  }
  for (int i = 0; i < kNumAttrKinds; ++i)
    if (wanted & ~seen & (1u << i))
      throw Error(fmt::format("missing attribute '{}'", attr_name(static_cast<Attr>(1u << i))));
}

// Builds one JSON node into `g`; `operands` are already graph ids. Throws plain messages;
// the caller adds the file and node id.
NodeId add_node(Graph& g, const json& node, std::vector<NodeId> operands) {
  static const std::vector<std::string> kKeys = {"id", "op", "operands", "attrs", "shape", "name", "value"};
  for (const auto& [key, v] : node.items())
    if (std::find(kKeys.begin(), kKeys.end(), key) == kKeys.end())
      throw Error(fmt::format("unknown key \"{}\"", key));
  if (!node.contains("op")) throw Error("needs an \"op\"");
  const json& op_j = node["op"];
  auto op = op_j.is_string() ? op_from_name(op_j.get<std::string>()) : std::nullopt;
  if (!op) throw Error(fmt::format("unknown op {}", op_j.dump()));
  const uint32_t m = op_info(*op).attrs;
  Attrs attrs;
  if (m & ATTR_NAME) {
    if (!node.contains("name") || !node["name"].is_string()) throw Error("needs a \"name\" string");
    attrs.name = node["name"].get<std::string>();
  }
  std::optional<Shape> shape;
  if (node.contains("shape")) {
    shape = get_int_list(node["shape"], "\"shape\"");
    limits::check_shape(*shape, "");
  }
  if (m & ATTR_VALUE) {
    if (!node.contains("value")) throw Error("needs a \"value\"");
    const json& v = node["value"];
    if (v.is_array()) {
      if (!shape) throw Error("a dense const needs a \"shape\"");
      std::vector<double> data;
      for (const json& e : v) data.push_back(get_number(e));
      if (static_cast<int64_t>(data.size()) != numel(*shape))
        throw Error(fmt::format("dense value has {} elements, shape {} needs {}", data.size(),
                                shape_str(*shape), numel(*shape)));
      attrs.dense = g.intern_tensor(Tensor(*shape, std::move(data)));
    } else {
      attrs.value = get_number(v);
    }
  }
  read_attrs(*op, node, attrs);
  return g.add(*op, std::move(operands), std::move(attrs), shape ? &*shape : nullptr);
}

struct Indexed {
  std::vector<int64_t> ids;                // JSON id of each node, in file order
  std::vector<std::vector<size_t>> deps;   // operands as file positions
};

Indexed index_nodes(const json& nodes, std::string_view file) {
  Indexed ix;
  std::unordered_map<int64_t, size_t> pos;
  for (const json& n : nodes) {
    if (!n.is_object() || !n.contains("id"))
      throw Error(fmt::format("{}: nodes[{}] has no \"id\"", file, ix.ids.size()));
    int64_t id = 0;
    try {
      id = get_int(n["id"], "\"id\"");
    } catch (const Error& e) {
      throw Error(fmt::format("{}: nodes[{}]: {}", file, ix.ids.size(), e.what()));
    }
    if (!pos.emplace(id, ix.ids.size()).second) throw Error(fmt::format("{}: duplicate node id {}", file, id));
    ix.ids.push_back(id);
  }
  for (const json& n : nodes) {
    auto& deps = ix.deps.emplace_back();
    if (!n.contains("operands")) continue;
    const int64_t id = n["id"].get<int64_t>();
    std::vector<int64_t> ops;
    try {
      ops = get_int_list(n["operands"], "\"operands\"");
    } catch (const Error& e) {
      throw Error(fmt::format("{}: node {}: {}", file, id, e.what()));
    }
    for (int64_t o : ops) {
      auto it = pos.find(o);
      if (it == pos.end()) throw Error(fmt::format("{}: node {}: operand {} is not a node", file, id, o));
      deps.push_back(it->second);
    }
  }
  return ix;
}

// Post-order DFS over operands, iterative because INSP graphs are deep chains.
std::vector<size_t> topo_order(const Indexed& ix, std::string_view file) {
  enum Color : uint8_t { White, Gray, Black };
  std::vector<Color> color(ix.ids.size(), White);
  std::vector<size_t> order;
  std::vector<std::pair<size_t, size_t>> stack;  // (node, next operand to visit)
  for (size_t root = 0; root < ix.ids.size(); ++root) {
    if (color[root] != White) continue;
    color[root] = Gray;
    stack.push_back({root, 0});
    while (!stack.empty()) {
      const size_t v = stack.back().first;
      if (stack.back().second == ix.deps[v].size()) {
        color[v] = Black;
        order.push_back(v);
        stack.pop_back();
        continue;
      }
      const size_t u = ix.deps[v][stack.back().second++];
      if (color[u] == White) {
        color[u] = Gray;
        stack.push_back({u, 0});
      } else if (color[u] == Gray) {  // u is on the stack: the cycle runs from there to v
        std::string path;
        auto it = std::find_if(stack.begin(), stack.end(), [u](auto& e) { return e.first == u; });
        for (; it != stack.end(); ++it) path += fmt::format("{} -> ", ix.ids[it->first]);
        throw Error(fmt::format("{}: cycle in the graph through nodes {}{}", file, path, ix.ids[u]));
      }
    }
  }
  return order;
}

Graph build_graph(const json& j, std::string_view file) {
  Graph g(j.contains("name") && j["name"].is_string() ? j["name"].get<std::string>() : "main");
  if (!j.contains("nodes") || !j["nodes"].is_array()) throw Error(fmt::format("{}: needs a \"nodes\" list", file));
  const json& nodes = j["nodes"];
  limits::check_node_count(nodes.size(), file);
  Indexed ix = index_nodes(nodes, file);
  std::vector<NodeId> gid(ix.ids.size(), kNoNode);
  for (size_t k : topo_order(ix, file)) {
    std::vector<NodeId> operands;
    for (size_t d : ix.deps[k]) operands.push_back(gid[d]);
    try {
      gid[k] = add_node(g, nodes[k], std::move(operands));
    } catch (const Error& e) {
      rethrow_with(e, fmt::format("{}: node {}: {}", file, ix.ids[k], e.what()));
    } catch (const json::exception& e) {
      throw Error(fmt::format("{}: node {}: {}", file, ix.ids[k], e.what()));
    }
  }
  std::unordered_map<int64_t, size_t> pos;
  for (size_t k = 0; k < ix.ids.size(); ++k) pos[ix.ids[k]] = k;
  const json outputs = j.value("outputs", json::array());
  if (!outputs.is_array()) throw Error(fmt::format("{}: \"outputs\" must be a list", file));
  for (const json& o : outputs) {
    if (!o.is_object() || !o.contains("name") || !o["name"].is_string() || !o.contains("node"))
      throw Error(fmt::format("{}: each output needs a \"name\" string and a \"node\" id, got {}", file, o.dump()));
    auto it = pos.find(get_int(o["node"], "output \"node\""));
    if (it == pos.end()) throw Error(fmt::format("{}: output {}: no node {}", file, o["name"].dump(), o["node"].dump()));
    g.add_output(o["name"].get<std::string>(), gid[it->second]);
  }
  return g;
}

// One node a line: compact enough for graphs of 10^5 nodes, still diffable. Ordered keys
// so the file reads id, op, name, value, operands, attrs, shape.
std::string graph_json(const Graph& g) {
  using ojson = nlohmann::ordered_json;
  std::string out = fmt::format(
      "{{\n  \"format\": \"inrarch-graph\",\n  \"version\": 1,\n  \"name\": {},\n  \"nodes\": [",
      json(g.name()).dump());
  for (NodeId i = 0; i < g.size(); ++i) {
    const Node& n = g.node(i);
    const uint32_t m = op_info(n.op).attrs;
    ojson j;
    j["id"] = i;
    j["op"] = op_name(n.op);
    if (m & ATTR_NAME) j["name"] = n.attrs.name;
    if ((m & ATTR_VALUE) && n.attrs.dense < 0) j["value"] = number_json(n.attrs.value);
    if ((m & ATTR_VALUE) && n.attrs.dense >= 0) {
      j["value"] = ojson::array();
      for (double v : g.tensor(n.attrs.dense).data) j["value"].push_back(number_json(v));
    }
    if (!n.operands.empty()) j["operands"] = n.operands;
    if (m & ~uint32_t{ATTR_NAME | ATTR_VALUE}) j["attrs"] = attrs_to_json(n);
    j["shape"] = n.shape;
    out += fmt::format("{}\n    {}", i ? "," : "", j.dump());
  }
  out += fmt::format("{}],\n  \"outputs\": [", g.size() ? "\n  " : "");
  for (size_t k = 0; k < g.outputs().size(); ++k) {
    ojson o;
    o["name"] = g.outputs()[k].name;
    o["node"] = g.outputs()[k].node;
    out += fmt::format("{}\n    {}", k ? "," : "", o.dump());
  }
  out += fmt::format("{}]\n}}\n", g.outputs().empty() ? "" : "\n  ");
  return out;
}

}  // namespace

json parse_graph_json_text(std::string_view text, std::string_view filename) {
  json j = parse_json_text(text, filename);
  if (!j.is_object()) throw Error(fmt::format("{}: the top level must be a JSON object", filename));
  return j;
}

Graph graph_from_json(const json& j, std::string_view filename) {
  const json format = j.value("format", json("inrarch-graph"));
  if (format == "inrarch-aten")
    throw Error(fmt::format("{}: an \"inrarch-aten\" graph (a PyTorch export) is read by the front end "
                            "(frontend/load.h), not by the IR layer", filename));
  if (format != "inrarch-graph")
    throw Error(fmt::format("{}: unknown \"format\" {} (expected \"inrarch-graph\" or \"inrarch-aten\")",
                            filename, format.dump()));
  if (j.contains("version") && j["version"] != 1)
    throw Error(fmt::format("{}: unsupported version {} (expected 1)", filename, j["version"].dump()));
  try {
    return build_graph(j, filename);
  } catch (const json::exception& e) {
    throw Error(fmt::format("{}: {}", filename, e.what()));
  }
}

Graph graph_from_json_text(std::string_view text, std::string_view filename) {
  return graph_from_json(parse_graph_json_text(text, filename), filename);
}

Graph read_graph_json(const std::filesystem::path& file) {
  return graph_from_json_text(read_file(file), file.string());
}

std::string graph_to_json_text(const Graph& g) {
  try {
    return graph_json(g);
  } catch (const json::exception& e) {  // a name that is not valid UTF-8 cannot be JSON
    throw Error(fmt::format("cannot write graph \"{}\" as JSON: {}", g.name(), e.what()));
  }
}

}  // namespace inrarch::ir
