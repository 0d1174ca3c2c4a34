// The RTL kernel library: the SystemVerilog modules of src/backend/rtl/sv/ (docs/rtl.md
// "The kernel library"), read from the folder beside the tool. Keeping them as .sv files
// lets Verilator, Icarus and Yosys read, lint and diff the library as the hardware it is.
#include <fmt/format.h>

#include <algorithm>

#include "backend/rtl/rtl_detail.h"
#include "support/error.h"
#include "support/files.h"
#include "support/process.h"

namespace inrarch::rtl::detail {

std::filesystem::path library_dir() {
  std::filesystem::path dir = find_beside_executable(kLibraryRelative);
  if (dir.empty())
    throw Error(fmt::format("rtl: the kernel library ({}) is not beside {} or in its parent folder; "
                            "install the tool (cmake --install)",
                            kLibraryRelative, this_executable().string()));
  return dir;
}

namespace {

std::vector<SvFile> files_with(const std::string& extension) {
  const std::filesystem::path dir = library_dir();
  std::vector<SvFile> files;
  for (const auto& entry : std::filesystem::directory_iterator(dir))
    if (entry.path().extension() == extension)
      files.push_back({entry.path().filename().string(), read_file(entry.path())});
  if (files.empty()) throw Error(fmt::format("rtl: the kernel library {} holds no {} file", dir.string(), extension));
  std::sort(files.begin(), files.end(), [](const SvFile& a, const SvFile& b) { return a.name < b.name; });
  return files;
}

}  // namespace

std::vector<SvFile> library_files() { return files_with(".sv"); }
std::vector<SvFile> library_headers() { return files_with(".h"); }

}  // namespace inrarch::rtl::detail
