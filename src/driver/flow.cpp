// The compile flow is a straight list of stages; each reads what the previous ones left in
// FlowState and adds its section to the report.
#include "driver/flow.h"

#include <chrono>
#include <cstdio>
#include <fstream>

#include <fmt/format.h>

#include "backend/hls/hls.h"
#include "backend/mlir/emit.h"
#include "dataflow/event_graph.h"
#include "dataflow/fifo_sizing.h"
#include "dataflow/lower.h"
#include "dataflow/report.h"
#include "ir/staging.h"
#include "ir/bundle.h"
#include "ir/error.h"
#include "passes/pipeline.h"

namespace inrarch::driver {

namespace {

using Clock = std::chrono::steady_clock;

struct FlowState {
  const CompileOptions& opts;
  std::filesystem::path out;  // the staged output folder
  nlohmann::json report;
  ir::Bundle bundle;
  std::optional<dataflow::Design> design;
};

void progress(const FlowState& s, const std::string& line) {
  if (s.opts.verbose) std::fprintf(stderr, "inrarch compile: %s\n", line.c_str());
}

// Runs one stage, timing it into report.timings_ms.<name>.
template <typename Fn>
void stage(FlowState& s, const char* name, Fn&& fn) {
  progress(s, name);
  auto t0 = Clock::now();
  fn(s);
  s.report["timings_ms"][name] = std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
}

void frontend(FlowState& s) {
  const CompileOptions& o = s.opts;
  if (o.builtin_insp) {
    const auto& spec = *o.builtin_insp;
    s.report["source"] = {{"builtin", "insp"}, {"order", o.builtin_order}, {"batch", spec.batch},
                          {"width", spec.dims.at(1)}, {"seed", spec.seed}};
    s.bundle = autodiff::build_insp_bundle(spec, o.builtin_order);
  } else {
    s.report["source"] = {{"bundle", o.bundle_dir.string()}};
    s.bundle = ir::load_bundle(o.bundle_dir);
  }
  const ir::Graph& g = s.bundle.graph;
  s.report["graph"] = {{"name", g.name()},
                       {"outputs", g.outputs().size()},
                       {"nodes_imported", ir::live_nodes(g).size()},
                       {"op_nodes_imported", ir::count_op_nodes(g)}};
}

void optimize(FlowState& s) {
  auto& graph = s.report["graph"];
  if (!s.opts.optimize) {
    graph["op_nodes_optimized"] = graph["op_nodes_imported"];
    graph["passes"] = nlohmann::json::array();
  } else {
    nlohmann::json pr = passes::pipeline_report(passes::optimize_bundle(s.bundle));
    graph["op_nodes_optimized"] = pr["op_nodes_optimized"];
    graph["passes"] = pr["passes"];
    progress(s, fmt::format("optimized {} -> {} op nodes", graph["op_nodes_imported"].get<int64_t>(),
                            pr["op_nodes_optimized"].get<int64_t>()));
  }
  // The bundle the rest of the flow compiles (optimized graph, derived params).
  ir::save_bundle(s.bundle, s.out / "bundle");
}

void dataflow_stage(FlowState& s) {
  dataflow::LowerOptions lo;
  lo.block = s.opts.block;
  lo.mm_par = s.opts.mm_par;
  s.design = dataflow::lower(s.bundle.graph, lo);
  dataflow::EventGraph eg(*s.design);
  dataflow::SizingOptions so;
  so.method = dataflow::method_from_name(s.opts.fifo_method);
  so.alpha = s.opts.alpha;
  so.progress = s.opts.verbose;
  dataflow::SizingResult sized = dataflow::size_fifos(eg, so);
  s.design->set_depths(sized.depths);
  s.report["design"] = dataflow::design_json(*s.design);
  s.report["analysis"] = dataflow::analysis_json(eg, sized.final, sized.peak_latency);
  s.report["fifo"] = dataflow::fifo_json(*s.design, sized);
  progress(s, fmt::format("{} processes, {} streams; latency {} cycles (peak {}), {}",
                          s.design->processes.size(), s.design->streams.size(), sized.latency,
                          sized.peak_latency, sized.deadlock ? "DEADLOCK" : "deadlock-free"));
}

void mlir_stage(FlowState& s) {
  backend::mlir::write_design_mlir(s.bundle, s.out / "design.mlir");
  s.report["mlir"] = {{"file", "design.mlir"}};
}

void hls_stage(FlowState& s) {
  hls::HlsOptions ho;
  ho.type = hls::parse_number_type(s.opts.number_type);
  ho.pow2_scaling = s.opts.pow2_scaling;
  hls::emit_hls(*s.design, s.bundle, ho, s.out / "hls");
  s.report["hls"] = {{"folder", "hls"},   {"type", ho.type.name()}, {"top", ho.top},
                     {"part", ho.part},   {"clock_ns", ho.clock_ns},
                     {"pow2_scaling", ho.pow2_scaling && ho.type.kind == hls::NumberType::Fixed}};
  if (!s.opts.csim) return;
  hls::SimOptions sim;
  sim.progress = [&s](const std::string& line) { progress(s, line); };
  nlohmann::json v = hls::run_simulations(*s.design, s.out / "hls", ho, sim);
  s.report["verification"] = v;
  auto verdict = [&](const char* mode) {
    return v.contains(mode) ? (v[mode].value("pass", false) ? "PASS" : "FAIL") : "not run";
  };
  progress(s, fmt::format("csim {}, threaded {}, trace {}", verdict("csim"), verdict("threaded"),
                          verdict("trace")));
}

}  // namespace

nlohmann::json compile(const CompileOptions& o) {
  if (o.out_dir.empty()) throw Error("compile: no output folder (-o)");
  if (o.builtin_insp.has_value() == !o.bundle_dir.empty())
    throw Error("compile: give either a bundle folder or --builtin, not both or neither");
  StagingDir staging(o.out_dir, "report.json", "compile output");
  FlowState s{o, staging.path(), {}, ir::Bundle{ir::Graph(""), {}, {}, {}}, {}};
  s.report["tool"] = {{"name", "inrarch"}, {"version", "0.1"}};
  auto t0 = Clock::now();

  stage(s, "frontend", frontend);
  stage(s, "optimize", optimize);
  stage(s, "dataflow", dataflow_stage);
  if (o.emit_mlir) stage(s, "mlir", mlir_stage);
  if (o.emit_hls) stage(s, "hls", hls_stage);

  s.report["timings_ms"]["total"] = std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
  std::ofstream(s.out / "report.json") << s.report.dump(2) << "\n";
  staging.commit();
  progress(s, fmt::format("wrote {}", o.out_dir.string()));
  return s.report;
}

}  // namespace inrarch::driver
