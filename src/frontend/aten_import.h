// Import of graphs exported from PyTorch as aten ops (graph.json with
// "format": "inrarch-aten"): each aten op is mapped to IR ops by a rule table.
#pragma once

#include <string_view>

#include <nlohmann/json_fwd.hpp>

#include "ir/graph.h"

namespace inrarch::frontend {

// Builds an IR graph from a parsed "inrarch-aten" graph.json. An unsupported aten op throws
// inrarch::Error naming the op and its node id.
ir::Graph graph_from_aten_json(const nlohmann::json& j, std::string_view filename);

}  // namespace inrarch::frontend
