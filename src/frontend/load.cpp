// Dispatch on graph.json's "format" (load.h).
#include "frontend/load.h"

#include "support/files.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "frontend/aten_import.h"
#include "support/error.h"
#include "ir/io_detail.h"

namespace inrarch::frontend {

ir::Graph graph_from_json_text(std::string_view text, std::string_view filename) {
  nlohmann::json j = ir::parse_graph_json_text(text, filename);
  if (j.value("format", nlohmann::json("inrarch-graph")) == "inrarch-aten")
    return graph_from_aten_json(j, filename);
  return ir::graph_from_json(j, filename);
}

ir::Graph read_graph_json(const std::filesystem::path& file) {
  return graph_from_json_text(read_file(file), file.string());
}

ir::Bundle load_bundle(const std::filesystem::path& dir) { return ir::load_bundle(dir, read_graph_json); }

ir::Graph load_graph(const std::filesystem::path& path) { return ir::load_graph(path, read_graph_json); }

std::string source_dtype(const std::filesystem::path& dir) {
  const std::filesystem::path file = dir / "meta.json";
  std::error_code ec;
  if (!std::filesystem::exists(file, ec)) return "float64";
  // The graph.json parser gives the same line:column errors for any JSON object.
  nlohmann::json j = ir::parse_graph_json_text(read_file(file), file.string());
  auto it = j.find("source_dtype");
  if (it == j.end()) return "float64";
  if (!it->is_string()) throw Error(fmt::format("{}: \"source_dtype\" must be a string", file.string()));
  return it->get<std::string>();
}

}  // namespace inrarch::frontend
