// Helpers shared by the readers and writers of text IR, graph.json, .npy and bundles.
// Internal to src/ir/*_io, text.cpp, npy.cpp and bundle.cpp; not an API.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

#include "ir/tensor.h"
#include "support/files.h"  // read_file / write_file, for the readers that include this

namespace inrarch::ir::detail {

// Element count of a shape read from a file, or nullopt when a dimension is negative or the
// count is beyond anything we would allocate. Readers check this before numel()/Tensor so
// that a hostile file cannot overflow int64 or request terabytes.
std::optional<int64_t> checked_numel(const Shape& shape);

// 1-based line and column of a byte offset into `text` (offsets past the end clamp).
std::pair<size_t, size_t> line_col(std::string_view text, size_t offset);

}  // namespace inrarch::ir::detail
