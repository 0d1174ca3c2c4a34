// Text IR printer (the parser is in text_parse.cpp). The printer is the definition of the
// canonical text: one node a line, attributes in Attr enum order, ids renumbered densely, so
// that print(parse(t)) == t holds for every printed t. Format: docs/formats.md.
#include "ir/text.h"

#include <cmath>

#include <fmt/format.h>

namespace inrarch::ir {

namespace {

bool is_ident_start(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'; }

// Graph names that are plain identifiers print bare (`@insp`); anything else is quoted.
bool is_plain_ident(std::string_view s) {
  if (s.empty() || !is_ident_start(s[0])) return false;
  for (char c : s)
    if (!is_ident_start(c) && !(c >= '0' && c <= '9') && c != '.' && c != '$') return false;
  return true;
}

// Names are printed as C-like strings; the parser undoes exactly these escapes.
std::string quote_string(std::string_view s) {
  std::string out = "\"";
  for (char c : s) {
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\t': out += "\\t"; break;
      default:
        if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f)
          out += fmt::format("\\x{:02x}", static_cast<unsigned char>(c));
        else
          out += c;
    }
  }
  return out + '"';
}

void append_int_list(std::string& out, const std::vector<int64_t>& xs, std::string_view sep) {
  out += '[';
  for (size_t i = 0; i < xs.size(); ++i) {
    if (i) out += sep;
    out += std::to_string(xs[i]);
  }
  out += ']';
}

void append_attr_value(std::string& out, Attr a, const Attrs& v) {
  switch (a) {
    case ATTR_DIM: out += std::to_string(v.dim); break;
    case ATTR_INDEX: out += std::to_string(v.index); break;
    case ATTR_START: out += std::to_string(v.start); break;
    case ATTR_END: out += std::to_string(v.end); break;
    case ATTR_STEP: out += std::to_string(v.step); break;
    case ATTR_PERM: append_int_list(out, v.perm, ", "); break;
    case ATTR_DIMS: append_int_list(out, v.dims, ", "); break;
    case ATTR_KEEPDIM: out += v.keepdim ? "true" : "false"; break;
    default: break;  // name and value are positional, not in {..}
  }
}

// The `{dim = 1, index = 0}` block: every attribute the op carries, in Attr enum order.
void append_attrs(std::string& out, const Node& n) {
  const uint32_t carried = op_info(n.op).attrs & ~uint32_t{ATTR_NAME | ATTR_VALUE};
  if (!carried) return;
  out += " {";
  bool first = true;
  for (int i = 0; i < kNumAttrKinds; ++i) {
    const auto a = static_cast<Attr>(1u << i);
    if (!(carried & a)) continue;
    if (!first) out += ", ";
    first = false;
    out += attr_name(a);
    out += " = ";
    append_attr_value(out, a, n.attrs);
  }
  out += '}';
}

void append_leaf_value(std::string& out, const Graph& g, const Node& n) {
  const uint32_t m = op_info(n.op).attrs;
  if (m & ATTR_NAME) out += ' ' + quote_string(n.attrs.name);
  if (!(m & ATTR_VALUE)) return;
  if (n.attrs.dense < 0) {
    out += ' ' + format_number(n.attrs.value);
    return;
  }
  out += " dense<[";
  const Tensor& t = g.tensor(n.attrs.dense);
  for (size_t i = 0; i < t.data.size(); ++i) {
    if (i) out += ", ";
    out += format_number(t.data[i]);
  }
  out += "]>";
}

}  // namespace

std::string format_number(double v) {
  // fmt's "{}" is the shortest decimal that reads back to the same double.
  std::string s = fmt::format("{}", v);
  if (s.find_first_of(".en") == std::string::npos) s += ".0";  // 'n': inf and nan
  return s;
}

std::string print_text(const Graph& g, bool all_nodes) {
  std::vector<NodeId> order;
  if (all_nodes) {
    for (NodeId i = 0; i < g.size(); ++i) order.push_back(i);
  } else {
    order = live_nodes(g);
  }
  std::vector<size_t> renum(g.size(), 0);
  for (size_t i = 0; i < order.size(); ++i) renum[order[i]] = i;

  std::string out = "graph @";
  out += is_plain_ident(g.name()) ? g.name() : quote_string(g.name());
  out += " {\n";
  for (size_t i = 0; i < order.size(); ++i) {
    const Node& n = g.node(order[i]);
    out += fmt::format("  %{} = {}", i, op_name(n.op));
    append_leaf_value(out, g, n);
    for (size_t k = 0; k < n.operands.size(); ++k)
      out += fmt::format("{}%{}", k ? ", " : " ", renum[n.operands[k]]);
    append_attrs(out, n);
    out += " : " + shape_str(n.shape) + '\n';
  }
  for (const Output& o : g.outputs())
    out += fmt::format("  output {} = %{}\n", quote_string(o.name), renum[o.node]);
  out += "}\n";
  return out;
}

}  // namespace inrarch::ir
