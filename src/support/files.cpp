#include "support/files.h"

#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <iterator>

#include <fmt/format.h>

#include "support/error.h"

namespace inrarch {

namespace fs = std::filesystem;

std::string read_file(const std::filesystem::path& file) {
  std::error_code ec;
  if (std::filesystem::is_directory(file, ec))
    throw Error(fmt::format("{}: is a directory, expected a file", file.string()));
  std::ifstream in(file, std::ios::binary);
  if (!in) throw Error(fmt::format("{}: cannot open: {}", file.string(), std::strerror(errno)));
  std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (in.bad()) throw Error(fmt::format("{}: read error", file.string()));
  return bytes;
}

void write_file(const std::filesystem::path& file, std::string_view bytes) {
  std::ofstream out(file, std::ios::binary | std::ios::trunc);
  if (!out) throw Error(fmt::format("{}: cannot create: {}", file.string(), std::strerror(errno)));
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  out.close();
  if (!out) throw Error(fmt::format("{}: write failed: {}", file.string(), std::strerror(errno)));
}

void write_file_atomic(const fs::path& file, std::string_view text) {
  fs::path tmp = file;
  tmp += fmt::format(".tmp-{}", ::getpid());
  std::error_code ec;
  {
    std::ofstream f(tmp, std::ios::binary);
    f.write(text.data(), static_cast<std::streamsize>(text.size()));
    f.flush();
    if (!f) {
      fs::remove(tmp, ec);
      throw Error(fmt::format("{}: cannot write", file.string()));
    }
  }
  fs::rename(tmp, file, ec);
  if (ec) {
    std::error_code ignored;
    fs::remove(tmp, ignored);
    throw Error(fmt::format("{}: cannot write: {}", file.string(), ec.message()));
  }
}

}  // namespace inrarch
