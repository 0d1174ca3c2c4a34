// Helpers shared by the readers and writers of text IR, graph.json, .npy and bundles.
// Internal to src/ir/*_io, text.cpp, npy.cpp and bundle.cpp; not an API.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>
#include <utility>

#include "ir/tensor.h"
#include "support/files.h"  // read_file / write_file, for the readers that include this

namespace inrarch::ir::detail {

// 1-based line and column of a byte offset into `text` (offsets past the end clamp).
std::pair<size_t, size_t> line_col(std::string_view text, size_t offset);

}  // namespace inrarch::ir::detail
