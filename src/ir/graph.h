// The IR graph: an append-only arena of immutable, hash-consed nodes.
//
// Structurally equal nodes (same op, attributes, operands and shape) are the same node, so
// building a subexpression twice yields one id; passes that change nothing return the same
// ids. Operands always have smaller ids than their users, so an arena is a DAG in
// topological order by construction. Dense constants live in a content-deduplicated tensor
// table so that equal constants hash-cons too.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "ir/ops.h"
#include "ir/tensor.h"

namespace inrarch::ir {

using NodeId = uint32_t;
inline constexpr NodeId kNoNode = UINT32_MAX;

// The union of all attributes; an op uses the subset its ops.def row names.
struct Attrs {
  std::string name;             // ATTR_NAME
  double value = 0.0;           // ATTR_VALUE, splat constant
  int32_t dense = -1;           // ATTR_VALUE, dense constant: index into Graph::tensor(), -1 = splat
  int64_t dim = 0;              // ATTR_DIM
  int64_t index = 0;            // ATTR_INDEX
  int64_t start = 0;            // ATTR_START
  int64_t end = 0;              // ATTR_END
  int64_t step = 1;             // ATTR_STEP
  std::vector<int64_t> perm;    // ATTR_PERM
  std::vector<int64_t> dims;    // ATTR_DIMS
  bool keepdim = false;         // ATTR_KEEPDIM

  bool operator==(const Attrs&) const = default;
};

struct Node {
  Op op;
  std::vector<NodeId> operands;
  Shape shape;
  Attrs attrs;

  bool operator==(const Node&) const = default;
  bool is_splat() const { return op == Op::Const && attrs.dense < 0; }
};

struct Output {
  std::string name;
  NodeId node;
  bool operator==(const Output&) const = default;
};

class Graph {
 public:
  explicit Graph(std::string name = "main") : name_(std::move(name)) {}

  const std::string& name() const { return name_; }
  void set_name(std::string n) { name_ = std::move(n); }

  // The general constructor: checks arity, attributes and operand shapes against the op
  // table, infers the result shape (or, for leaves/reshape/expand, takes `shape`; for other
  // ops a non-empty `shape` must equal the inferred one) and returns the existing id when an
  // equal node exists. Throws inrarch::Error naming the problem.
  NodeId add(Op op, std::vector<NodeId> operands, Attrs attrs = {}, const Shape* shape = nullptr);

  // Convenience builders (all go through add()).
  NodeId input(const std::string& name, const Shape& shape);
  NodeId param(const std::string& name, const Shape& shape);
  NodeId constant(double value, const Shape& shape);   // splat
  NodeId constant(const Tensor& value);                 // dense
  NodeId unary(Op op, NodeId x);
  NodeId binary(Op op, NodeId a, NodeId b);
  NodeId mm(NodeId a, NodeId b) { return add(Op::Mm, {a, b}); }
  NodeId transpose(NodeId x) { return add(Op::Transpose, {x}); }
  NodeId permute(NodeId x, std::vector<int64_t> perm);
  NodeId reshape(NodeId x, const Shape& shape);
  NodeId expand(NodeId x, const Shape& shape);
  NodeId unsqueeze(NodeId x, int64_t dim);
  NodeId squeeze(NodeId x, int64_t dim);
  NodeId select(NodeId x, int64_t dim, int64_t index);
  NodeId slice(NodeId x, int64_t dim, int64_t start, int64_t end, int64_t step = 1);
  NodeId cat(std::vector<NodeId> xs, int64_t dim);
  NodeId sum(NodeId x, std::vector<int64_t> dims, bool keepdim);

  const Node& node(NodeId id) const { return nodes_[id]; }
  const Shape& shape(NodeId id) const { return nodes_[id].shape; }
  Op op(NodeId id) const { return nodes_[id].op; }
  size_t size() const { return nodes_.size(); }
  const std::vector<Node>& nodes() const { return nodes_; }

  // Dense constant storage (content-deduplicated).
  const Tensor& tensor(int32_t index) const { return tensors_[index]; }
  size_t tensor_count() const { return tensors_.size(); }
  int32_t intern_tensor(const Tensor& t);

  // Lookup of leaves by name; kNoNode when absent.
  NodeId find_input(const std::string& name) const;
  NodeId find_param(const std::string& name) const;

  // Named outputs, in order. Names must be unique.
  const std::vector<Output>& outputs() const { return outputs_; }
  void add_output(const std::string& name, NodeId node);
  void set_outputs(std::vector<Output> outputs);

 private:
  struct NodeHash {
    size_t operator()(const Node& n) const;
  };
  std::string name_;
  std::vector<Node> nodes_;
  std::unordered_map<Node, NodeId, NodeHash> index_;
  std::vector<Tensor> tensors_;
  std::unordered_multimap<uint64_t, int32_t> tensor_index_;  // content hash -> tensor
  std::unordered_map<std::string, NodeId> leaves_by_name_;    // "input:x", "param:w"
  std::vector<Output> outputs_;
};

// Node ids reachable from the outputs, in increasing (topological) order.
std::vector<NodeId> live_nodes(const Graph& g);

// Number of nodes that are not input/param/const, counting only live ones.
size_t count_op_nodes(const Graph& g);

// Per node: true when it depends on no input (only params and constants below it), so its
// value is known at compile time: weights and their folds, held in ROM by the hardware.
// `live` is live_nodes(g); other nodes are false.
std::vector<bool> static_nodes(const Graph& g, const std::vector<NodeId>& live);

// Users of every node (restricted to live nodes), indexed by NodeId.
std::vector<std::vector<NodeId>> users_of(const Graph& g);

// Structural verification of the whole graph (arity, attributes, shapes, operand order,
// outputs). Throws inrarch::Error naming the first bad node. Run after every pass in tests.
void verify(const Graph& g);

// Negative dims count from the end, as in PyTorch. Throws when out of range.
int64_t normalize_dim(int64_t dim, int64_t rank, const char* what);

}  // namespace inrarch::ir
