// JSON documents from users' files (graph.json of both formats, meta.json, the --depths
// file), parsed once and the same way: errors name the file, syntax errors at line:column,
// and the limits of support/limits.h hold (nesting depth, string length).
#pragma once

#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

namespace inrarch::ir {

// Throws inrarch::Error "<file>:<line>:<col>: malformed JSON: ..." for a syntax error, and
// LimitError for a document nested deeper than limits::kMaxNesting or holding a string
// or key longer than limits::kMaxStringBytes.
nlohmann::json parse_json_text(std::string_view text, std::string_view filename);

// j as JSON text (indent as nlohmann's dump). Text read from a user's file may hold bytes
// that are not UTF-8, which JSON cannot carry: that is an Error "<source>: cannot write it
// as JSON: ...", not nlohmann's type_error escaping to the caller.
std::string dump_json(const nlohmann::json& j, int indent, std::string_view source);

}  // namespace inrarch::ir
