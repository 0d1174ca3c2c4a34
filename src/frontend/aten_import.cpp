#include "frontend/aten_import.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "ir/error.h"

namespace inrarch::frontend {

ir::Graph graph_from_aten_json(const nlohmann::json&, std::string_view filename) {
  throw Error(fmt::format("{}: aten graphs are not supported yet", filename));
}

}  // namespace inrarch::frontend
