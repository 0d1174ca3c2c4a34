// Graph construction time of the INSP derivative set (order 1-3, batch 64, the paper's
// 2-256-256-256-256-3 SIREN): SIREN forward plus 3*(2^K - 1) applications of grad().
// Counters: nodes = arena size, op_nodes = live non-leaf nodes (count_op_nodes).
#include <benchmark/benchmark.h>

#include "autodiff/models.h"

namespace {

void BM_InspGraphBuild(benchmark::State& state) {
  inrarch::autodiff::SirenSpec spec;
  spec.batch = 64;
  const int order = static_cast<int>(state.range(0));
  size_t nodes = 0, op_nodes = 0, outputs = 0;
  for (auto _ : state) {
    inrarch::ir::Graph g = inrarch::autodiff::build_insp_graph(spec, order);
    benchmark::DoNotOptimize(g.size());
    nodes = g.size();
    outputs = g.outputs().size();
    state.PauseTiming();
    op_nodes = inrarch::ir::count_op_nodes(g);
    state.ResumeTiming();
  }
  state.counters["nodes"] = static_cast<double>(nodes);
  state.counters["op_nodes"] = static_cast<double>(op_nodes);
  state.counters["outputs"] = static_cast<double>(outputs);
}
BENCHMARK(BM_InspGraphBuild)->DenseRange(1, 3)->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
