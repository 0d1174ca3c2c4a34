// The optimizer pipeline: a straight list of passes (pipeline.cpp), each timed and counted,
// with an optional verifier run and IR dump after chosen passes.
#pragma once

#include <functional>
#include <set>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "ir/bundle.h"
#include "passes/pass.h"

namespace inrarch::passes {

struct PassInfo {
  std::string name;
  PassFn fn;
  std::string summary;  // one line, for --help
};

// Every pass by name, in default-pipeline order of first appearance.
const std::vector<PassInfo>& available_passes();
// The default pipeline (names; a pass may appear more than once).
const std::vector<std::string>& default_pipeline();

struct PipelineOptions {
  std::vector<std::string> passes;      // empty: default_pipeline()
  bool verify_each = false;             // ir::verify after every pass (tests always ask)
  std::set<std::string> print_after;    // pass names; "all" = every pass
  // Called with (pass name, index in the list, graph after it) for passes in print_after.
  std::function<void(const std::string&, size_t, const ir::Graph&)> on_print;
};

struct PassRecord {
  std::string name;
  size_t op_nodes_before = 0, op_nodes_after = 0;
  PassStats stats;
  double ms = 0;
};

struct PipelineResult {
  ir::Graph graph;
  std::vector<PassRecord> passes;
  std::vector<ParamTransform> new_params;  // what the optimized graph's new params are
  size_t op_nodes_before = 0, op_nodes_after = 0;
};

// Runs the pipeline on `g`. Throws inrarch::Error for an unknown pass name, and (with
// verify_each) when a pass produced a graph the verifier rejects, naming the pass.
PipelineResult run_pipeline(const ir::Graph& g, const PipelineOptions& options = {});

// Evaluates `transforms` in order, adding each new param to `params` (later transforms may
// read earlier ones). Throws if a param a recipe reads is missing.
void apply_param_transforms(const std::vector<ParamTransform>& transforms, ir::TensorMap& params);

// Optimizes a bundle in place: the graph is replaced by the optimized one, the new params
// are computed from the old, and params the optimized graph no longer reads are dropped.
// Inputs and reference outputs are unchanged (outputs keep their names and order).
PipelineResult optimize_bundle(ir::Bundle& b, const PipelineOptions& options = {});

// {"op_nodes_optimized": N, "op_nodes_input": M, "passes": [{"name", "op_nodes_before",
//  "op_nodes_after", "rewrites": {rule: count}, "ms"}...]}
nlohmann::json pipeline_report(const PipelineResult& r);

// The per-pass table printed by `inrarch opt --stats`.
std::string stats_table(const PipelineResult& r);

}  // namespace inrarch::passes
