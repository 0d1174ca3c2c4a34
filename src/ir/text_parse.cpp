// Text IR parser: a hand-written lexer (whole input to tokens, each with its line and column)
// and a recursive-descent parser over the grammar in docs/formats.md. Which positional value
// and which attributes a node takes come from its ops.def row, so the parser has no per-op
// code. Every error is "<file>:<line>:<col>: message"; the graph's own checks (arity, shapes)
// are reported at the node's mnemonic.
#include <cctype>
#include <charconv>
#include <string>
#include <unordered_map>

#include <fmt/format.h>

#include "ir/text.h"
#include "support/error.h"
#include "support/limits.h"

namespace inrarch::ir {

namespace {

enum class Tok { Punct, Ident, Number, String, End };

struct Token {
  Tok kind;
  std::string text;  // punctuation char, identifier, number spelling or unescaped string
  size_t line, col;
};

[[noreturn]] void fail_at(std::string_view file, size_t line, size_t col, const std::string& msg) {
  throw Error(fmt::format("{}:{}:{}: {}", file, line, col, msg));
}

bool is_alpha(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'; }
bool is_digit(char c) { return c >= '0' && c <= '9'; }

class Lexer {
 public:
  Lexer(std::string_view text, std::string_view file) : s_(text), file_(file) {}

  std::vector<Token> run() {
    std::vector<Token> out;
    for (skip_space(); pos_ < s_.size(); skip_space()) out.push_back(token());
    out.push_back({Tok::End, "", line_, col()});
    return out;
  }

 private:
  size_t col() const { return pos_ - line_start_ + 1; }
  char at(size_t i) const { return i < s_.size() ? s_[i] : '\0'; }

  void skip_space() {
    while (pos_ < s_.size()) {
      char c = s_[pos_];
      if (c == '\n') {
        ++line_;
        line_start_ = ++pos_;
      } else if (c == ' ' || c == '\t' || c == '\r') {
        ++pos_;
      } else if (c == '/' && at(pos_ + 1) == '/') {
        while (pos_ < s_.size() && s_[pos_] != '\n') ++pos_;
      } else {
        return;
      }
    }
  }

  Token token() {
    Token t{Tok::Punct, "", line_, col()};
    const char c = s_[pos_];
    const char n = at(pos_ + 1);
    if (is_alpha(c)) {
      t.kind = Tok::Ident;
      while (is_alpha(at(pos_)) || is_digit(at(pos_)) || at(pos_) == '.' || at(pos_) == '$')
        t.text += s_[pos_++];
    } else if (is_digit(c) || ((c == '-' || c == '+') && (is_digit(n) || n == '.' || is_alpha(n))) ||
               (c == '.' && is_digit(n))) {
      // A number's spelling: digits, letters (e, inf, nan), '.', and a sign at the start or
      // after an exponent marker. Whether it is a valid number is decided where it is used.
      t.kind = Tok::Number;
      t.text += s_[pos_++];
      for (char d = at(pos_); is_alpha(d) || is_digit(d) || d == '.' ||
                              ((d == '-' || d == '+') && (t.text.back() == 'e' || t.text.back() == 'E'));
           d = at(pos_))
        t.text += s_[pos_++];
    } else if (c == '"') {
      t.kind = Tok::String;
      t.text = string_body();
    } else if (std::string_view("%=,{}[]:@<>").find(c) != std::string_view::npos) {
      t.text = std::string(1, s_[pos_++]);
    } else {
      fail_at(file_, t.line, t.col, fmt::format("unexpected character '{}'", printable(c)));
    }
    // Every token is bounded, not only names: the text is quoted back in error messages.
    static constexpr const char* kKinds[] = {"token", "identifier", "number", "string"};
    limits::check_string(t.text, kKinds[static_cast<int>(t.kind)],
                         fmt::format("{}:{}:{}", file_, t.line, t.col));
    return t;
  }

  static std::string printable(char c) {
    auto u = static_cast<unsigned char>(c);
    return u >= 0x20 && u < 0x7f ? std::string(1, c) : fmt::format("\\x{:02x}", u);
  }

  std::string string_body() {
    const size_t line = line_, col0 = col();
    std::string out;
    for (++pos_;; ++pos_) {
      char c = at(pos_);
      if (pos_ >= s_.size() || c == '\n') fail_at(file_, line, col0, "unterminated string");
      if (c == '"') break;
      if (c != '\\') {
        out += c;
        continue;
      }
      char e = at(++pos_);
      if (e == '"' || e == '\\') out += e;
      else if (e == 'n') out += '\n';
      else if (e == 't') out += '\t';
      else if (e == 'x' && std::isxdigit(static_cast<unsigned char>(at(pos_ + 1))) &&
               std::isxdigit(static_cast<unsigned char>(at(pos_ + 2)))) {
        out += static_cast<char>(std::stoi(std::string(s_.substr(pos_ + 1, 2)), nullptr, 16));
        pos_ += 2;
      } else {
        fail_at(file_, line_, col(), fmt::format("bad escape '\\{}' in string", printable(e)));
      }
    }
    ++pos_;
    return out;
  }

  std::string_view s_, file_;
  size_t pos_ = 0, line_ = 1, line_start_ = 0;
};

std::string describe(const Token& t) {
  switch (t.kind) {
    case Tok::End: return "end of input";
    case Tok::String: return "string \"" + t.text + "\"";
    default: return "'" + t.text + "'";
  }
}

// Which Attr has this text name (only the {..} ones; name and value are positional).
std::optional<Attr> attr_from_name(std::string_view s) {
  for (int i = 0; i < kNumAttrKinds; ++i) {
    auto a = static_cast<Attr>(1u << i);
    if (a != ATTR_NAME && a != ATTR_VALUE && attr_name(a) == s) return a;
  }
  return std::nullopt;
}

class Parser {
 public:
  Parser(std::vector<Token> toks, std::string_view file) : toks_(std::move(toks)), file_(file) {}

  Graph parse() {
    expect_keyword("graph");
    expect('@');
    const Token& name = next();
    if (name.kind != Tok::Ident && name.kind != Tok::String)
      fail(name, "expected a graph name after '@', found " + describe(name));
    g_.set_name(name.text);
    expect('{');
    while (!is_punct(peek(), '}')) {
      const Token& t = peek();
      if (is_punct(t, '%')) parse_node();
      else if (t.kind == Tok::Ident && t.text == "output") parse_output();
      else if (t.kind == Tok::End) fail(t, "missing '}' at the end of the graph");
      else fail(t, "expected a node ('%N = ...'), 'output' or '}', found " + describe(t));
    }
    next();
    if (peek().kind != Tok::End) fail(peek(), "unexpected " + describe(peek()) + " after the graph");
    return std::move(g_);
  }

 private:
  struct Value {  // the positional value of a const
    double splat = 0.0;
    std::optional<std::vector<double>> dense;
  };

  const Token& peek() const { return toks_[pos_]; }
  const Token& next() { return toks_[pos_ < toks_.size() - 1 ? pos_++ : pos_]; }
  static bool is_punct(const Token& t, char c) { return t.kind == Tok::Punct && t.text[0] == c; }
  [[noreturn]] void fail(const Token& t, const std::string& msg) const {
    fail_at(file_, t.line, t.col, msg);
  }
  std::string where(const Token& t) const { return fmt::format("{}:{}:{}", file_, t.line, t.col); }
  // An error of the graph itself (arity, shapes, limits), placed at a token.
  [[noreturn]] void fail(const Token& t, const Error& e) const {
    rethrow_with(e, fmt::format("{}: {}", where(t), e.what()));
  }

  bool accept(char c) {
    if (!is_punct(peek(), c)) return false;
    next();
    return true;
  }
  const Token& expect(char c) {
    if (!is_punct(peek(), c)) fail(peek(), fmt::format("expected '{}', found {}", c, describe(peek())));
    return next();
  }
  void expect_keyword(std::string_view kw) {
    if (peek().kind != Tok::Ident || peek().text != kw)
      fail(peek(), fmt::format("expected '{}', found {}", kw, describe(peek())));
    next();
  }
  std::string expect_string(std::string_view what) {
    if (peek().kind != Tok::String) fail(peek(), fmt::format("expected {} string, found {}", what, describe(peek())));
    return next().text;
  }

  int64_t parse_int() {
    const Token& t = next();
    int64_t v = 0;
    auto [end, ec] = std::from_chars(t.text.data(), t.text.data() + t.text.size(), v);
    if (t.kind != Tok::Number || ec != std::errc() || end != t.text.data() + t.text.size())
      fail(t, "expected an integer, found " + describe(t));
    return v;
  }

  double parse_number() {
    const Token& t = next();
    double v = 0.0;
    auto [end, ec] = std::from_chars(t.text.data(), t.text.data() + t.text.size(), v);
    bool ok = (t.kind == Tok::Number || (t.kind == Tok::Ident && (t.text == "inf" || t.text == "nan"))) &&
              ec == std::errc() && end == t.text.data() + t.text.size();
    if (!ok) fail(t, "expected a number, found " + describe(t));
    return v;
  }

  std::vector<int64_t> parse_int_list() {
    expect('[');
    std::vector<int64_t> out;
    if (accept(']')) return out;
    do out.push_back(parse_int());
    while (accept(','));
    expect(']');
    return out;
  }

  Value parse_value() {
    Value v;
    if (peek().kind != Tok::Ident || peek().text != "dense") {
      v.splat = parse_number();
      return v;
    }
    next();
    expect('<');
    expect('[');
    v.dense.emplace();
    if (!accept(']')) {
      do v.dense->push_back(parse_number());
      while (accept(','));
      expect(']');
    }
    expect('>');
    return v;
  }

  void set_attr(Attr a, Attrs& attrs) {
    switch (a) {
      case ATTR_DIM: attrs.dim = parse_int(); break;
      case ATTR_INDEX: attrs.index = parse_int(); break;
      case ATTR_START: attrs.start = parse_int(); break;
      case ATTR_END: attrs.end = parse_int(); break;
      case ATTR_STEP: attrs.step = parse_int(); break;
      case ATTR_PERM: attrs.perm = parse_int_list(); break;
      case ATTR_DIMS: attrs.dims = parse_int_list(); break;
      case ATTR_KEEPDIM: {
        const Token& t = next();
        if (t.kind != Tok::Ident || (t.text != "true" && t.text != "false"))
          fail(t, "expected true or false, found " + describe(t));
        attrs.keepdim = t.text == "true";
        break;
      }
      default: break;
    }
  }

  // `{name = value, ...}`; returns the set of attributes seen.
  uint32_t parse_attrs(Op op, Attrs& attrs) {
    uint32_t seen = 0;
    expect('{');
    do {
      const Token& name = next();
      auto a = name.kind == Tok::Ident ? attr_from_name(name.text) : std::nullopt;
      if (!a || !(op_info(op).attrs & *a))
        fail(name, fmt::format("bad attribute {}: '{}' has no such attribute", describe(name), op_name(op)));
      if (seen & *a) fail(name, fmt::format("attribute '{}' given twice", name.text));
      seen |= *a;
      expect('=');
      set_attr(*a, attrs);
    } while (accept(','));
    expect('}');
    return seen;
  }

  Shape parse_shape() {
    const Token& at = peek();
    Shape s = parse_int_list();
    limits::check_shape(s, where(at));
    return s;
  }

  NodeId parse_operand() {
    expect('%');
    const Token& t = peek();
    auto it = ids_.find(parse_int());
    if (it == ids_.end()) fail(t, "undefined operand %" + t.text);
    return it->second;
  }

  void parse_node() {
    expect('%');
    const Token& id_tok = peek();
    limits::check_node_count(ids_.size() + 1, where(id_tok));
    const int64_t id = parse_int();
    if (ids_.count(id)) fail(id_tok, fmt::format("duplicate definition of %{}", id));
    expect('=');
    const Token& mn = next();
    auto op = mn.kind == Tok::Ident ? op_from_name(mn.text) : std::nullopt;
    if (!op) fail(mn, "unknown op " + describe(mn));
    const OpInfo& info = op_info(*op);
    Attrs attrs;
    Value value;
    if (info.attrs & ATTR_NAME) attrs.name = expect_string("a name");
    if (info.attrs & ATTR_VALUE) value = parse_value();
    attrs.value = value.splat;
    std::vector<NodeId> operands;
    if (info.arity != 0) {
      do operands.push_back(parse_operand());
      while (accept(','));
    }
    const uint32_t wanted = info.attrs & ~uint32_t{ATTR_NAME | ATTR_VALUE};
    const uint32_t seen = is_punct(peek(), '{') ? parse_attrs(*op, attrs) : 0;
    for (int i = 0; i < kNumAttrKinds; ++i)
      if (wanted & ~seen & (1u << i))
        fail(mn, fmt::format("missing attribute '{}' for {}", attr_name(static_cast<Attr>(1u << i)), mn.text));
    expect(':');
    const Token& shape_tok = peek();
    Shape shape = parse_shape();
    if (value.dense) {
      const auto n = static_cast<size_t>(limits::checked_numel(shape, where(shape_tok)));
      if (value.dense->size() != n)
        fail(shape_tok, fmt::format("dense value has {} elements, shape {} needs {}", value.dense->size(),
                                    shape_str(shape), n));
      attrs.dense = g_.intern_tensor(Tensor(shape, std::move(*value.dense)));
    }
    try {
      ids_[id] = g_.add(*op, std::move(operands), std::move(attrs), &shape);
    } catch (const Error& e) {
      fail(mn, e);
    }
  }

  void parse_output() {
    const Token& kw = next();
    std::string name = expect_string("an output name");
    expect('=');
    NodeId node = parse_operand();
    try {
      g_.add_output(name, node);
    } catch (const Error& e) {
      fail(kw, e);
    }
  }

  std::vector<Token> toks_;
  std::string_view file_;
  size_t pos_ = 0;
  Graph g_;
  std::unordered_map<int64_t, NodeId> ids_;
};

}  // namespace

Graph parse_text(std::string_view text, std::string_view filename) {
  return Parser(Lexer(text, filename).run(), filename).parse();
}

}  // namespace inrarch::ir
