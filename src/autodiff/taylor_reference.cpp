// The independent side of Taylor mode: the same derivative requests by nested reverse mode
// (the construction INSP uses with autograd), a derivative bundle whose reference outputs
// come from it, and the request file reader.
#include <fmt/format.h>

#include <nlohmann/json.hpp>

#include "autodiff/grad.h"
#include "autodiff/taylor.h"
#include "ir/interpreter.h"
#include "support/error.h"

namespace inrarch::autodiff {

namespace {

using ir::Graph;
using ir::NodeId;
using ir::Op;

// ∂^α of h, a [rows] value: one grad() per direction, each picking column j of dh/dx.
// Rows are independent, so a seed of ones gives every row its own derivative.
NodeId nested_grads(Graph& g, NodeId h, NodeId x, const MultiIndex& alpha) {
  for (size_t j = 0; j < alpha.size(); ++j)
    for (int k = 0; k < alpha[j]; ++k) {
      const ir::Shape s = g.shape(h);
      h = g.select(grad(g, h, x, g.constant(1.0, s)), 1, static_cast<int64_t>(j));
    }
  return h;
}

// The request on every per-row scalar of the output, one column at a time, reassembled.
NodeId reverse_request(Graph& g, NodeId x, const DerivativeRequest& r) {
  NodeId f = ir::kNoNode;
  for (const ir::Output& o : g.outputs())
    if (o.name == r.of) f = o.node;
  if (r.index) f = g.select(f, static_cast<int64_t>(g.shape(f).size()) - 1, *r.index);
  const ir::Shape shape = g.shape(f);
  const int64_t rows = g.shape(x)[0], cols = ir::numel(shape) / rows;  // x's rows own f's
  const NodeId flat = g.reshape(f, {rows, cols});
  std::vector<NodeId> columns;
  for (int64_t c = 0; c < cols; ++c) {
    NodeId sum = ir::kNoNode;
    for (const Term& term : r.terms()) {
      NodeId d = nested_grads(g, g.select(flat, 1, c), x, term.alpha);
      if (term.weight != 1.0) d = g.binary(Op::Mul, g.constant(term.weight, g.shape(d)), d);
      sum = sum == ir::kNoNode ? d : g.binary(Op::Add, sum, d);
    }
    columns.push_back(g.unsqueeze(sum, 1));
  }
  const NodeId d = g.reshape(cols == 1 ? columns[0] : g.cat(columns, 1), shape);
  return r.scale == 1.0 ? d : g.binary(Op::Mul, g.constant(r.scale, shape), d);
}

double number(const nlohmann::json& e, const char* key, const std::string& where) {
  if (!e.contains(key)) throw Error(fmt::format("{}: missing \"{}\"", where, key));
  if (!e[key].is_number()) throw Error(fmt::format("{}: \"{}\" is not a number", where, key));
  return e[key].get<double>();
}

std::string text(const nlohmann::json& e, const char* key, const std::string& where) {
  if (!e.contains(key) || !e[key].is_string())
    throw Error(fmt::format("{}: \"{}\" must be a string", where, key));
  return e[key].get<std::string>();
}

MultiIndex multi_index(const nlohmann::json& a, const std::string& where) {
  MultiIndex alpha;
  if (!a.is_array() || a.empty()) throw Error(fmt::format("{}: a multi-index must be a non-empty array of integers", where));
  for (const nlohmann::json& v : a) {
    if (!v.is_number_integer() || v.get<int64_t>() < 0 || v.get<int64_t>() > 64)
      throw Error(fmt::format("{}: a multi-index holds integers in 0..64", where));
    alpha.push_back(v.get<int>());
  }
  return alpha;
}

// "alpha": [1,0], or [[2,0],[0,2]] to add several.
void read_alpha(const nlohmann::json& e, const std::string& where, DerivativeRequest& r) {
  if (!e.contains("alpha") || !e["alpha"].is_array() || e["alpha"].empty())
    throw Error(fmt::format("{}: \"alpha\" must be a multi-index [1,0] or a list of them [[2,0],[0,2]] "
                            "(or give \"terms\")",
                            where));
  const bool several = e["alpha"][0].is_array();
  for (const nlohmann::json& a : several ? e["alpha"] : nlohmann::json::array({e["alpha"]})) {
    MultiIndex alpha = multi_index(a, where);
    if (r.alpha.empty()) r.alpha = std::move(alpha);
    else r.plus.push_back(std::move(alpha));
  }
}

// "terms": [{"alpha": [0,1], "scale": 1}, {"alpha": [2,0], "scale": -0.1}], a signed sum.
void read_terms(const nlohmann::json& e, const std::string& where, DerivativeRequest& r) {
  if (e.contains("alpha")) throw Error(fmt::format("{}: give \"alpha\" or \"terms\", not both", where));
  const nlohmann::json& terms = e["terms"];
  if (!terms.is_array() || terms.empty())
    throw Error(fmt::format("{}: \"terms\" must be a non-empty list of {{\"alpha\": [...], \"scale\": k}}", where));
  for (size_t i = 0; i < terms.size(); ++i) {
    const std::string at = fmt::format("{}: terms[{}]", where, i);
    if (!terms[i].is_object() || !terms[i].contains("alpha"))
      throw Error(fmt::format("{}: expected {{\"alpha\": [...], \"scale\": k}}", at));
    MultiIndex alpha = multi_index(terms[i]["alpha"], at);
    r.weights.push_back(terms[i].contains("scale") ? number(terms[i], "scale", at) : 1.0);
    if (r.alpha.empty()) r.alpha = std::move(alpha);
    else r.plus.push_back(std::move(alpha));
  }
}

}  // namespace

Graph nested_reverse(const Graph& primal, const TaylorSpec& spec) {
  Graph g = primal;
  const std::vector<DerivativeRequest> reqs = resolve_requests(g, spec);
  const NodeId x = g.find_input(spec.wrt);
  std::vector<ir::Output> outs;
  for (const DerivativeRequest& r : reqs) outs.push_back({r.name, reverse_request(g, x, r)});
  g.set_outputs(std::move(outs));
  return g;
}

ir::Bundle derive_bundle(const ir::Bundle& primal, const TaylorSpec& spec, bool with_reference) {
  ir::Bundle b{taylor(primal.graph, spec), primal.inputs, primal.params, {}};
  if (!with_reference) return b;
  const Graph reverse = nested_reverse(primal.graph, spec);
  std::vector<ir::Tensor> values = ir::evaluate(reverse, primal.inputs, primal.params);
  for (size_t i = 0; i < values.size(); ++i) b.reference[reverse.outputs()[i].name] = std::move(values[i]);
  return b;
}

std::vector<DerivativeRequest> requests_from_json(const nlohmann::json& j, const std::string& source) {
  if (!j.is_object() || !j.contains("outputs") || !j["outputs"].is_array())
    throw Error(fmt::format("{}: expected {{\"outputs\": [...]}}", source));
  std::vector<DerivativeRequest> reqs;
  for (size_t i = 0; i < j["outputs"].size(); ++i) {
    const nlohmann::json& e = j["outputs"][i];
    const std::string where = fmt::format("{}: outputs[{}]", source, i);
    if (!e.is_object()) throw Error(fmt::format("{}: expected an object", where));
    DerivativeRequest r{text(e, "name", where), text(e, "of", where), {}, std::nullopt, 1.0};
    if (e.contains("terms")) read_terms(e, where, r);
    else read_alpha(e, where, r);

    if (e.contains("index")) {
      if (!e["index"].is_number_integer()) throw Error(fmt::format("{}: \"index\" must be an integer", where));
      r.index = e["index"].get<int64_t>();
    }
    if (e.contains("scale")) r.scale = number(e, "scale", where);
    reqs.push_back(std::move(r));
  }
  return reqs;
}

}  // namespace inrarch::autodiff
