// The pipeline: the list below is the optimizer. Order matters and is explained inline.
#include "passes/pipeline.h"

#include <chrono>

#include <fmt/format.h>

#include "support/error.h"
#include "ir/interpreter.h"
#include "passes/algebra.h"
#include "passes/batch_outermost.h"
#include "passes/const_fold.h"
#include "passes/cse.h"
#include "passes/dce.h"
#include "passes/fold_params.h"
#include "passes/permute_to_transpose.h"
#include "passes/transpose_simplify.h"

namespace inrarch::passes {

const std::vector<PassInfo>& available_passes() {
  static const std::vector<PassInfo> kPasses = {
      {"batch-outermost", batch_outermost, "[1, N, d] inputs -> [N, d]: leading size-1 dims out of the graph"},
      {"permute-to-transpose", permute_to_transpose,
       "permute chains composed, identities and moves of size-1 dims removed, 2-D permute -> transpose"},
      {"transpose-simplify", transpose_simplify, "cancel transpose pairs, transpose of splat/mm"},
      {"const-fold", const_fold, "ops on constants -> constants (splat-aware)"},
      {"algebra", algebra, "algebraic rule table to a fixpoint (x*1, scalar factors into mm, ...)"},
      {"cse", cse, "full structural CSE incl. re-association of single-use add/mul chains"},
      {"fold-params", fold_params, "static weight expressions -> new params"},
      {"dce", dce, "drop nodes not reachable from outputs"},
  };
  return kPasses;
}

const std::vector<std::string>& default_pipeline() {
  static const std::vector<std::string> kDefault = {
      "batch-outermost",       // SIREN's [1, N, 2]: the batch outermost, as rows need
      "permute-to-transpose",  // PyTorch W.permute(-1,-2) a transpose, einsum's permutes gone
      "transpose-simplify",    // W^T^T from mm's VJP cancels before anything looks at it
      "const-fold",            // backward seeds (ones/189, one-hot scatters) become constants
      "algebra",               // factors move out and into weights; identities vanish
      "cse",                   // re-associated products now share
      "algebra",               // ...which can expose new factor moves
      "transpose-simplify",    // transposes the rules made on static values
      "fold-params",           // static weight expressions -> new params
      "cse",
      "dce",
  };
  return kDefault;
}

namespace {

const PassInfo& find_pass(const std::string& name) {
  for (const PassInfo& p : available_passes())
    if (p.name == name) return p;
  std::string known;
  for (const PassInfo& p : available_passes()) known += (known.empty() ? "" : ", ") + p.name;
  throw Error(fmt::format("unknown pass \"{}\" (known: {})", name, known));
}

}  // namespace

PipelineResult run_pipeline(const ir::Graph& g, const PipelineOptions& options) {
  const auto& names = options.passes.empty() ? default_pipeline() : options.passes;
  std::vector<const PassInfo*> list;
  for (const std::string& n : names) list.push_back(&find_pass(n));  // fail before running
  PipelineResult r{g, {}, {}, ir::count_op_nodes(g), 0};
  PassContext ctx;
  for (size_t i = 0; i < list.size(); ++i) {
    PassRecord rec{list[i]->name, ir::count_op_nodes(r.graph), 0, {}, 0};
    ctx.stats = {};
    const auto t0 = std::chrono::steady_clock::now();
    r.graph = list[i]->fn(r.graph, ctx);
    rec.ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    if (options.verify_each) {
      try {
        ir::verify(r.graph);
      } catch (const Error& e) {
        throw Error(fmt::format("after pass {} ({}): {}", i + 1, rec.name, e.what()));
      }
    }
    rec.op_nodes_after = ir::count_op_nodes(r.graph);
    rec.stats = std::move(ctx.stats);
    if (options.on_print && (options.print_after.count(rec.name) || options.print_after.count("all")))
      options.on_print(rec.name, i, r.graph);
    r.passes.push_back(std::move(rec));
  }
  r.new_params = std::move(ctx.new_params);
  r.op_nodes_after = ir::count_op_nodes(r.graph);
  return r;
}

void apply_param_transforms(const std::vector<ParamTransform>& transforms, ir::TensorMap& params) {
  for (const ParamTransform& t : transforms) {
    try {
      params[t.name] = ir::evaluate(t.expr, {}, params).at(0);
    } catch (const Error& e) {
      throw Error(fmt::format("deriving param \"{}\": {}", t.name, e.what()));
    }
  }
}

namespace {

// batch-outermost changes input and output shapes, never their values or element order:
// the bundle's tensors follow.
void reshape_like_graph(ir::Bundle& b) {
  auto follow = [](ir::Tensor& t, const ir::Shape& s) {
    if (t.shape != s && numel(t.shape) == numel(s)) t.shape = s;
  };
  for (const ir::Node& n : b.graph.nodes())
    if (n.op == ir::Op::Input && b.inputs.count(n.attrs.name)) follow(b.inputs[n.attrs.name], n.shape);
  for (const ir::Output& o : b.graph.outputs())
    if (b.reference.count(o.name)) follow(b.reference[o.name], b.graph.shape(o.node));
}

}  // namespace

PipelineResult optimize_bundle(ir::Bundle& b, const PipelineOptions& options) {
  PipelineResult r = run_pipeline(b.graph, options);
  // Only the recipes the optimized graph (transitively) needs are evaluated.
  std::set<std::string> needed;
  for (const ir::Node& n : r.graph.nodes())
    if (n.op == ir::Op::Param) needed.insert(n.attrs.name);
  std::vector<ParamTransform> used;
  for (auto it = r.new_params.rbegin(); it != r.new_params.rend(); ++it) {
    if (!needed.count(it->name)) continue;
    for (const ir::Node& n : it->expr.nodes())
      if (n.op == ir::Op::Param) needed.insert(n.attrs.name);
    used.insert(used.begin(), *it);
  }
  apply_param_transforms(used, b.params);
  for (auto it = b.params.begin(); it != b.params.end();)
    it = r.graph.find_param(it->first) == ir::kNoNode ? b.params.erase(it) : std::next(it);
  b.graph = r.graph;
  reshape_like_graph(b);
  return r;
}

nlohmann::json pipeline_report(const PipelineResult& r) {
  nlohmann::json passes = nlohmann::json::array();
  for (const PassRecord& p : r.passes)
    passes.push_back({{"name", p.name},
                      {"op_nodes_before", p.op_nodes_before},
                      {"op_nodes_after", p.op_nodes_after},
                      {"rewrites", p.stats.rewrites},
                      {"ms", p.ms}});
  return {{"op_nodes_input", r.op_nodes_before}, {"op_nodes_optimized", r.op_nodes_after},
          {"new_params", r.new_params.size()}, {"passes", passes}};
}

std::string stats_table(const PipelineResult& r) {
  std::string s = fmt::format("{:<3} {:<22} {:>7} {:>7} {:>9}  rewrites\n", "#", "pass", "before",
                              "after", "ms");
  for (size_t i = 0; i < r.passes.size(); ++i) {
    const PassRecord& p = r.passes[i];
    std::string rw;
    for (const auto& [rule, n] : p.stats.rewrites) rw += fmt::format("{}{}={}", rw.empty() ? "" : " ", rule, n);
    s += fmt::format("{:<3} {:<22} {:>7} {:>7} {:>9.3f}  {}\n", i + 1, p.name, p.op_nodes_before,
                     p.op_nodes_after, p.ms, rw.empty() ? "-" : rw);
  }
  s += fmt::format("op nodes: {} -> {}; new params: {}\n", r.op_nodes_before, r.op_nodes_after,
                   r.new_params.size());
  return s;
}

}  // namespace inrarch::passes
