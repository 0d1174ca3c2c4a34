// Fuzz target: graph.json, both the native format and the PyTorch exporter's
// "inrarch-aten" (frontend/load.h reads either, by its "format" key). A graph that reads
// must write and read back to the same JSON.
#include "frontend/load.h"
#include "fuzz_target.h"
#include "ir/bundle.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace inrarch;
  return fuzz::run(data, size, [](std::string_view text) {
    const ir::Graph g = frontend::graph_from_json_text(text, "fuzz.json");
    // A name that is not UTF-8 cannot be written as JSON: an Error, which ends the run here.
    const std::string written = ir::graph_to_json_text(g);
    const std::string again = ir::graph_to_json_text(ir::graph_from_json_text(written, "written.json"));
    INRARCH_ASSERT(again == written, "graph.json round trip: write(read(write(g))) != write(g)");
  });
}
