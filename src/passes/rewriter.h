// The two engines every pass is built on.
//
// 1. rebuild(): copies the live nodes of a graph, in topological order, into a fresh graph,
//    letting a callback replace each node. Because the destination hash-conses, the copy is
//    already a full structural CSE and drops dead nodes; a pass that replaces nothing on a
//    dead-node-free graph returns the same ids (docs/optimizer.md).
// 2. run_rules(): the one fixpoint driver for declarative rewrite tables. Each sweep rebuilds
//    the graph and offers every node (after its operands were rewritten) to the rules keyed
//    by its op, repeatedly, until none matches; sweeps repeat until one changes nothing. A
//    loop guard bounds both the sweeps and the per-node rule chain, so a cyclic rule set
//    stops (counted as "fixpoint-guard") instead of hanging.
#pragma once

#include <functional>
#include <optional>
#include <span>
#include <vector>

#include "ir/graph.h"
#include "passes/pass.h"

namespace inrarch::passes {

using ir::Graph;
using ir::Node;
using ir::NodeId;
using ir::Op;

// Adds a copy of `n` (whose operands are already ids of `out`) to `out`, hash-consed.
NodeId add_node(Graph& out, const Node& n);

// `mapped` is the source node with operands mapped into `out` (and a dense const's tensor
// re-interned there). Return the replacement id in `out`, or kNoNode to keep the node as is.
using NodeFn = std::function<NodeId(Graph& out, const Node& mapped, NodeId old)>;

// Rebuilds the live part of `src` into `out` (normally empty); outputs keep their names.
// Returns the old->new id map (kNoNode for dead nodes).
std::vector<NodeId> rebuild_into(const Graph& src, Graph& out, const NodeFn& fn = {});
Graph rebuild(const Graph& src, const NodeFn& fn = {});

// What rules see: the destination graph plus cached facts about its nodes. Accessors return
// copies because rules add nodes, which may reallocate the arena.
class RuleContext {
 public:
  explicit RuleContext(Graph& g) : g(g) {}
  Graph& g;

  Op op(NodeId id) const { return g.op(id); }
  NodeId arg(NodeId id, size_t i) const { return g.node(id).operands[i]; }
  Shape shape(NodeId id) const { return g.shape(id); }
  // Value of a splat constant, nullopt for anything else.
  std::optional<double> splat(NodeId id) const;
  NodeId splat_like(double v, NodeId like) { return g.constant(v, g.shape(like)); }
  // True when the value depends on no input: only consts and params below it. Such values
  // are known at compile time (weights live in on-chip ROM), so they can absorb factors.
  bool is_static(NodeId id);
  // Static and reads at least one param (as opposed to a pure constant expression).
  bool reads_param(NodeId id);
  // Users (plus output uses) that the node had in the graph this sweep started from; 0 for
  // nodes the rules made in this sweep. Rules that would duplicate work unless they consume
  // the last use of an operand check this.
  uint32_t uses(NodeId id) const { return id < uses_.size() ? uses_[id] : 0; }
  void note_uses(NodeId id, uint32_t n);

 private:
  void extend(NodeId id);
  std::vector<uint8_t> facts_;  // bit 0: static, bit 1: reads a param
  std::vector<uint32_t> uses_;
};

// A rule returns the id of the replacement (added to ctx.g), or kNoNode when it does not
// match. `n` is a copy of the node being rewritten, `id` its id in ctx.g.
using RuleFn = NodeId (*)(RuleContext& ctx, const Node& n, NodeId id);

struct Rule {
  const char* name;            // counted in PassStats under this name
  std::optional<Op> root;      // only offered nodes with this op; nullopt: every node
  RuleFn apply;
};

struct FixpointLimits {
  int max_sweeps = 64;
  int max_chain = 32;  // rule applications on one node within a sweep
};

Graph run_rules(const Graph& g, std::span<const Rule> rules, PassStats& stats,
                const FixpointLimits& limits = {});

}  // namespace inrarch::passes
