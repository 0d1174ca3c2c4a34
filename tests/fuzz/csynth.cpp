// Fuzz target: Vitis HLS's csynth.xml (backend/hls/hls.h parse_csynth_report, as
// `inrarch hls-report` reads it), and the summaries printed from it. The reader takes a
// path, so each input is written to one temporary file first.
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <string>

#include "backend/hls/hls.h"
#include "fuzz_target.h"
#include "ir/json_text.h"
#include "support/files.h"

namespace {

const std::filesystem::path& scratch_file() {
  // Never destroyed: the exit handler is registered while this static is being built, so it
  // would run after the static's destructor.
  static const std::filesystem::path* file = [] {
    // Memory-backed where there is /dev/shm: rewriting a file on disk costs milliseconds,
    // more than the parse.
    std::error_code ec;
    const std::filesystem::path dir =
        std::filesystem::is_directory("/dev/shm", ec) ? "/dev/shm" : std::filesystem::temp_directory_path();
    auto* p = new std::filesystem::path(dir / ("inrarch-fuzz-csynth-" + std::to_string(::getpid()) + ".xml"));
    std::atexit([] {
      std::error_code ignored;
      std::filesystem::remove(scratch_file(), ignored);
    });
    return p;
  }();
  return *file;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace inrarch;
  return fuzz::run(data, size, [](std::string_view xml) {
    write_file(scratch_file(), xml);
    const hls::CsynthReport r = hls::parse_csynth_report(scratch_file());
    (void)hls::format_csynth_report(r);
    (void)ir::dump_json(hls::csynth_json(r), 2, "fuzz.xml");  // as `hls-report --json` prints it
  });
}
