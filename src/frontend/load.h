// Model files in, whatever wrote them: the native graph JSON ("inrarch-graph"), text IR, and
// the PyTorch exporter's "inrarch-aten" JSON (aten_import.h). The IR layer reads only its own
// format; everything that takes a user's file goes through these.
#pragma once

#include <filesystem>
#include <string>
#include <string_view>

#include "ir/bundle.h"

namespace inrarch::frontend {

// graph.json of either format (by its "format" key).
ir::Graph graph_from_json_text(std::string_view text, std::string_view filename);
ir::Graph read_graph_json(const std::filesystem::path& file);

// ir::load_bundle / ir::load_graph with this reader.
ir::Bundle load_bundle(const std::filesystem::path& dir);
ir::Graph load_graph(const std::filesystem::path& path);

// The dtype the bundle's reference/ was computed in: "source_dtype" of DIR/meta.json, which
// the PyTorch exporter writes ("float32", "float64"); "float64" when there is no meta.json
// (the C++ writers compute in double). Errors name the file.
std::string source_dtype(const std::filesystem::path& dir);

}  // namespace inrarch::frontend
