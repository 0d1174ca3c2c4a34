// Per-op MLIR emitters: one function per ops.def row, gathered in a table indexed by Op.
// The table is expanded from ops.def, so adding an op without an `emit_<Enum>` here is a
// compile error rather than a runtime surprise.
//
// Mapping (docs/mlir.md has the table): named linalg ops where MLIR has them (add, sub,
// mul, div, matmul, transpose, broadcast, reduce, fill), linalg.map with math/arith bodies
// for the other elementwise ops, tensor.extract_slice / insert_slice / collapse_shape /
// expand_shape for data movement. `cat` is a chain of insert_slice into a tensor.empty
// because tensor.concat does not bufferize in MLIR 19 (one-shot-bufferize rejects it).
#include <algorithm>

#include "backend/mlir/emitter.h"
#include "support/error.h"

namespace inrarch::backend::mlir {

namespace {

using ir::Node;
using ir::NodeId;

using EmitFn = void (*)(Emitter&, NodeId, const Node&);

// ---- leaves ----------------------------------------------------------------------------

void emit_Input(Emitter&, NodeId id, const Node&) {
  INRARCH_ASSERT(false, fmt::format("input node {} is a function argument", id));
}

void emit_Param(Emitter& e, NodeId id, const Node& n) {
  // Reached only with inline_params (otherwise params are arguments).
  auto it = e.params->find(n.attrs.name);
  if (it == e.params->end())
    throw Error(fmt::format("emit-mlir: no value for param \"{}\"", n.attrs.name));
  if (it->second.shape != n.shape)
    throw Error(fmt::format("emit-mlir: param \"{}\" has shape {}, the graph expects {}",
                            n.attrs.name, shape_str(it->second.shape), shape_str(n.shape)));
  e.dense(e.result(id), it->second);
}

void emit_Const(Emitter& e, NodeId id, const Node& n) {
  if (n.is_splat()) {
    // A fill, not a dense splat constant: bufferizes to a loop instead of a global.
    std::string v = e.scalar(id, n.attrs.value, "c");
    e.filled(e.result(id), id, n.shape, v);
  } else {
    e.dense(e.result(id), e.g.tensor(n.attrs.dense));
  }
}

// ---- elementwise -----------------------------------------------------------------------

// %r = linalg.map { <scalar_op> } ins(%x..) outs(%init)
void map_short(Emitter& e, NodeId id, const Node& n, std::string_view scalar_op) {
  const std::string t = tensor_type(n.shape);
  std::string init = e.empty(id, n.shape, "init");
  std::vector<std::string> vs, ts;
  for (size_t i = 0; i < n.operands.size(); ++i) vs.push_back(e.operand(n, i)), ts.push_back(t);
  e.line("{} = linalg.map {{ {} }} ins({} : {}) outs({} : {})", e.result(id), scalar_op,
         fmt::join(vs, ", "), fmt::join(ts, ", "), init, t);
}

// x > 0 ? (relu: x | step: 1.0) : 0.0 -- the interpreter's definition, NaN -> 0.
void map_positive_select(Emitter& e, NodeId id, const Node& n, bool step) {
  const std::string t = tensor_type(n.shape);
  std::string init = e.empty(id, n.shape, "init");
  std::string in = e.tmp(id, "in"), z = e.tmp(id, "zero"), c = e.tmp(id, "pos"),
              s = e.tmp(id, "sel");
  e.line("{} = linalg.map ins({} : {}) outs({} : {})", e.result(id), e.operand(n, 0), t, init, t);
  e.line("  ({}: f64) {{", in);
  e.line("    {} = arith.constant 0.0 : f64", z);
  e.line("    {} = arith.cmpf ogt, {}, {} : f64", c, in, z);
  std::string yes = in;
  if (step) {
    yes = e.tmp(id, "one");
    e.line("    {} = arith.constant 1.0 : f64", yes);
  }
  e.line("    {} = arith.select {}, {}, {} : f64", s, c, yes, z);
  e.line("    linalg.yield {} : f64", s);
  e.line("  }}");
}

void emit_Neg(Emitter& e, NodeId id, const Node& n) { map_short(e, id, n, "arith.negf"); }
void emit_Sin(Emitter& e, NodeId id, const Node& n) { map_short(e, id, n, "math.sin"); }
void emit_Cos(Emitter& e, NodeId id, const Node& n) { map_short(e, id, n, "math.cos"); }
void emit_Exp(Emitter& e, NodeId id, const Node& n) { map_short(e, id, n, "math.exp"); }
void emit_Tanh(Emitter& e, NodeId id, const Node& n) { map_short(e, id, n, "math.tanh"); }
void emit_Log(Emitter& e, NodeId id, const Node& n) { map_short(e, id, n, "math.log"); }
void emit_Sqrt(Emitter& e, NodeId id, const Node& n) { map_short(e, id, n, "math.sqrt"); }
void emit_Relu(Emitter& e, NodeId id, const Node& n) { map_positive_select(e, id, n, false); }
void emit_Step(Emitter& e, NodeId id, const Node& n) { map_positive_select(e, id, n, true); }

// %r = linalg.<op> ins(%a, %b) outs(%init): the named elementwise ops of the reference flow.
void named_binary(Emitter& e, NodeId id, const Node& n, std::string_view op) {
  const std::string t = tensor_type(n.shape);
  std::string init = e.empty(id, n.shape, "init");
  e.line("{} = linalg.{} ins({}, {} : {}, {}) outs({} : {}) -> {}", e.result(id), op,
         e.operand(n, 0), e.operand(n, 1), t, t, init, t, t);
}

void emit_Add(Emitter& e, NodeId id, const Node& n) { named_binary(e, id, n, "add"); }
void emit_Sub(Emitter& e, NodeId id, const Node& n) { named_binary(e, id, n, "sub"); }
void emit_Mul(Emitter& e, NodeId id, const Node& n) { named_binary(e, id, n, "mul"); }
void emit_Div(Emitter& e, NodeId id, const Node& n) { named_binary(e, id, n, "div"); }

// ---- compute ---------------------------------------------------------------------------

void emit_Mm(Emitter& e, NodeId id, const Node& n) {
  const std::string t = tensor_type(n.shape);
  std::string acc = e.tmp(id, "acc");
  e.filled(acc, id, n.shape, e.zero());  // matmul accumulates into its init
  e.line("{} = linalg.matmul ins({}, {} : {}, {}) outs({} : {}) -> {}", e.result(id),
         e.operand(n, 0), e.operand(n, 1), e.type_of(n, 0), e.type_of(n, 1), acc, t, t);
}

void emit_Sum(Emitter& e, NodeId id, const Node& n) {
  const Shape& x = e.g.shape(n.operands[0]);
  std::vector<int64_t> dims = n.attrs.dims;
  std::sort(dims.begin(), dims.end());  // linalg.reduce wants them increasing
  if (dims.empty()) {                    // sum over no dims of a rank-0 tensor
    e.value[id] = e.operand(n, 0);
    return;
  }
  Shape reduced;
  for (int64_t i = 0; i < int64_t(x.size()); ++i)
    if (!std::binary_search(dims.begin(), dims.end(), i)) reduced.push_back(x[i]);
  std::string acc = e.tmp(id, "acc");
  e.filled(acc, id, reduced, e.zero());
  std::string r = n.attrs.keepdim ? e.tmp(id, "reduced") : e.result(id);
  e.line("{} = linalg.reduce {{ arith.addf }} ins({} : {}) outs({} : {}) dimensions = {}", r,
         e.operand(n, 0), e.type_of(n, 0), acc, tensor_type(reduced), int_list(dims));
  e.value[id] = e.reshape(id, r, reduced, n.shape, true);
}

// ---- data movement ---------------------------------------------------------------------

void transpose_by(Emitter& e, NodeId id, const Node& n, const std::vector<int64_t>& perm) {
  const std::string t = tensor_type(n.shape);
  std::string init = e.empty(id, n.shape, "init");
  e.line("{} = linalg.transpose ins({} : {}) outs({} : {}) permutation = {}", e.result(id),
         e.operand(n, 0), e.type_of(n, 0), init, t, int_list(perm));
}

void emit_Transpose(Emitter& e, NodeId id, const Node& n) { transpose_by(e, id, n, {1, 0}); }
void emit_Permute(Emitter& e, NodeId id, const Node& n) { transpose_by(e, id, n, n.attrs.perm); }

void reshape_node(Emitter& e, NodeId id, const Node& n) {
  e.value[id] = e.reshape(id, e.operand(n, 0), e.g.shape(n.operands[0]), n.shape, true);
}

void emit_Reshape(Emitter& e, NodeId id, const Node& n) { reshape_node(e, id, n); }
void emit_Unsqueeze(Emitter& e, NodeId id, const Node& n) { reshape_node(e, id, n); }
void emit_Squeeze(Emitter& e, NodeId id, const Node& n) { reshape_node(e, id, n); }

// Our expand stretches size-1 dims in place; linalg.broadcast adds whole dims. So collapse
// the stretched unit dims away first, then broadcast them back at full size.
void emit_Expand(Emitter& e, NodeId id, const Node& n) {
  const Shape& x = e.g.shape(n.operands[0]);
  Shape kept;
  std::vector<int64_t> added;
  for (int64_t i = 0; i < int64_t(x.size()); ++i) {
    if (x[i] == 1 && n.shape[i] != 1) added.push_back(i);
    else kept.push_back(x[i]);
  }
  if (added.empty()) {
    e.value[id] = e.operand(n, 0);
    return;
  }
  std::string src = e.reshape(id, e.operand(n, 0), x, kept, false);
  const std::string t = tensor_type(n.shape);
  std::string init = e.empty(id, n.shape, "init");
  e.line("{} = linalg.broadcast ins({} : {}) outs({} : {}) dimensions = {}", e.result(id), src,
         tensor_type(kept), init, t, int_list(added));
}

// tensor.extract_slice with per-dim offset/size/stride; the result type may drop dims.
void extract(Emitter& e, NodeId id, const Node& n, int64_t dim, int64_t off, int64_t size,
             int64_t stride) {
  const Shape& x = e.g.shape(n.operands[0]);
  std::vector<int64_t> offs(x.size(), 0), sizes = x, strides(x.size(), 1);
  offs[dim] = off, sizes[dim] = size, strides[dim] = stride;
  e.line("{} = tensor.extract_slice {}{} {} {} : {} to {}", e.result(id), e.operand(n, 0),
         int_list(offs), int_list(sizes), int_list(strides), e.type_of(n, 0),
         tensor_type(n.shape));
}

void emit_Select(Emitter& e, NodeId id, const Node& n) {
  extract(e, id, n, n.attrs.dim, n.attrs.index, 1, 1);
}

void emit_Slice(Emitter& e, NodeId id, const Node& n) {
  extract(e, id, n, n.attrs.dim, n.attrs.start, n.shape[n.attrs.dim], n.attrs.step);
}

void emit_Cat(Emitter& e, NodeId id, const Node& n) {
  if (n.operands.size() == 1) {
    e.value[id] = e.operand(n, 0);
    return;
  }
  const std::string t = tensor_type(n.shape);
  std::string cur = e.empty(id, n.shape, "init");
  int64_t off = 0;
  for (size_t i = 0; i < n.operands.size(); ++i) {
    const Shape& s = e.g.shape(n.operands[i]);
    std::vector<int64_t> offs(s.size(), 0), strides(s.size(), 1);
    offs[n.attrs.dim] = off;
    off += s[n.attrs.dim];
    std::string next = i + 1 == n.operands.size() ? e.result(id) : e.tmp(id, fmt::format("part{}", i));
    e.line("{} = tensor.insert_slice {} into {}{} {} {} : {} into {}", next, e.operand(n, i), cur,
           int_list(offs), int_list(s), int_list(strides), tensor_type(s), t);
    cur = next;
  }
}

constexpr EmitFn kEmitters[] = {
#define OP(Enum, mnemonic, arity, attrs, shape_rule, category, kernel) &emit_##Enum,
#include "ir/ops.def"
};
static_assert(sizeof(kEmitters) / sizeof(kEmitters[0]) == ir::kNumOps,
              "every op of ops.def needs an MLIR emitter");

}  // namespace

void emit_node(Emitter& e, NodeId id) {
  const Node& n = e.g.node(id);
  kEmitters[static_cast<size_t>(n.op)](e, id, n);
}

}  // namespace inrarch::backend::mlir
