// What an aten rule sees while it maps one aten node to IR ops: the node's arguments
// (tensor references already resolved to IR ids), its recorded result shape, the graph, and
// helpers for the patterns many rules share (scalars as splats, explicit broadcasting).
// The JSON schema is documented in docs/pytorch.md.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include <nlohmann/json.hpp>

#include "ir/graph.h"

namespace inrarch::frontend {

class AtenCtx {
 public:
  AtenCtx(ir::Graph& g, const nlohmann::json& node, std::string_view op, Shape shape,
          const std::unordered_map<int64_t, ir::NodeId>& values, std::string_view where)
      : g(g), node_(node), op_(op), shape_(std::move(shape)), values_(values), where_(where) {}

  ir::Graph& g;

  const std::string& op() const { return op_; }
  const Shape& shape() const { return shape_; }  // the result shape PyTorch recorded

  // Argument i (positional), or the keyword `kw` when there are fewer positional args;
  // nullptr when neither is given (the aten default applies).
  const nlohmann::json* arg(size_t i, std::string_view kw = {}) const;
  bool is_tensor(size_t i, std::string_view kw = {}) const;

  ir::NodeId tensor(size_t i, std::string_view kw = {}) const;        // required tensor arg
  std::vector<ir::NodeId> tensors(size_t i, std::string_view kw = {}) const;  // list of them
  double scalar(size_t i, std::string_view kw, double dflt) const;    // number (or default)
  int64_t integer(size_t i, std::string_view kw = {}) const;          // required int
  int64_t integer_or(size_t i, std::string_view kw, int64_t dflt) const;
  bool boolean_or(size_t i, std::string_view kw, bool dflt) const;
  std::vector<int64_t> ints(size_t i, std::string_view kw = {}) const;  // int list (or one int)
  Shape tensor_shape(size_t i) const { return g.shape(tensor(i)); }

  // Which output of a multi-output op (native_layer_norm's y, mean, rstd) the node stands for:
  // its "item" (absent: 0), in [0, count). The importer refuses an "item" no rule has read.
  int64_t item(int64_t count) const;
  bool item_read() const { return item_read_; }

  // Argument i as a tensor of the result shape: a tensor is broadcast, a number becomes a
  // splat constant.
  ir::NodeId operand(size_t i, std::string_view kw = {}) const;

  // Helpers that build IR.
  ir::NodeId splat(double v) const { return g.constant(v, shape_); }
  ir::NodeId broadcast(ir::NodeId x, const Shape& to) const;
  ir::NodeId bin(ir::Op op, ir::NodeId a, ir::NodeId b) const { return g.binary(op, a, b); }
  ir::NodeId un(ir::Op op, ir::NodeId a) const { return g.unary(op, a); }

  [[noreturn]] void fail(const std::string& why) const;

 private:
  const nlohmann::json& need(size_t i, std::string_view kw) const;
  const nlohmann::json& node_;
  std::string op_;
  Shape shape_;
  const std::unordered_map<int64_t, ir::NodeId>& values_;
  std::string where_;
  mutable bool item_read_ = false;
};

// A rule maps one aten node to IR and returns the id of its result.
using AtenRule = ir::NodeId (*)(const AtenCtx&);

// The rule for an aten op's base name ("add", "sum", "select_backward"); nullptr if none.
// In-place variants ("add_") map to their functional rule: the exporter already rebinds
// later uses of the mutated tensor to the in-place node.
AtenRule find_aten_rule(std::string_view base_name);

// Names of all supported base names, sorted (for docs and error messages).
std::vector<std::string> supported_aten_ops();

// Negative dims count from the end; PyTorch's unsigned autograd attributes are handled by the
// exporter, so plain int64 is enough here.
int64_t norm_dim(const AtenCtx& c, int64_t dim, int64_t rank);

}  // namespace inrarch::frontend
