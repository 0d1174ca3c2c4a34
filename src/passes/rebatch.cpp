// Row rules: one entry per ops.def row (rows_<Enum>), gathered by the X-macro so that a new
// op does not compile until it says how it treats rows. A rule has two halves:
//   fact  what the node is, from its operands' facts: batched ("rows"), a broadcast row
//         (fixed, one value for every row, so it may be resized with rows), or fixed; or a
//         refusal naming the node, when the op mixes rows or moves the batch;
//   tied  whether operand i changes size with the node when the node is resized.
// The analysis runs the facts forward over the live nodes, then walks back from the outputs
// to find which broadcast rows are tied to rows (and so resized); the rebuild copies the
// live nodes in order with those nodes' dim 0 rescaled.
#include "passes/rebatch.h"

#include <algorithm>
#include <string_view>

#include <fmt/format.h>

#include "support/error.h"

namespace inrarch::passes {

namespace {

using ir::Graph;
using ir::Node;
using ir::NodeId;
using ir::Op;
using ir::Shape;

constexpr NodeId kOutputUse = ir::kNoNode;  // "used by an output" in use records

struct Fact {
  bool rows = false;   // batched
  bool bcast = false;  // fixed and the same for every row: a broadcast row
  int64_t f = 0;       // dim 0 / B, for rows and broadcast rows
};

Fact rows_of(int64_t f) { return {true, false, f}; }
Fact bcast_of(int64_t f) { return {false, true, f}; }

struct Analysis {
  explicit Analysis(const Graph& graph) : g(graph) {}

  const Graph& g;
  std::vector<NodeId> live;
  NodeId first_input = ir::kNoNode;
  int64_t batch = 0;         // the first input's dim 0
  std::vector<Fact> fact;    // per node id
  std::vector<bool> resize;  // rows, and broadcast rows tied to rows
  std::string why;           // the first refusal

  Fact refuse(std::string reason) {
    if (why.empty()) why = std::move(reason);
    return {};
  }
  bool fail(std::string reason) { return refuse(std::move(reason)), false; }
  const Fact& of(NodeId v) const { return fact[v]; }
  // dim 0 / B when dim 0 is a positive multiple of B.
  std::optional<int64_t> f_of(const Shape& s) const {
    if (s.empty() || s[0] <= 0 || s[0] % batch != 0) return std::nullopt;
    return s[0] / batch;
  }
  std::string ref(NodeId v) const { return fmt::format("%{}", v); }
  std::string label(NodeId v) const {
    return fmt::format("node %{} ({})", v, ir::op_name(g.op(v)));
  }
};

using FactFn = Fact (*)(Analysis& a, const Node& n, NodeId id);
using TiedFn = bool (*)(const Analysis& a, const Node& n, size_t operand);

struct RowRule {
  FactFn fact;
  TiedFn tied;
};

// ---- tied halves

bool no_operands(const Analysis&, const Node&, size_t) { return false; }
bool all_tied(const Analysis&, const Node&, size_t) { return true; }
// mm: the rows are the left operand's; the right one is a weight of fixed size.
bool left_tied(const Analysis&, const Node&, size_t i) { return i == 0; }
// expand: an operand broadcast along dim 0 (from 1) keeps its size.
bool expand_tied(const Analysis& a, const Node& n, size_t) {
  const Shape& in = a.g.shape(n.operands[0]);
  return !in.empty() && in[0] == n.shape[0];
}

// ---- fact halves

Fact fixed_fact(Analysis&, const Node&, NodeId) { return {}; }

// A fixed value that is the same for every row, when its dim 0 is a multiple of B.
Fact bcast_if_sized(const Analysis& a, const Shape& s) {
  auto f = a.f_of(s);
  return f ? bcast_of(*f) : Fact{};
}

// Every input is one row per sample (find_batch took B from the first).
Fact input_fact(Analysis& a, const Node& n, NodeId) {
  if (n.shape.empty())
    return a.refuse(fmt::format("input {} is a scalar: it has no batch dimension", n.attrs.name));
  if (n.shape[0] != a.batch)
    return a.refuse(fmt::format("inputs disagree on the batch: {} has {}, {} has {}",
                                a.g.node(a.first_input).attrs.name, a.batch, n.attrs.name,
                                n.shape[0]));
  return rows_of(1);
}

// A splat is the same everywhere, so it can be a broadcast row; dense data cannot.
Fact const_fact(Analysis& a, const Node& n, NodeId) {
  return n.is_splat() ? bcast_if_sized(a, n.shape) : Fact{};
}

// Elementwise ops and cat (not along dim 0): rows when any operand is; every other operand
// then meets those rows element by element, so it must be rows or a broadcast row.
Fact per_row(Analysis& a, const Node& n, NodeId id) {
  const auto& ops = n.operands;
  auto rows = std::find_if(ops.begin(), ops.end(), [&](NodeId o) { return a.of(o).rows; });
  if (n.op == Op::Cat && n.attrs.dim == 0) {
    if (rows == ops.end()) return {};
    return a.refuse(fmt::format("{} concatenates along the batch dimension of {}", a.label(id),
                                a.ref(*rows)));
  }
  if (rows == ops.end()) {
    const bool bcast = std::all_of(ops.begin(), ops.end(), [&](NodeId o) { return a.of(o).bcast; });
    return bcast ? bcast_if_sized(a, n.shape) : Fact{};
  }
  for (NodeId o : ops)
    if (!a.of(o).rows && !a.of(o).bcast)
      return a.refuse(fmt::format(
          "{} meets the rows of {} with %{} ({}), fixed data of shape {} that is not one row "
          "broadcast to all",
          a.label(id), a.ref(*rows), o, ir::op_name(a.g.op(o)), shape_str(a.g.shape(o))));
  return rows_of(*a.f_of(n.shape));  // the rows operand's dim 0
}

// mm(rows, weight) keeps the rows; a batched right operand is contracted over the batch.
Fact mm_fact(Analysis& a, const Node& n, NodeId id) {
  const Fact &x = a.of(n.operands[0]), &w = a.of(n.operands[1]);
  if (w.rows)
    return a.refuse(fmt::format("{} contracts over the batch of {}", a.label(id),
                                a.ref(n.operands[1])));
  if (x.rows) return rows_of(x.f);
  return x.bcast ? bcast_of(x.f) : Fact{};
}

// One-operand ops that keep the operand's rows outermost unless `moves`: rows stay rows (or
// are refused with `what`), a broadcast row stays one, anything else is fixed. The result's
// dim 0 must still be a multiple of B for whole rows to stay outermost.
Fact keeps(Analysis& a, const Node& n, NodeId id, bool moves, std::string_view what) {
  const Fact& x = a.of(n.operands[0]);
  const auto f = a.f_of(n.shape);
  if (x.rows) {
    if (moves || !f)
      return a.refuse(fmt::format("{} {} of {}", a.label(id), what, a.ref(n.operands[0])));
    return rows_of(*f);
  }
  return x.bcast && !moves && f ? bcast_of(*f) : Fact{};
}

Fact transpose_fact(Analysis& a, const Node& n, NodeId id) {
  return keeps(a, n, id, true, "moves the batch dimension");
}
Fact permute_fact(Analysis& a, const Node& n, NodeId id) {
  const bool moves = n.attrs.perm.empty() || n.attrs.perm[0] != 0;
  return keeps(a, n, id, moves, "moves the batch dimension");
}
// The element order is unchanged, so whole rows stay whole when dim 0 is still B*f'.
Fact reshape_fact(Analysis& a, const Node& n, NodeId id) {
  return keeps(a, n, id, !a.f_of(n.shape), "splits the rows");
}
// unsqueeze/squeeze at 0 put a size-1 dimension outside (or take one from) the batch.
Fact squeeze_fact(Analysis& a, const Node& n, NodeId id) {
  return keeps(a, n, id, n.attrs.dim == 0, "moves the batch dimension");
}
Fact index_fact(Analysis& a, const Node& n, NodeId id) {
  return keeps(a, n, id, n.attrs.dim == 0, "indexes the batch dimension");
}
Fact sum_fact(Analysis& a, const Node& n, NodeId id) {
  const auto& dims = n.attrs.dims;  // normalized: sum with no dims lists them all
  const bool over_rows = std::find(dims.begin(), dims.end(), 0) != dims.end();
  return keeps(a, n, id, over_rows, "sums over the batch dimension");
}
// expand of a fixed [1,...] value along dim 0 is that one row broadcast to all.
Fact expand_fact(Analysis& a, const Node& n, NodeId id) {
  const bool along_rows = !expand_tied(a, n, 0);
  if (along_rows && !a.of(n.operands[0]).rows) return bcast_if_sized(a, n.shape);
  return keeps(a, n, id, along_rows, "expands the batch dimension");
}

// ---- the table

constexpr RowRule rows_Input = {input_fact, no_operands};
constexpr RowRule rows_Param = {fixed_fact, no_operands};
constexpr RowRule rows_Const = {const_fact, no_operands};
constexpr RowRule rows_Neg = {per_row, all_tied};
constexpr RowRule rows_Sin = {per_row, all_tied};
constexpr RowRule rows_Cos = {per_row, all_tied};
constexpr RowRule rows_Exp = {per_row, all_tied};
constexpr RowRule rows_Tanh = {per_row, all_tied};
constexpr RowRule rows_Relu = {per_row, all_tied};
constexpr RowRule rows_Step = {per_row, all_tied};
constexpr RowRule rows_Log = {per_row, all_tied};
constexpr RowRule rows_Sqrt = {per_row, all_tied};
constexpr RowRule rows_Add = {per_row, all_tied};
constexpr RowRule rows_Sub = {per_row, all_tied};
constexpr RowRule rows_Mul = {per_row, all_tied};
constexpr RowRule rows_Div = {per_row, all_tied};
constexpr RowRule rows_Mm = {mm_fact, left_tied};
constexpr RowRule rows_Sum = {sum_fact, all_tied};
constexpr RowRule rows_Transpose = {transpose_fact, all_tied};
constexpr RowRule rows_Permute = {permute_fact, all_tied};
constexpr RowRule rows_Reshape = {reshape_fact, all_tied};
constexpr RowRule rows_Unsqueeze = {squeeze_fact, all_tied};
constexpr RowRule rows_Squeeze = {squeeze_fact, all_tied};
constexpr RowRule rows_Expand = {expand_fact, expand_tied};
constexpr RowRule rows_Select = {index_fact, all_tied};
constexpr RowRule rows_Slice = {index_fact, all_tied};
constexpr RowRule rows_Cat = {per_row, all_tied};

constexpr RowRule kRules[] = {
#define OP(Enum, mnemonic, arity, attrs, shape_rule, category, kernel) rows_##Enum,
#include "ir/ops.def"
};
static_assert(sizeof(kRules) / sizeof(kRules[0]) == ir::kNumOps);

const RowRule& rule(Op op) { return kRules[static_cast<int>(op)]; }

// ---- the analysis

// B is the first live input's dim 0. At B == 1 a size-1 dimension anywhere could be the
// batch, so the graph cannot say which one is.
bool find_batch(Analysis& a) {
  auto first = std::find_if(a.live.begin(), a.live.end(),
                            [&](NodeId v) { return a.g.op(v) == Op::Input; });
  if (first == a.live.end()) return a.fail("no input");
  a.first_input = *first;
  const Node& n = a.g.node(*first);
  if (n.shape.empty())
    return a.fail(fmt::format("input {} is a scalar: it has no batch dimension", n.attrs.name));
  a.batch = n.shape[0];
  if (a.batch < 2)
    return a.fail(fmt::format("input {} has a batch of {}: below 2 rows every size-1 dimension "
                              "could be the batch",
                              n.attrs.name, a.batch));
  a.fact.assign(a.g.size(), Fact{});
  return true;
}

bool forward(Analysis& a) {
  for (NodeId v : a.live) {
    a.fact[v] = rule(a.g.op(v)).fact(a, a.g.node(v), v);
    if (!a.why.empty()) return false;
  }
  return true;
}

std::string use_label(const Analysis& a, NodeId user) {
  return user == kOutputUse ? std::string("an output") : a.ref(user);
}

// Which broadcast rows are resized: those a resized node ties to its size, and those that
// are outputs (an output whose dim 0 is a multiple of B is per-row: first_rows cuts its
// reference). One that another node also reads at its old size would need two copies.
bool demand(Analysis& a) {
  const Graph& g = a.g;
  std::vector<NodeId> tied_by(g.size(), ir::kNoNode), kept_by(g.size(), ir::kNoNode);
  std::vector<bool> tied(g.size(), false), kept(g.size(), false);
  for (const ir::Output& o : g.outputs()) {
    const Fact& x = a.of(o.node);
    if (x.rows || x.bcast) {
      tied[o.node] = true, tied_by[o.node] = kOutputUse;
    } else if (a.f_of(g.shape(o.node))) {
      return a.fail(fmt::format("output {} ({}) is {} rows of fixed data, not one row broadcast "
                                "to all",
                                o.name, a.label(o.node), shape_str(g.shape(o.node))));
    }
  }
  a.resize.assign(g.size(), false);
  for (auto it = a.live.rbegin(); it != a.live.rend(); ++it) {  // users before operands
    const NodeId v = *it;
    const Node& n = g.node(v);
    INRARCH_ASSERT(!(a.of(v).rows && kept[v]), "rebatch: a batched value is read at a fixed size");
    if (tied[v] && kept[v])
      return a.fail(fmt::format("{} is needed per row by {} and at its fixed size by {}",
                                a.label(v), use_label(a, tied_by[v]), use_label(a, kept_by[v])));
    a.resize[v] = a.of(v).rows || tied[v];
    for (size_t i = 0; i < n.operands.size(); ++i) {
      const NodeId o = n.operands[i];
      if (a.resize[v] && rule(n.op).tied(a, n, i)) {
        INRARCH_ASSERT(a.of(o).rows || a.of(o).bcast, "rebatch: a resized node ties a fixed value");
        tied[o] = true, tied_by[o] = v;
      } else {
        kept[o] = true, kept_by[o] = v;
      }
    }
  }
  return true;
}

// The analysis of g, or false with the reason in a.why.
bool analyse(Analysis& a) {
  a.live = ir::live_nodes(a.g);
  return find_batch(a) && forward(a) && demand(a);
}

}  // namespace

std::optional<int64_t> graph_rows(const ir::Graph& g, std::string* why_not) {
  Analysis a(g);
  if (analyse(a)) return a.batch;
  if (why_not) *why_not = a.why;
  return std::nullopt;
}

ir::Graph rebatch(const ir::Graph& g, int64_t rows) {
  if (rows < 1) throw Error(fmt::format("rebatch: {} rows: need at least 1", rows));
  Analysis a(g);
  if (!analyse(a)) throw Error("rebatch: " + a.why);
  Graph out(g.name());
  std::vector<NodeId> map(g.size(), ir::kNoNode);
  for (NodeId v : a.live) {
    Node n = g.node(v);
    for (NodeId& o : n.operands) o = map[o];
    if (n.op == Op::Const && n.attrs.dense >= 0)
      n.attrs.dense = out.intern_tensor(g.tensor(n.attrs.dense));
    if (a.resize[v]) n.shape[0] = n.shape[0] / a.batch * rows;
    const auto fresh = static_cast<NodeId>(out.size());  // so far out's ids index a.live
    map[v] = out.add(n.op, n.operands, n.attrs, &n.shape);
    // A resized broadcast row can equal a fixed node of the new size; merged, it would
    // shift the numbers (and so the process names) of every node after it.
    if (map[v] != fresh)
      throw Error(fmt::format("rebatch: at {} rows {} becomes equal to %{}, which would renumber "
                              "the nodes after it",
                              rows, a.label(v), a.live[map[v]]));
  }
  std::vector<ir::Output> outs;
  for (const ir::Output& o : g.outputs()) outs.push_back({o.name, map[o.node]});
  out.set_outputs(std::move(outs));
  return out;
}

ir::TensorMap first_rows(const ir::TensorMap& m, int64_t batch, int64_t rows) {
  if (rows < 1 || rows > batch)
    throw Error(fmt::format("first_rows: {} rows of a batch of {}: need 1 <= rows <= batch",
                            rows, batch));
  return row_range(m, batch, 0, rows);
}

ir::TensorMap row_range(const ir::TensorMap& m, int64_t batch, int64_t lo, int64_t hi) {
  if (lo < 0 || hi <= lo || hi > batch)
    throw Error(fmt::format("row_range: rows [{}, {}) of a batch of {}", lo, hi, batch));
  ir::TensorMap out;
  for (const auto& [name, t] : m) {
    if (t.shape.empty() || t.shape[0] % batch != 0) {
      out.emplace(name, t);
      continue;
    }
    Shape s = t.shape;
    const int64_t per_row = numel(s) / batch;
    s[0] = s[0] / batch * (hi - lo);
    auto first = t.data.begin() + static_cast<std::ptrdiff_t>(lo * per_row);
    out.emplace(name, ir::Tensor(s, std::vector<double>(first, first + static_cast<std::ptrdiff_t>(numel(s)))));
  }
  return out;
}

}  // namespace inrarch::passes
