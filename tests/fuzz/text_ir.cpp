// Fuzz target: the text IR parser (ir/text.h). A text that parses must print and parse
// back to the same text (docs/formats.md: print(parse(t)) == t for every printed t).
#include "fuzz_target.h"
#include "ir/text.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace inrarch;
  return fuzz::run(data, size, [](std::string_view text) {
    const ir::Graph g = ir::parse_text(text, "fuzz.ir");
    const std::string printed = ir::print_text(g, true);
    const std::string again = ir::print_text(ir::parse_text(printed, "printed.ir"), true);
    INRARCH_ASSERT(again == printed, "text IR round trip: print(parse(print(g))) != print(g)");
  });
}
