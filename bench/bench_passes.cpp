// Optimizer speed on the benchmark model (README): the default pipeline on INSP
// order 1 and order 3 (9 and 45 outputs), SIREN 2-256x4-3, batch 64. Counters report the
// op nodes before and after (count_op_nodes) and the params the optimizer derived.
#include <benchmark/benchmark.h>

#include "autodiff/models.h"
#include "passes/pipeline.h"

namespace {

using namespace inrarch;

void BM_OptimizeInsp(benchmark::State& state) {
  autodiff::SirenSpec spec;  // the benchmark model, batch 64
  const ir::Graph g = autodiff::build_insp_graph(spec, static_cast<int>(state.range(0)));
  passes::PipelineResult r;
  for (auto _ : state) {
    r = passes::run_pipeline(g);
    benchmark::DoNotOptimize(r.graph.size());
  }
  state.counters["op_nodes_before"] = static_cast<double>(r.op_nodes_before);
  state.counters["op_nodes_after"] = static_cast<double>(r.op_nodes_after);
  state.counters["new_params"] = static_cast<double>(r.new_params.size());
  state.counters["outputs"] = static_cast<double>(r.graph.outputs().size());
}
BENCHMARK(BM_OptimizeInsp)->Arg(1)->Arg(2)->Arg(3)->Unit(benchmark::kMillisecond);

// The same with the verifier after every pass (what tests and `inrarch opt` run).
void BM_OptimizeInspVerified(benchmark::State& state) {
  autodiff::SirenSpec spec;
  const ir::Graph g = autodiff::build_insp_graph(spec, static_cast<int>(state.range(0)));
  passes::PipelineOptions o;
  o.verify_each = true;
  for (auto _ : state) benchmark::DoNotOptimize(passes::run_pipeline(g, o).graph.size());
}
BENCHMARK(BM_OptimizeInspVerified)->Arg(3)->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
