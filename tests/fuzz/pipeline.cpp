// Fuzz target: the path `inrarch analyze --optimize` takes through the tool, on small
// graphs: parse text IR, verify, optimize (verifying after each pass), lower to a dataflow
// design as analyze does (driver/rows.h: a prefix of the rows when they are independent),
// then resolve it at depth 2 and explain a deadlock. Inputs past the caps below are
// skipped, so that each runs in milliseconds and the fuzzer spends its time on shapes of
// graphs, not on sizes.
#include <algorithm>

#include "dataflow/event_graph.h"
#include "dataflow/lower.h"
#include "dataflow/periodic.h"
#include "driver/rows.h"
#include "fuzz_target.h"
#include "ir/text.h"
#include "passes/pipeline.h"

namespace {

using namespace inrarch;

constexpr size_t kMaxTextBytes = 4096;
constexpr size_t kMaxNodes = 40;
constexpr int64_t kMaxNodeElements = 256;  // per node: beats, steps and const folding stay small

bool small(const ir::Graph& g) {
  if (g.size() > kMaxNodes) return false;
  return std::all_of(g.nodes().begin(), g.nodes().end(),
                     [](const ir::Node& n) { return numel(n.shape) <= kMaxNodeElements; });
}

void analyze(const ir::Graph& g) {
  dataflow::LowerOptions lo;
  const driver::RowPlan rp = driver::plan_rows(g, dataflow::RowOptions{}, "");
  lo = driver::row_lowering(g, lo, rp);
  const dataflow::Design d = driver::lower_at_batch(g, lo, rp);
  const std::vector<int64_t> depths(d.streams.size(), 2);
  if (rp.periodic) {
    (void)dataflow::analyze_rows(driver::row_builder(g, lo), *rp.rows, depths);
    return;
  }
  dataflow::EventGraph eg(d);
  const dataflow::Resolution r = eg.resolve(depths);
  if (r.deadlock) (void)dataflow::explain_deadlock(d, r);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size > kMaxTextBytes) return 0;
  return fuzz::run(data, size, [](std::string_view text) {
    const ir::Graph g = ir::parse_text(text, "fuzz.ir");
    if (!small(g)) return;
    ir::verify(g);
    passes::PipelineOptions po;
    po.verify_each = true;
    const ir::Graph optimized = passes::run_pipeline(g, po).graph;
    if (!small(optimized)) return;
    analyze(optimized);
  });
}
