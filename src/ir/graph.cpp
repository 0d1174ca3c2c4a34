#include "ir/graph.h"

#include <algorithm>
#include <bit>
#include <cstring>

#include <fmt/format.h>

#include "support/error.h"
#include "support/limits.h"
#include "ir/shape.h"

namespace inrarch::ir {

namespace {

inline void hash_mix(size_t& h, uint64_t v) {
  h ^= v + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2);
}

uint64_t double_bits(double v) { return std::bit_cast<uint64_t>(v == 0.0 ? 0.0 : v); }

// Clear the attributes an op does not carry, so equal nodes compare and hash equal.
void keep_declared_attrs(Op op, Attrs& a) {
  const uint32_t m = op_info(op).attrs;
  Attrs clean;
  if (m & ATTR_NAME) clean.name = std::move(a.name);
  if (m & ATTR_VALUE) {
    clean.dense = a.dense;
    clean.value = a.dense >= 0 ? 0.0 : a.value;
  }
  if (m & ATTR_DIM) clean.dim = a.dim;
  if (m & ATTR_INDEX) clean.index = a.index;
  if (m & ATTR_START) clean.start = a.start;
  if (m & ATTR_END) clean.end = a.end;
  if (m & ATTR_STEP) clean.step = a.step;
  if (m & ATTR_PERM) clean.perm = std::move(a.perm);
  if (m & ATTR_DIMS) clean.dims = std::move(a.dims);
  if (m & ATTR_KEEPDIM) clean.keepdim = a.keepdim;
  a = std::move(clean);
}

}  // namespace

size_t Graph::NodeHash::operator()(const Node& n) const {
  size_t h = static_cast<size_t>(n.op);
  for (NodeId o : n.operands) hash_mix(h, o);
  for (int64_t d : n.shape) hash_mix(h, static_cast<uint64_t>(d));
  const Attrs& a = n.attrs;
  hash_mix(h, std::hash<std::string>{}(a.name));
  hash_mix(h, double_bits(a.value));
  hash_mix(h, static_cast<uint64_t>(a.dense));
  for (int64_t v : {a.dim, a.index, a.start, a.end, a.step}) hash_mix(h, static_cast<uint64_t>(v));
  for (int64_t v : a.perm) hash_mix(h, static_cast<uint64_t>(v));
  for (int64_t v : a.dims) hash_mix(h, static_cast<uint64_t>(v) + 1000);
  hash_mix(h, a.keepdim);
  return h;
}

NodeId Graph::add(Op op, std::vector<NodeId> operands, Attrs attrs, const Shape* shape) {
  const OpInfo& info = op_info(op);
  if (info.arity >= 0 ? static_cast<int>(operands.size()) != info.arity : operands.empty())
    throw Error(fmt::format("{}: expects {} operand(s), got {}", info.mnemonic,
                            info.arity >= 0 ? std::to_string(info.arity) : "one or more",
                            operands.size()));
  std::vector<const Shape*> in;
  in.reserve(operands.size());
  for (NodeId o : operands) {
    if (o >= nodes_.size())
      throw Error(fmt::format("{}: operand %{} does not exist", info.mnemonic, o));
    in.push_back(&nodes_[o].shape);
  }
  if (op == Op::Const && attrs.dense >= 0) {
    if (attrs.dense >= static_cast<int32_t>(tensors_.size()))
      throw Error("const: dense tensor index out of range");
    if (!shape) shape = &tensors_[attrs.dense].shape;
    if (*shape != tensors_[attrs.dense].shape)
      throw Error(fmt::format("const: dense value has shape {}, stated {}",
                              shape_str(tensors_[attrs.dense].shape), shape_str(*shape)));
  }
  if ((info.attrs & ATTR_NAME) && attrs.name.empty())
    throw Error(fmt::format("{}: needs a non-empty name", info.mnemonic));
  // Shapes past support/limits.h are input errors, not allocations to attempt later: a
  // stated shape is checked before the shape rules count its elements, an inferred one
  // (a product of sane ones, e.g. mm) after.
  if (shape) limits::check_shape(*shape, info.mnemonic);
  Node n{op, std::move(operands), {}, std::move(attrs)};
  n.shape = infer_shape(op, in, n.attrs, shape);
  limits::check_shape(n.shape, info.mnemonic);
  keep_declared_attrs(op, n.attrs);
  if (is_commutative(op) && n.operands[0] > n.operands[1]) std::swap(n.operands[0], n.operands[1]);

  if (auto it = index_.find(n); it != index_.end()) return it->second;
  if (op == Op::Input || op == Op::Param) {
    auto key = fmt::format("{}:{}", info.mnemonic, n.attrs.name);
    if (auto it = leaves_by_name_.find(key); it != leaves_by_name_.end())
      throw Error(fmt::format("{} \"{}\" declared twice with shapes {} and {}", info.mnemonic,
                              n.attrs.name, shape_str(nodes_[it->second].shape),
                              shape_str(n.shape)));
    leaves_by_name_.emplace(std::move(key), static_cast<NodeId>(nodes_.size()));
  }
  const auto id = static_cast<NodeId>(nodes_.size());
  index_.emplace(n, id);
  nodes_.push_back(std::move(n));
  return id;
}

NodeId Graph::input(const std::string& name, const Shape& shape) {
  Attrs a;
  a.name = name;
  return add(Op::Input, {}, std::move(a), &shape);
}

NodeId Graph::param(const std::string& name, const Shape& shape) {
  Attrs a;
  a.name = name;
  return add(Op::Param, {}, std::move(a), &shape);
}

NodeId Graph::constant(double value, const Shape& shape) {
  Attrs a;
  a.value = value;
  return add(Op::Const, {}, std::move(a), &shape);
}

NodeId Graph::constant(const Tensor& value) {
  Attrs a;
  a.dense = intern_tensor(value);
  return add(Op::Const, {}, std::move(a), &value.shape);
}

NodeId Graph::unary(Op op, NodeId x) {
  if (op_info(op).category != OpCategory::Unary) throw Error(fmt::format("{} is not unary", op_name(op)));
  return add(op, {x});
}

NodeId Graph::binary(Op op, NodeId a, NodeId b) {
  if (op_info(op).category != OpCategory::Binary) throw Error(fmt::format("{} is not binary", op_name(op)));
  return add(op, {a, b});
}

NodeId Graph::permute(NodeId x, std::vector<int64_t> perm) {
  Attrs a;
  a.perm = std::move(perm);
  return add(Op::Permute, {x}, std::move(a));
}

NodeId Graph::reshape(NodeId x, const Shape& shape) {
  if (shape == nodes_.at(x).shape) return x;
  return add(Op::Reshape, {x}, {}, &shape);
}

NodeId Graph::expand(NodeId x, const Shape& shape) {
  if (shape == nodes_.at(x).shape) return x;
  return add(Op::Expand, {x}, {}, &shape);
}

NodeId Graph::unsqueeze(NodeId x, int64_t dim) {
  Attrs a;
  a.dim = dim;
  return add(Op::Unsqueeze, {x}, std::move(a));
}

NodeId Graph::squeeze(NodeId x, int64_t dim) {
  Attrs a;
  a.dim = dim;
  return add(Op::Squeeze, {x}, std::move(a));
}

NodeId Graph::select(NodeId x, int64_t dim, int64_t index) {
  Attrs a;
  a.dim = dim;
  a.index = index;
  return add(Op::Select, {x}, std::move(a));
}

NodeId Graph::slice(NodeId x, int64_t dim, int64_t start, int64_t end, int64_t step) {
  Attrs a;
  a.dim = dim;
  a.start = start;
  a.end = end;
  a.step = step;
  return add(Op::Slice, {x}, std::move(a));
}

NodeId Graph::cat(std::vector<NodeId> xs, int64_t dim) {
  Attrs a;
  a.dim = dim;
  return add(Op::Cat, std::move(xs), std::move(a));
}

NodeId Graph::sum(NodeId x, std::vector<int64_t> dims, bool keepdim) {
  Attrs a;
  a.dims = std::move(dims);
  a.keepdim = keepdim;
  return add(Op::Sum, {x}, std::move(a));
}

int32_t Graph::intern_tensor(const Tensor& t) {
  size_t h = t.shape.size();
  for (int64_t d : t.shape) hash_mix(h, static_cast<uint64_t>(d));
  for (double v : t.data) hash_mix(h, double_bits(v));
  auto [lo, hi] = tensor_index_.equal_range(h);
  for (auto it = lo; it != hi; ++it)
    if (tensors_[it->second] == t) return it->second;
  const auto idx = static_cast<int32_t>(tensors_.size());
  tensors_.push_back(t);
  tensor_index_.emplace(h, idx);
  return idx;
}

NodeId Graph::find_input(const std::string& name) const {
  auto it = leaves_by_name_.find("input:" + name);
  return it == leaves_by_name_.end() ? kNoNode : it->second;
}

NodeId Graph::find_param(const std::string& name) const {
  auto it = leaves_by_name_.find("param:" + name);
  return it == leaves_by_name_.end() ? kNoNode : it->second;
}

void Graph::add_output(const std::string& name, NodeId node) {
  if (node >= nodes_.size()) throw Error(fmt::format("output \"{}\": node %{} does not exist", name, node));
  for (const Output& o : outputs_)
    if (o.name == name) throw Error(fmt::format("output \"{}\" declared twice", name));
  outputs_.push_back({name, node});
}

void Graph::set_outputs(std::vector<Output> outputs) {
  outputs_.clear();
  for (auto& o : outputs) add_output(o.name, o.node);
}

std::vector<NodeId> live_nodes(const Graph& g) {
  std::vector<char> live(g.size(), 0);
  for (const Output& o : g.outputs()) live[o.node] = 1;
  // Operands have smaller ids, so one backward sweep marks everything reachable.
  for (size_t i = g.size(); i-- > 0;)
    if (live[i])
      for (NodeId o : g.node(static_cast<NodeId>(i)).operands) live[o] = 1;
  std::vector<NodeId> out;
  for (size_t i = 0; i < g.size(); ++i)
    if (live[i]) out.push_back(static_cast<NodeId>(i));
  return out;
}

size_t count_op_nodes(const Graph& g) {
  size_t n = 0;
  for (NodeId id : live_nodes(g)) n += !is_leaf(g.op(id));
  return n;
}

std::vector<bool> static_nodes(const Graph& g, const std::vector<NodeId>& live) {
  std::vector<bool> st(g.size(), false);
  for (NodeId v : live) {
    const Node& n = g.node(v);
    if (n.op == Op::Param || n.op == Op::Const) {
      st[v] = true;
    } else if (n.op != Op::Input) {
      bool all = true;
      for (NodeId o : n.operands) all = all && st[o];
      st[v] = all;
    }
  }
  return st;
}

std::vector<std::vector<NodeId>> users_of(const Graph& g) {
  std::vector<std::vector<NodeId>> users(g.size());
  for (NodeId id : live_nodes(g))
    for (NodeId o : g.node(id).operands)
      if (users[o].empty() || users[o].back() != id) users[o].push_back(id);
  return users;
}

void verify(const Graph& g) {
  // Rebuilding every node through add() re-runs arity, attribute and shape checks.
  Graph copy(g.name());
  for (size_t i = 0; i < g.tensor_count(); ++i) copy.intern_tensor(g.tensor(static_cast<int32_t>(i)));
  for (size_t i = 0; i < g.size(); ++i) {
    const Node& n = g.node(static_cast<NodeId>(i));
    for (NodeId o : n.operands)
      if (o >= i)
        throw Error(fmt::format("verify: %{} ({}) uses %{}, which is not defined before it", i,
                                op_name(n.op), o));
    NodeId id;
    try {
      id = copy.add(n.op, n.operands, n.attrs, &n.shape);
    } catch (const Error& e) {
      throw Error(fmt::format("verify: %{}: {}", i, e.what()));
    }
    if (id != i) throw Error(fmt::format("verify: %{} ({}) duplicates %{}", i, op_name(n.op), id));
  }
  for (const Output& o : g.outputs())
    if (o.node >= g.size()) throw Error(fmt::format("verify: output \"{}\" names a missing node", o.name));
}

}  // namespace inrarch::ir
