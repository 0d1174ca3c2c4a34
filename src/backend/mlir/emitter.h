// Internal to the MLIR backend: the state of one emission and the helpers the per-op
// emitters (emit_ops.cpp) share. Not part of the backend's interface (that is emit.h).
#pragma once

#include <fmt/format.h>

#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "backend/mlir/emit.h"

namespace inrarch::backend::mlir {

// "tensor<64x256xf64>", "tensor<f64>" for rank 0.
std::string tensor_type(const Shape& s);
// "[0, 1]"
std::string int_list(const std::vector<int64_t>& v);

class Emitter {
 public:
  Emitter(const ir::Graph& g, const MlirOptions& opt, const ir::TensorMap* params);

  const ir::Graph& g;
  const MlirOptions& opt;
  const ir::TensorMap* params;
  std::string body;                // the function body, one op a line
  std::vector<std::string> value;  // SSA name of each emitted node

  // SSA name of operand i of node n.
  const std::string& operand(const ir::Node& n, size_t i) const { return value[n.operands[i]]; }
  std::string type_of(const ir::Node& n, size_t i) const { return tensor_type(g.shape(n.operands[i])); }

  // Appends one body line (indentation added).
  template <class... A>
  void line(fmt::format_string<A...> f, A&&... a) {
    body += "    ";
    body += fmt::format(f, std::forward<A>(a)...);
    body += '\n';
  }
  // A raw line with its own relative indentation (region bodies).
  void raw(std::string_view s) {
    body += "    ";
    body += s;
    body += '\n';
  }

  // The node's result name, "%n<k>" with k its number in the printed text IR (live nodes
  // numbered densely), so the MLIR reads next to `--print-ir`; helpers are "%n<k>_<what>".
  std::string result(ir::NodeId id) { return value[id] = fmt::format("%n{}", label_[id]); }
  std::string tmp(ir::NodeId id, std::string_view what);

  // The shared `arith.constant 0.0 : f64` (emitted at the top when used).
  std::string zero();
  // An f64 scalar constant, for values other than 0.0.
  std::string scalar(ir::NodeId id, double v, std::string_view what);
  // tensor.empty of shape s.
  std::string empty(ir::NodeId id, const Shape& s, std::string_view what);
  // `name` = tensor.empty + linalg.fill with the scalar SSA value `v` (helper of node id).
  void filled(const std::string& name, ir::NodeId id, const Shape& s, const std::string& v);
  // `src` (shape `from`) viewed as shape `to` with collapse_shape / expand_shape (one of
  // them, both, or none when the shapes are equal). Returns the SSA name of the view, which
  // is result(id) when `is_result` and an op was needed.
  std::string reshape(ir::NodeId id, const std::string& src, const Shape& from, const Shape& to,
                      bool is_result);
  // `name` = arith.constant dense<..> holding t (nested row-major lists; splat if uniform).
  void dense(const std::string& name, const Tensor& t);

  bool uses_zero() const { return uses_zero_; }

 private:
  bool uses_zero_ = false;
  std::set<std::string> taken_;
  std::vector<size_t> label_;  // node id -> number in the printed text IR
};

// Emits node `id` (whose operands are already emitted); dispatches on the per-op table.
void emit_node(Emitter& e, ir::NodeId id);

}  // namespace inrarch::backend::mlir
