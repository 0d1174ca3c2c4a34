// Replays a fuzz target without libFuzzer: runs its LLVMFuzzerTestOneInput on every file
// of the folders (or files) named on the command line, in name order. The normal and the
// sanitizer builds register one replay per target with CTest over its seed corpus and its
// regressions (the crashes found before), so every test run checks them again.
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

#include "support/error.h"
#include "support/files.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);

namespace {

namespace fs = std::filesystem;

// Files of a folder in name order; dot files (.gitkeep of an empty folder) are not inputs.
std::vector<fs::path> inputs_of(const fs::path& path) {
  if (!fs::is_directory(path)) return {path};
  std::vector<fs::path> out;
  for (const auto& e : fs::directory_iterator(path))
    if (e.is_regular_file() && !e.path().filename().string().starts_with(".")) out.push_back(e.path());
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace

int main(int argc, char** argv) {
  size_t replayed = 0;
  for (int i = 1; i < argc; ++i) {
    // A folder that does not exist is a mistake in the test's registration, not "no inputs".
    if (!fs::exists(argv[i])) {
      std::fprintf(stderr, "replay: %s: no such file or folder\n", argv[i]);
      return 1;
    }
    for (const fs::path& file : inputs_of(argv[i])) {
      const std::string bytes = inrarch::read_file(file);
      std::fprintf(stderr, "replay: %s\n", file.c_str());
      LLVMFuzzerTestOneInput(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size());
      ++replayed;
    }
  }
  std::printf("replayed %zu inputs\n", replayed);
  return replayed > 0 ? 0 : 1;
}
