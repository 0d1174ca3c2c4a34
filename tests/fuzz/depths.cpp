// Fuzz target: the FIFO depths of `inrarch analyze --depths` (dataflow/depths.h), "all=N"
// or a JSON file, for a small design with a deadlock at depth 2 (the paper's Fig. 5). The
// depths read are then used as analyze uses them: resolved, and their memory counted.
#include <algorithm>
#include <string>

#include "dataflow/depths.h"
#include "dataflow/event_graph.h"
#include "dataflow/lower.h"
#include "dataflow/memory.h"
#include "fuzz_target.h"

namespace {

using namespace inrarch;

const dataflow::Design& fig5_design() {
  static const dataflow::Design d = [] {
    ir::Graph g;
    ir::NodeId x = g.input("x", {8, 1});
    ir::NodeId m = g.mm(g.param("w", {8, 8}), x);
    g.add_output("y", g.binary(ir::Op::Mul, m, g.unary(ir::Op::Cos, x)));
    return dataflow::lower(g);
  }();
  return d;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  return fuzz::run(data, size, [](std::string_view text) {
    const dataflow::Design& d = fig5_design();
    // Only "all=" specs are given as specs: any other spec is a path to read.
    const std::vector<int64_t> depths = text.starts_with("all=")
                                            ? dataflow::read_depths(d, std::string(text))
                                            : dataflow::depths_from_json_text(d, text, "fuzz.json");
    INRARCH_ASSERT(depths.size() == d.streams.size(), "one depth per stream");
    dataflow::EventGraph eg(d);
    const dataflow::Resolution r = eg.resolve(depths);
    if (r.deadlock) (void)dataflow::explain_deadlock(d, r);
    if (std::find(depths.begin(), depths.end(), dataflow::kUnbounded) == depths.end())
      (void)dataflow::memory(d, depths);
  });
}
