// Whole files in and out: the one reader and the writers every layer uses, each throwing
// inrarch::Error that names the file and the reason.
#pragma once

#include <filesystem>
#include <string>
#include <string_view>

namespace inrarch {

// Whole file as bytes.
std::string read_file(const std::filesystem::path& file);
// Writes bytes to a file (truncating).
void write_file(const std::filesystem::path& file, std::string_view bytes);
// Writes through a sibling temporary and a rename, so the file is either old or complete.
void write_file_atomic(const std::filesystem::path& file, std::string_view text);

}  // namespace inrarch
