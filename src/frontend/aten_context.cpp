#include "frontend/aten_context.h"

#include <cmath>
#include <limits>

#include <fmt/format.h>

#include "support/error.h"

namespace inrarch::frontend {

using nlohmann::json;
using ir::NodeId;

namespace {

bool is_ref(const json& j) { return j.is_object() && j.contains("node"); }

// Non-finite floats travel as {"float": "inf"} because JSON has no literal for them.
bool read_number(const json& j, double& out) {
  if (j.is_number()) {
    out = j.get<double>();
    return true;
  }
  if (j.is_boolean()) {
    out = j.get<bool>() ? 1.0 : 0.0;
    return true;
  }
  if (j.is_object() && j.contains("float") && j["float"].is_string()) {
    const auto s = j["float"].get<std::string>();
    const double inf = std::numeric_limits<double>::infinity();
    if (s == "inf") out = inf;
    else if (s == "-inf") out = -inf;
    else if (s == "nan") out = std::numeric_limits<double>::quiet_NaN();
    else return false;
    return true;
  }
  return false;
}

}  // namespace

void AtenCtx::fail(const std::string& why) const {
  throw Error(fmt::format("{} ({}): {}", where_, op_, why));
}

const json* AtenCtx::arg(size_t i, std::string_view kw) const {
  const json& args = node_["args"];
  if (i < args.size()) return &args[i];
  if (!kw.empty() && node_.contains("kwargs")) {
    const json& kws = node_["kwargs"];
    auto it = kws.find(std::string(kw));
    if (it != kws.end() && !it->is_null()) return &*it;
  }
  return nullptr;
}

const json& AtenCtx::need(size_t i, std::string_view kw) const {
  const json* a = arg(i, kw);
  if (!a || a->is_null())
    fail(kw.empty() ? fmt::format("missing argument {}", i)
                    : fmt::format("missing argument {} ('{}')", i, kw));
  return *a;
}

int64_t AtenCtx::item(int64_t count) const {
  item_read_ = true;
  auto it = node_.find("item");
  if (it == node_.end()) return 0;
  if (!it->is_number_integer() || it->get<int64_t>() < 0 || it->get<int64_t>() >= count)
    fail(fmt::format("\"item\" must be an output index in [0, {}), got {}", count, it->dump()));
  return it->get<int64_t>();
}

bool AtenCtx::is_tensor(size_t i, std::string_view kw) const {
  const json* a = arg(i, kw);
  return a && is_ref(*a);
}

NodeId AtenCtx::tensor(size_t i, std::string_view kw) const {
  const json& a = need(i, kw);
  if (!is_ref(a)) fail(fmt::format("argument {} must be a tensor, got {}", i, a.dump()));
  const json& ref = a["node"];
  if (!ref.is_number_integer()) fail(fmt::format("argument {}: bad node reference {}", i, a.dump()));
  auto it = values_.find(ref.get<int64_t>());
  if (it == values_.end())
    fail(fmt::format("argument {} refers to node {}, which is not defined before it", i,
                     ref.get<int64_t>()));
  return it->second;
}

std::vector<NodeId> AtenCtx::tensors(size_t i, std::string_view kw) const {
  const json& a = need(i, kw);
  if (!a.is_array() || a.empty()) fail(fmt::format("argument {} must be a list of tensors", i));
  std::vector<NodeId> out;
  for (const json& r : a) {
    if (!is_ref(r)) fail(fmt::format("argument {} must be a list of tensors", i));
    auto it = values_.find(r["node"].get<int64_t>());
    if (it == values_.end()) fail(fmt::format("argument {} refers to an undefined node", i));
    out.push_back(it->second);
  }
  return out;
}

double AtenCtx::scalar(size_t i, std::string_view kw, double dflt) const {
  const json* a = arg(i, kw);
  if (!a || a->is_null()) return dflt;
  double v;
  if (!read_number(*a, v)) fail(fmt::format("argument {} must be a number, got {}", i, a->dump()));
  return v;
}

int64_t AtenCtx::integer(size_t i, std::string_view kw) const {
  const json& a = need(i, kw);
  if (!a.is_number_integer()) fail(fmt::format("argument {} must be an integer, got {}", i, a.dump()));
  return a.get<int64_t>();
}

int64_t AtenCtx::integer_or(size_t i, std::string_view kw, int64_t dflt) const {
  const json* a = arg(i, kw);
  return (!a || a->is_null()) ? dflt : integer(i, kw);
}

bool AtenCtx::boolean_or(size_t i, std::string_view kw, bool dflt) const {
  const json* a = arg(i, kw);
  if (!a || a->is_null()) return dflt;
  if (!a->is_boolean()) fail(fmt::format("argument {} must be a bool, got {}", i, a->dump()));
  return a->get<bool>();
}

std::vector<int64_t> AtenCtx::ints(size_t i, std::string_view kw) const {
  const json& a = need(i, kw);
  if (a.is_number_integer()) return {a.get<int64_t>()};
  if (!a.is_array()) fail(fmt::format("argument {} must be a list of integers, got {}", i, a.dump()));
  std::vector<int64_t> out;
  for (const json& v : a) {
    if (!v.is_number_integer()) fail(fmt::format("argument {} must be a list of integers", i));
    out.push_back(v.get<int64_t>());
  }
  return out;
}

NodeId AtenCtx::broadcast(NodeId x, const Shape& to) const {
  Shape from = g.shape(x);
  if (from == to) return x;
  if (from.size() > to.size())
    fail(fmt::format("cannot broadcast {} to {}", shape_str(from), shape_str(to)));
  // PyTorch aligns trailing dims: pad the front with 1s (a reshape), then expand the 1s.
  Shape padded(to.size() - from.size(), 1);
  padded.insert(padded.end(), from.begin(), from.end());
  for (size_t d = 0; d < to.size(); ++d)
    if (padded[d] != to[d] && padded[d] != 1)
      fail(fmt::format("cannot broadcast {} to {}", shape_str(from), shape_str(to)));
  return g.expand(g.reshape(x, padded), to);
}

NodeId AtenCtx::operand(size_t i, std::string_view kw) const {
  if (is_tensor(i, kw)) return broadcast(tensor(i, kw), shape_);
  const json& a = need(i, kw);
  double v;
  if (!read_number(a, v)) fail(fmt::format("argument {} must be a tensor or a number, got {}", i, a.dump()));
  return splat(v);
}

int64_t norm_dim(const AtenCtx& c, int64_t dim, int64_t rank) {
  const int64_t r = std::max<int64_t>(rank, 1);  // PyTorch lets dim 0/-1 name a 0-d tensor
  if (dim < -r || dim >= r) c.fail(fmt::format("dimension {} out of range for rank {}", dim, rank));
  return dim < 0 ? dim + r : dim;
}

}  // namespace inrarch::frontend
