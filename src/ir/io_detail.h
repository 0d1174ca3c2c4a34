// Helpers shared by the readers and writers of text IR, graph.json, .npy and bundles.
// Internal to src/ir/*_io, text.cpp, npy.cpp and bundle.cpp; not an API.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

#include "ir/tensor.h"

namespace inrarch::ir::detail {

// Element count of a shape read from a file, or nullopt when a dimension is negative or the
// count is beyond anything we would allocate. Readers check this before numel()/Tensor so
// that a hostile file cannot overflow int64 or request terabytes.
std::optional<int64_t> checked_numel(const Shape& shape);

// Whole file as bytes; throws inrarch::Error naming the file and the OS reason.
std::string read_file(const std::filesystem::path& file);
// Writes bytes to a file (truncating); throws inrarch::Error naming the file on failure.
void write_file(const std::filesystem::path& file, std::string_view bytes);

// 1-based line and column of a byte offset into `text` (offsets past the end clamp).
std::pair<size_t, size_t> line_col(std::string_view text, size_t offset);

}  // namespace inrarch::ir::detail
