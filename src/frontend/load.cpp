// Dispatch on graph.json's "format" (load.h).
#include "frontend/load.h"

#include <nlohmann/json.hpp>

#include "frontend/aten_import.h"
#include "ir/io_detail.h"

namespace inrarch::frontend {

ir::Graph graph_from_json_text(std::string_view text, std::string_view filename) {
  nlohmann::json j = ir::parse_graph_json_text(text, filename);
  if (j.value("format", nlohmann::json("inrarch-graph")) == "inrarch-aten")
    return graph_from_aten_json(j, filename);
  return ir::graph_from_json(j, filename);
}

ir::Graph read_graph_json(const std::filesystem::path& file) {
  return graph_from_json_text(ir::detail::read_file(file), file.string());
}

ir::Bundle load_bundle(const std::filesystem::path& dir) { return ir::load_bundle(dir, read_graph_json); }

ir::Graph load_graph(const std::filesystem::path& path) { return ir::load_graph(path, read_graph_json); }

}  // namespace inrarch::frontend
