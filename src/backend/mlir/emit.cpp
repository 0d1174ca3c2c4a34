// MLIR emission: the function frame (arguments, results, constants) and the shared helpers
// of the per-op emitters. Values are named after node ids (%n12, helpers %n12_init) so the
// emitted text can be read next to the IR; mlir-opt renames everything anyway.
//
// Reshapes are the one non-obvious helper: tensor.collapse_shape / expand_shape need a
// reassociation (contiguous groups of dims with equal products). A general reshape is
// split into the coarsest common grouping of both shapes: collapse the source to the group
// products, then expand to the target, skipping either step when it is the identity.
#include "backend/mlir/emitter.h"

#include <cmath>
#include <cstring>

#include "support/error.h"
#include "support/files.h"
#include "support/staging.h"

namespace inrarch::backend::mlir {

using ir::Node;
using ir::NodeId;
using ir::Op;

std::string tensor_type(const Shape& s) {
  std::string t = "tensor<";
  for (int64_t d : s) t += fmt::format("{}x", d);
  return t + "f64>";
}

std::string int_list(const std::vector<int64_t>& v) { return fmt::format("[{}]", fmt::join(v, ", ")); }

std::string mlir_f64(double v) {
  if (!std::isfinite(v)) {
    uint64_t bits;
    std::memcpy(&bits, &v, sizeof bits);
    return fmt::format("0x{:016X}", bits);
  }
  std::string s = fmt::format("{}", v);  // shortest round-trip decimal
  // MLIR's float literal needs a '.' before any exponent: "1e-08" -> "1.0e-08".
  if (s.find('.') == std::string::npos) {
    size_t e = s.find('e');
    s.insert(e == std::string::npos ? s.size() : e, ".0");
  }
  return s;
}

Emitter::Emitter(const ir::Graph& g, const MlirOptions& opt, const ir::TensorMap* params)
    : g(g), opt(opt), params(params), value(g.size()), label_(g.size(), 0) {
  const std::vector<NodeId> live = ir::live_nodes(g);
  for (size_t i = 0; i < live.size(); ++i) label_[live[i]] = i;
}

std::string Emitter::tmp(NodeId id, std::string_view what) {
  std::string name = fmt::format("%n{}_{}", label_[id], what);
  INRARCH_ASSERT(taken_.insert(name).second, "MLIR value name reused: " + name);
  return name;
}

std::string Emitter::zero() {
  uses_zero_ = true;
  return "%zero";
}

std::string Emitter::scalar(NodeId id, double v, std::string_view what) {
  if (v == 0.0 && !std::signbit(v)) return zero();
  std::string c = tmp(id, what);
  line("{} = arith.constant {} : f64", c, mlir_f64(v));
  return c;
}

std::string Emitter::empty(NodeId id, const Shape& s, std::string_view what) {
  std::string e = tmp(id, what);
  line("{} = tensor.empty() : {}", e, tensor_type(s));
  return e;
}

void Emitter::filled(const std::string& name, NodeId id, const Shape& s, const std::string& v) {
  std::string e = empty(id, s, "empty");
  const std::string t = tensor_type(s);
  line("{} = linalg.fill ins({} : f64) outs({} : {}) -> {}", name, v, e, t, t);
}

namespace {

using Groups = std::vector<std::vector<int64_t>>;

// Coarsest contiguous grouping of `a` and `b` (same numel > 0) into groups of equal
// products; trailing size-1 dims join the last group. Rank 0 gives no groups.
void common_groups(const Shape& a, const Shape& b, Groups& ga, Groups& gb) {
  size_t i = 0, j = 0;
  while (i < a.size() && j < b.size()) {
    std::vector<int64_t> xa{int64_t(i)}, xb{int64_t(j)};
    int64_t pa = a[i++], pb = b[j++];
    while (pa != pb) {
      if (pa < pb) xa.push_back(int64_t(i)), pa *= a[i++];
      else xb.push_back(int64_t(j)), pb *= b[j++];
    }
    ga.push_back(std::move(xa));
    gb.push_back(std::move(xb));
  }
  for (; i < a.size(); ++i) ga.back().push_back(int64_t(i));  // only 1s remain
  for (; j < b.size(); ++j) gb.back().push_back(int64_t(j));
}

std::string groups_str(const Groups& gs) {
  std::vector<std::string> parts;
  for (const auto& g : gs) parts.push_back(int_list(g));
  return fmt::format("[{}]", fmt::join(parts, ", "));
}

bool all_singletons(const Groups& gs) {
  for (const auto& g : gs)
    if (g.size() != 1) return false;
  return true;
}

}  // namespace

std::string Emitter::reshape(NodeId id, const std::string& src, const Shape& from, const Shape& to,
                             bool is_result) {
  if (from == to) return src;
  if (numel(to) == 0) {  // nothing to move
    std::string e = is_result ? result(id) : tmp(id, "empty");
    line("{} = tensor.empty() : {}", e, tensor_type(to));
    return e;
  }
  Groups ga, gb;
  if (!from.empty() && !to.empty()) common_groups(from, to, ga, gb);
  Shape mid;
  for (const auto& grp : ga) {
    int64_t p = 1;
    for (int64_t d : grp) p *= from[d];
    mid.push_back(p);
  }
  const bool collapse = !(from.size() == mid.size() && all_singletons(ga));
  const bool expand = !(to.size() == mid.size() && all_singletons(gb));
  std::string cur = src;
  if (collapse) {
    std::string c = is_result && !expand ? result(id) : tmp(id, "collapse");
    line("{} = tensor.collapse_shape {} {} : {} into {}", c, cur, groups_str(ga),
         tensor_type(from), tensor_type(mid));
    cur = c;
  }
  if (expand) {
    std::string x = is_result ? result(id) : tmp(id, "expand");
    line("{} = tensor.expand_shape {} {} output_shape {} : {} into {}", x, cur, groups_str(gb),
         int_list(to), tensor_type(mid), tensor_type(to));
    cur = x;
  }
  return cur;
}

namespace {

void append_nested(std::string& out, const Tensor& t, size_t dim, size_t& pos) {
  if (dim == t.shape.size()) {
    out += mlir_f64(t.data[pos++]);
    return;
  }
  out += '[';
  for (int64_t i = 0; i < t.shape[dim]; ++i) {
    if (i) out += ", ";
    append_nested(out, t, dim + 1, pos);
  }
  out += ']';
}

}  // namespace

void Emitter::dense(const std::string& name, const Tensor& t) {
  if (t.data.empty()) {  // MLIR's dense<[]> only types as 1-D; no data to hold anyway
    line("{} = tensor.empty() : {}", name, tensor_type(t.shape));
    return;
  }
  std::string lit;
  bool uniform = !t.data.empty();
  for (double x : t.data) uniform = uniform && std::memcmp(&x, &t.data[0], sizeof x) == 0;
  size_t pos = 0;
  if (uniform) lit = mlir_f64(t.data[0]);  // splat form: small text for uniform tensors
  else append_nested(lit, t, 0, pos);
  line("{} = arith.constant dense<{}> : {}", name, lit, tensor_type(t.shape));
}

std::vector<NodeId> mlir_arguments(const ir::Graph& g, bool inline_params) {
  std::vector<NodeId> args;
  const std::vector<NodeId> live = ir::live_nodes(g);
  for (NodeId id : live)
    if (g.op(id) == Op::Input) args.push_back(id);
  if (!inline_params)
    for (NodeId id : live)
      if (g.op(id) == Op::Param) args.push_back(id);
  return args;
}

namespace {

bool is_ident_char(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.' || c == '$' || c == '-';
}

// An MLIR SSA name for a leaf: its own name where legal ("%x", "%l0.weight"), prefixed so
// it cannot collide with the %n<id> values.
std::string arg_name(const ir::Graph& g, NodeId id, std::set<std::string>& taken) {
  std::string s = g.op(id) == Op::Input ? "%in_" : "%p_";
  for (char c : g.node(id).attrs.name) s += is_ident_char(c) ? c : '_';
  if (!taken.insert(s).second) {
    s += fmt::format("_{}", id);
    taken.insert(s);
  }
  return s;
}

std::string symbol(const std::string& name) {
  bool plain = !name.empty() && !std::isdigit(static_cast<unsigned char>(name[0]));
  for (char c : name) plain = plain && is_ident_char(c) && c != '-';
  if (plain) return "@" + name;
  std::string q = "@\"";
  for (char c : name) q += (c == '"' || c == '\\') ? '_' : c;
  return q + "\"";
}

std::string signature(const ir::Graph& g, const Emitter& e, const std::vector<NodeId>& args) {
  std::vector<std::string> a, r;
  for (NodeId id : args) a.push_back(fmt::format("{}: {}", e.value[id], tensor_type(g.shape(id))));
  for (const ir::Output& o : g.outputs()) r.push_back(tensor_type(g.shape(o.node)));
  std::string s = fmt::format("({})", fmt::join(a, ", "));
  if (r.size() == 1) s += " -> " + r[0];
  if (r.size() > 1) s += fmt::format(" -> ({})", fmt::join(r, ", "));
  return s;
}

std::string header_comment(const ir::Graph& g, const std::vector<NodeId>& args) {
  std::string c = fmt::format("// Generated by inrarch emit-mlir from graph @{}.\n", g.name());
  std::vector<std::string> a, r;
  for (NodeId id : args)
    a.push_back(fmt::format("{} \"{}\"", g.op(id) == Op::Input ? "input" : "param",
                            g.node(id).attrs.name));
  for (const ir::Output& o : g.outputs()) r.push_back(fmt::format("\"{}\"", o.name));
  c += fmt::format("// arguments: {}\n", a.empty() ? "(none)" : fmt::format("{}", fmt::join(a, ", ")));
  c += fmt::format("// results: {}\n", r.empty() ? "(none)" : fmt::format("{}", fmt::join(r, ", ")));
  return c;
}

}  // namespace

std::string emit_mlir(const ir::Graph& g, const MlirOptions& opt, const ir::TensorMap* params) {
  if (opt.inline_params && !params)
    throw Error("emit-mlir: --inline-params needs param values (a bundle folder, not a .ir file)");
  Emitter e(g, opt, params);
  const std::vector<NodeId> args = mlir_arguments(g, opt.inline_params);
  std::set<std::string> taken;
  for (NodeId id : args) e.value[id] = arg_name(g, id, taken);
  for (NodeId id : ir::live_nodes(g))
    if (e.value[id].empty()) emit_node(e, id);

  std::vector<std::string> rv, rt;
  for (const ir::Output& o : g.outputs()) {
    rv.push_back(e.value[o.node]);
    rt.push_back(tensor_type(g.shape(o.node)));
  }
  std::string out = header_comment(g, args);
  out += "module {\n";
  out += fmt::format("  func.func {}{}", symbol(opt.func_name.empty() ? g.name() : opt.func_name),
                     signature(g, e, args));
  if (opt.c_interface) out += " attributes {llvm.emit_c_interface}";
  out += " {\n";
  if (e.uses_zero()) out += "    %zero = arith.constant 0.0 : f64\n";
  out += e.body;
  if (rv.empty()) out += "    return\n";
  else out += fmt::format("    return {} : {}\n", fmt::join(rv, ", "), fmt::join(rt, ", "));
  out += "  }\n}\n";
  return out;
}

void write_design_mlir(const ir::Bundle& b, const std::filesystem::path& file,
                       const MlirOptions& opt) {
  const std::string text = emit_mlir(b.graph, opt, &b.params);
  write_file_atomic(file, text);
}

}  // namespace inrarch::backend::mlir
