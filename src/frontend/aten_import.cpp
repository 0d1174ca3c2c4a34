// Import of "inrarch-aten" graphs (docs/pytorch.md): leaves become input/param/const nodes,
// every other node is looked up by its aten base name in the rule table (aten_rules.cpp)
// and built with ir::Graph builders. Each result is checked against the shape PyTorch
// recorded, so a wrong rule fails at import instead of producing wrong numbers later.
#include "frontend/aten_import.h"

#include <unordered_map>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "frontend/aten_context.h"
#include "support/error.h"
#include "support/limits.h"

namespace inrarch::frontend {

using nlohmann::json;
using ir::NodeId;

namespace {

// "aten.add.Tensor", "aten::add.Tensor", "add.Tensor" and "add" all name base "add".
std::string_view base_name(std::string_view op) {
  for (std::string_view prefix : {"aten.", "aten::"})
    if (op.substr(0, prefix.size()) == prefix) op.remove_prefix(prefix.size());
  return op.substr(0, op.find('.'));
}

Shape read_shape(const json& n, const std::string& where) {
  auto it = n.find("shape");
  if (it == n.end() || !it->is_array()) throw Error(fmt::format("{}: missing \"shape\"", where));
  Shape s;
  for (const json& d : *it) {
    if (!d.is_number_integer() || d.get<int64_t>() < 0)
      throw Error(fmt::format("{}: bad shape {}", where, it->dump()));
    s.push_back(d.get<int64_t>());
  }
  limits::check_shape(s, where);
  return s;
}

std::string read_name(const json& n, const std::string& where) {
  auto it = n.find("name");
  if (it == n.end() || !it->is_string() || it->get<std::string>().empty())
    throw Error(fmt::format("{}: a leaf needs a non-empty \"name\"", where));
  return it->get<std::string>();
}

NodeId build_const(ir::Graph& g, const json& n, const Shape& shape, const std::string& where) {
  auto it = n.find("value");
  if (it == n.end()) throw Error(fmt::format("{}: const needs a \"value\"", where));
  if (it->is_number()) return g.constant(it->get<double>(), shape);
  if (!it->is_array() || static_cast<int64_t>(it->size()) != numel(shape))
    throw Error(fmt::format("{}: const value must be a number or {} numbers", where, numel(shape)));
  std::vector<double> data;
  data.reserve(it->size());
  for (const json& v : *it) {
    if (!v.is_number()) throw Error(fmt::format("{}: const value must hold numbers", where));
    data.push_back(v.get<double>());
  }
  return g.constant(Tensor(shape, std::move(data)));
}

// One aten node → IR, with the rule's errors (and shape errors from ir::Graph) naming it.
NodeId build_aten(ir::Graph& g, const json& n, const std::string& op, const Shape& shape,
                  const std::unordered_map<int64_t, NodeId>& values, const std::string& where) {
  const std::string_view base = base_name(op);
  AtenRule rule = find_aten_rule(base);
  if (!rule)
    throw Error(fmt::format("{}: unsupported aten op '{}' ({}); see docs/pytorch.md for the "
                            "supported ops",
                            where, base, op));
  if (!n.contains("args") || !n["args"].is_array())
    throw Error(fmt::format("{} ({}): missing \"args\" list", where, op));
  AtenCtx ctx(g, n, op, shape, values, where);
  NodeId id;
  try {
    id = rule(ctx);
  } catch (const Error& e) {
    if (std::string_view(e.what()).starts_with(where)) throw;
    rethrow_with(e, fmt::format("{} ({}): {}", where, op, e.what()));
  }
  if (n.contains("item") && !ctx.item_read())
    throw Error(fmt::format("{} ({}): \"item\" is given but {} has a single output", where, op, base));
  if (g.shape(id) != shape)
    throw Error(fmt::format("{} ({}): the import gives shape {} but PyTorch recorded {}", where,
                            op, shape_str(g.shape(id)), shape_str(shape)));
  return id;
}

NodeId build_node(ir::Graph& g, const json& n, const std::unordered_map<int64_t, NodeId>& values,
                  const std::string& where) {
  if (!n.contains("op") || !n["op"].is_string()) throw Error(fmt::format("{}: missing \"op\"", where));
  const auto op = n["op"].get<std::string>();
  const Shape shape = read_shape(n, where);
  if (op == "input") return g.input(read_name(n, where), shape);
  if (op == "param") return g.param(read_name(n, where), shape);
  if (op == "const") return build_const(g, n, shape, where);
  return build_aten(g, n, op, shape, values, where);
}

void read_outputs(ir::Graph& g, const json& j, const std::unordered_map<int64_t, NodeId>& values,
                  std::string_view filename) {
  if (!j.contains("outputs") || !j["outputs"].is_array() || j["outputs"].empty())
    throw Error(fmt::format("{}: needs a non-empty \"outputs\" list", filename));
  for (const json& o : j["outputs"]) {
    if (!o.is_object() || !o.contains("name") || !o["name"].is_string() || !o.contains("node") ||
        !o["node"].is_number_integer())
      throw Error(fmt::format("{}: bad output entry {}", filename, o.dump()));
    auto it = values.find(o["node"].get<int64_t>());
    if (it == values.end())
      throw Error(fmt::format("{}: output \"{}\" names missing node {}", filename,
                              o["name"].get<std::string>(), o["node"].get<int64_t>()));
    g.add_output(o["name"].get<std::string>(), it->second);
  }
}

ir::Graph build_graph(const json& j, std::string_view filename) {
  if (!j.is_object() || !j.contains("nodes") || !j["nodes"].is_array())
    throw Error(fmt::format("{}: an inrarch-aten graph needs a \"nodes\" list", filename));
  limits::check_node_count(j["nodes"].size(), filename);
  if (j.contains("version") && j["version"] != 1)
    throw Error(fmt::format("{}: unsupported inrarch-aten version {}", filename, j["version"].dump()));
  ir::Graph g(j.value("name", std::string("main")));
  std::unordered_map<int64_t, NodeId> values;  // aten node id → IR node id
  size_t position = 0;
  for (const json& n : j["nodes"]) {
    if (!n.is_object() || !n.contains("id") || !n["id"].is_number_integer())
      throw Error(fmt::format("{}: node #{} needs an integer \"id\"", filename, position));
    const int64_t id = n["id"].get<int64_t>();
    const std::string where = fmt::format("{}: node {} (#{})", filename, id, position);
    if (values.contains(id)) throw Error(fmt::format("{}: duplicate id", where));
    NodeId built;
    try {
      built = build_node(g, n, values, where);
    } catch (const Error& e) {
      if (std::string_view(e.what()).starts_with(where)) throw;
      rethrow_with(e, fmt::format("{}: {}", where, e.what()));
    }
    values.emplace(id, built);
    ++position;
  }
  read_outputs(g, j, values, filename);
  return g;
}

}  // namespace

ir::Graph graph_from_aten_json(const json& j, std::string_view filename) {
  try {
    return build_graph(j, filename);
  } catch (const json::exception& e) {  // a value of the wrong JSON type where the schema has another
    throw Error(fmt::format("{}: {}", filename, e.what()));
  }
}

}  // namespace inrarch::frontend
