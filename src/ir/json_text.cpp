#include "ir/json_text.h"

#include <fmt/format.h>

#include "ir/io_detail.h"
#include "support/error.h"
#include "support/limits.h"

namespace inrarch::ir {

using json = nlohmann::json;

namespace {

// nlohmann's own document builder, with the limits checked as the parser meets each
// container, key and string: a deep or huge document stops there, before it is built (and
// before the recursive dump or a reader would walk it). A parser callback could do the
// same, but nlohmann's callback builder rescans the enclosing container after every value:
// quadratic, 40 s for a list of 2^18 nodes.
class LimitedBuilder : public nlohmann::detail::json_sax_dom_parser<json> {
  using Base = nlohmann::detail::json_sax_dom_parser<json>;

 public:
  LimitedBuilder(json& root, std::string_view filename) : Base(root, true), filename_(filename) {}

  bool start_object(std::size_t n) { return enter() && Base::start_object(n); }
  bool start_array(std::size_t n) { return enter() && Base::start_array(n); }
  bool end_object() { return --depth_, Base::end_object(); }
  bool end_array() { return --depth_, Base::end_array(); }
  bool string(std::string& s) {
    limits::check_string(s, "JSON string", filename_);
    return Base::string(s);
  }
  bool key(std::string& s) {
    limits::check_string(s, "JSON key", filename_);
    return Base::key(s);
  }

 private:
  bool enter() {
    if (++depth_ > limits::kMaxNesting)
      throw LimitError(fmt::format("{}: JSON nested deeper than the limit of {} levels", filename_,
                                   limits::kMaxNesting));
    return true;
  }

  std::string_view filename_;
  int depth_ = 0;
};

}  // namespace

json parse_json_text(std::string_view text, std::string_view filename) {
  json j;
  try {
    LimitedBuilder builder(j, filename);
    json::sax_parse(text, &builder);
  } catch (const json::parse_error& e) {
    auto [line, col] = detail::line_col(text, e.byte > 0 ? e.byte - 1 : 0);
    std::string why = e.what();  // "[json.exception.parse_error.101] parse error at ...: <why>"
    if (auto at = why.find(": "); at != std::string::npos) why = why.substr(at + 2);
    throw Error(fmt::format("{}:{}:{}: malformed JSON: {}", filename, line, col, why));
  } catch (const json::exception& e) {  // e.g. a number too large for a double
    throw Error(fmt::format("{}: malformed JSON: {}", filename, e.what()));
  }
  return j;
}

std::string dump_json(const json& j, int indent, std::string_view source) {
  try {
    return j.dump(indent);
  } catch (const json::type_error& e) {
    throw Error(fmt::format("{}: cannot write it as JSON: {}", source, e.what()));
  }
}

}  // namespace inrarch::ir
