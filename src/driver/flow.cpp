// The compile flow is a straight list of stages; each reads what the previous ones left in
// FlowState and adds its section to the report.
#include "driver/flow.h"

#include <chrono>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <future>

#include <fmt/format.h>

#include "backend/hls/hls.h"
#include "backend/mlir/emit.h"
#include "dataflow/event_graph.h"
#include "dataflow/fifo_sizing.h"
#include "dataflow/lower.h"
#include "dataflow/report.h"
#include "dataflow/verify.h"
#include "driver/budget.h"
#include "driver/parallelism.h"
#include "driver/plan.h"
#include "driver/formats.h"
#include "driver/precision.h"
#include "driver/range_proof.h"
#include "driver/report_data.h"
#include "driver/rtl_stage.h"
#include "frontend/load.h"
#include "support/staging.h"
#include "ir/bundle.h"
#include "support/error.h"
#include "support/files.h"
#include "passes/evaluate_rows.h"
#include "passes/pipeline.h"

namespace inrarch::driver {

namespace {

using Clock = std::chrono::steady_clock;

struct FlowState {
  const CompileOptions& opts;
  std::filesystem::path out;  // the staged output folder
  nlohmann::json report;
  ir::Bundle bundle;
  // A built-in model's reference values, evaluated beside the optimizer and the dataflow
  // stage (they do not need them); joined by the reference stage, which then writes the
  // compiled bundle (`saved`: the optimized graph, before any merging).
  std::future<std::vector<Tensor>> reference;
  std::optional<ir::Bundle> saved;
  std::optional<dataflow::Design> design;
  int64_t rows = 0;      // the batch when rows are independent (DataflowResult::rows)
  dataflow::Part part;
  hls::NumberType type;  // --type, or the precision stage's choice
  int weight_bits = 0;   // an mm's weights: --weight-bits, or the precision stage's (0: type's width)
  CompileResult result;  // the typed figures, set by the stages from their typed results
  std::string over_budget;  // why the design does not fit the budget (driver/budget.h), or ""
};

void progress(const FlowState& s, const std::string& line) {
  if (s.opts.progress) s.opts.progress(line);
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
                          {"width", spec.dims.at(1)}, {"seed", spec.seed},
                          {"mode", autodiff::mode_name(o.builtin_mode)}};
    if (!o.builtin_mode_choice.is_null()) s.report["source"]["mode_choice"] = o.builtin_mode_choice;
    s.bundle = autodiff::build_insp_bundle(spec, o.builtin_order, false, o.builtin_mode);
    s.reference = std::async(std::launch::async, [b = s.bundle] {
      return passes::evaluate_in_rows(b.graph, b.inputs, b.params);
    });
  } else {
    s.report["source"] = {{"bundle", o.bundle_dir.string()}};
    s.bundle = frontend::load_bundle(o.bundle_dir);
  }
  const ir::Graph& g = s.bundle.graph;
  const int64_t op_nodes = int64_t(ir::count_op_nodes(g));
  s.result.graph = {g.name(), int64_t(g.outputs().size()), op_nodes, op_nodes};
  s.report["graph"] = {{"nodes_imported", ir::live_nodes(g).size()}};
}

void optimize(FlowState& s) {
  if (!s.opts.optimize) {
    s.report["graph"]["passes"] = nlohmann::json::array();
  } else {
    const passes::PipelineResult pr = passes::optimize_bundle(s.bundle);
    s.result.graph.op_nodes_optimized = int64_t(pr.op_nodes_after);
    s.report["graph"]["passes"] = passes::pipeline_report(pr)["passes"];
    progress(s, fmt::format("optimized {} -> {} op nodes", s.result.graph.op_nodes_imported, pr.op_nodes_after));
  }
  // The bundle the rest of the flow compiles (optimized graph, derived params), written
  // once its reference values are in (reference stage).
  s.saved = s.bundle;
}

// Designs up to this many processes also run the shipped project's own C simulation.
constexpr size_t kProjectCsimMaxProcesses = 1000;

// Waits for a built-in model's reference values, then writes OUT/bundle.
void reference_stage(FlowState& s) {
  if (s.reference.valid()) {
    std::vector<Tensor> ref = s.reference.get();
    const auto& outs = s.saved->graph.outputs();
    for (size_t i = 0; i < ref.size(); ++i) {
      s.saved->reference[outs[i].name] = ref[i];
      s.bundle.reference[outs[i].name] = std::move(ref[i]);
    }
  }
  ir::save_bundle(*s.saved, s.out / "bundle");
  s.saved.reset();
  // The reference's dtype goes with it, so `eval --check OUT/bundle` picks its tolerance.
  const std::filesystem::path meta = s.opts.bundle_dir / "meta.json";
  if (!s.opts.bundle_dir.empty() && std::filesystem::exists(meta))
    std::filesystem::copy_file(meta, s.out / "bundle" / "meta.json",
                               std::filesystem::copy_options::overwrite_existing);
}

dataflow::Arith arith_of(const hls::NumberType& t) {
  switch (t.kind) {
    case hls::NumberType::Float: return {dataflow::Arith::Float, 32};
    case hls::NumberType::Double: return {dataflow::Arith::Double, 64};
    case hls::NumberType::Fixed: break;
  }
  return {dataflow::Arith::Fixed, t.width};
}

// The compile result's design, FIFO and performance figures, from the stage's typed result.
void set_dataflow_figures(CompileResult& c, const dataflow::Design& d, const DataflowResult& r,
                          const dataflow::Part& part) {
  c.design = {int64_t(d.processes.size()), int64_t(d.streams.size()), r.analysis.deadlock_free,
                d.options.block};
  const dataflow::SizingResult& z = r.sized;
  c.fifo.method = dataflow::method_name(z.method);
  if (!z.deadlock) c.fifo.latency_cycles = z.latency;
  c.fifo.peak_latency_cycles = z.peak_latency;
  c.fifo.total_depth = z.memory.total_depth;
  c.fifo.total_bits = z.memory.fifo_bits;
  c.fifo.bram18k = z.memory.bram18k;
  const dataflow::Utilisation u = dataflow::utilisation(r.resources.total, part);
  c.performance = {r.floor.cycles, r.floor.latency_over_floor, part.name, u.dsp, u.bram18k, u.uram, u.lut, u.ff,
                   r.resources.fits, r.resources.over};
}

void dataflow_stage(FlowState& s) {
  DataflowPlan plan;
  plan.lower.block = s.opts.block.value_or(1);
  plan.search_block = !s.opts.block;
  plan.lower.mm_par = s.opts.mm_par;
  plan.dse = s.opts.dse;
  plan.merge = s.opts.merge;
  plan.part = dataflow::find_part(s.opts.part);
  plan.budget = dataflow::parse_budget(s.opts.budget);
  plan.arith = arith_of(s.type);
  plan.lower.elem_bits = plan.arith.bits;
  if (s.type.kind == hls::NumberType::Fixed && s.weight_bits < s.type.width) plan.lower.weight_bits = s.weight_bits;
  plan.sizing.method = dataflow::method_from_name(s.opts.fifo_method);
  plan.sizing.alpha = s.opts.alpha;
  plan.exact = s.opts.exact;
  if (!s.opts.plan_file.empty()) {
    plan.plan = read_plan(s.opts.plan_file);
    plan.plan_source = "--plan " + s.opts.plan_file.string();
    plan.dse = false;
  }
  if (s.opts.progress) plan.sizing.progress = [&s](const std::string& line) { progress(s, line); };
  plan.progress = [&s](const std::string& line) { progress(s, line); };
  DataflowResult r = build_dataflow(s.bundle.graph, plan);
  s.bundle.graph = std::move(r.graph);  // the backends emit the graph the design lowers
  s.design = std::move(r.design);
  s.rows = r.rows;
  s.part = plan.part;
  for (const auto& [key, section] : r.report.items()) s.report[key] = section;
  set_dataflow_figures(s.result, *s.design, r, plan.part);
  s.over_budget = over_budget_message(r.resources, plan.part, plan.budget);
  write_file(s.out / "plan.json", plan_json(r.plan).dump(2) + "\n");  // compile --plan reads it back
  progress(s, fmt::format("{} processes, {} streams; latency {} cycles (peak {}), {}",
                          s.design->processes.size(), s.design->streams.size(), r.sized.latency,
                          r.sized.peak_latency, r.sized.deadlock ? "DEADLOCK" : "deadlock-free"));
  const dataflow::Analysis& an = r.analysis;
  if (!an.rows) throw Error("dataflow: the analysis does not say how the batch was analysed");
  if (an.rows->exact)
    progress(s, fmt::format("analysed every beat ({})", an.rows->why_exact));
  else if (an.prefix && an.prefix->fill_cycles && an.rows->rows)
    progress(s, fmt::format("analysed {} of {} rows: latency = {} cycles", an.prefix->rows_analysed, *an.rows->rows,
                            dataflow::closed_form(*an.prefix->fill_cycles, *an.rows->rows, *an.prefix->period_cycles,
                                                  *an.prefix->period_rows)));
  progress(s, fmt::format("{:.2f}x the DSP floor of {} cycles; {} {} the budget", r.floor.latency_over_floor,
                          r.floor.cycles, plan.part.name, r.resources.fits ? "within" : "OVER"));

  // OUT/activity.json: the design and its times, for `inrarch report` (driver/report_data.h).
  write_report_data(s.out, s.bundle.graph, *s.design, report_inputs(*s.design, r.analysis, r.sized));
}

// The narrowest fixed-point type within --max-error (driver/precision.h).
void precision_stage(FlowState& s) {
  hls::SweepOptions sweep;
  sweep.pow2_scaling = s.opts.pow2_scaling;
  sweep.input_range = s.opts.input_range;
  PrecisionChoice c = choose_precision(s.bundle, s.type, s.weight_bits, s.opts.max_error, sweep, s.out / "precision-sweep",
                                       [&s](const std::string& line) { progress(s, line); });
  s.type = c.type;
  s.weight_bits = c.weight_bits;
  s.report["precision"] = c.report;
  progress(s, "precision: " + c.type.name() +
                  (c.weight_bits > 0 ? fmt::format(", mm weights of {} bits", c.weight_bits) : ""));
}

void mlir_stage(FlowState& s) {
  backend::mlir::write_design_mlir(s.bundle, s.out / "design.mlir");
  s.report["mlir"] = {{"file", "design.mlir"}};
}

// The HLS emission's options (the RTL stage uses the same, for the same exponents).
hls::HlsOptions hls_options(const FlowState& s) {
  hls::HlsOptions ho;
  ho.type = s.type;
  if (s.opts.max_error > 0) ho.abs_tol = s.opts.max_error;  // the bound the type was chosen for
  ho.pow2_scaling = s.opts.pow2_scaling;
  ho.input_range = s.opts.input_range;
  ho.rows = s.rows;
  ho.evaluate = [](const ir::Graph& g, const std::vector<ir::NodeId>& nodes, const ir::TensorMap& in,
                   const ir::TensorMap& params, const ir::VisitFn& visit) {
    passes::visit_in_rows(g, nodes, in, params, visit);
  };
  ho.part = s.part.device;
  ho.clock_ns = std::round(100000.0 / s.part.clock_mhz) / 100;  // 300 MHz: 3.33 ns
  return ho;
}

// The formats of a fixed-point design (formats.h) and, over a declared input range, which
// streams provably fit them (range_proof.h).
void formats_stage(FlowState& s, const hls::HlsOptions& ho, const hls::Scaling& sc) {
  s.report["precision"]["formats"] = number_formats(*s.design, ho.type, sc, arith_of(ho.type));
  if (!ho.input_range) return;
  const nlohmann::json p = range_proof(*s.design, s.bundle, ho, sc);
  s.report["hls"]["range_proof"] = p;
  progress(s, fmt::format("range proof: {} of {} streams within {} for every input in [{}, {}]{}", p["proven"].get<int>(),
                          p["streams"].get<size_t>(), ho.type.name(), ho.input_range->first, ho.input_range->second,
                          p["unbounded"].get<int>() ? fmt::format(" ({} unbounded)", p["unbounded"].get<int>()) : ""));
}

void hls_stage(FlowState& s) {
  const hls::HlsOptions ho = hls_options(s);
  hls::Scaling sc;
  hls::emit_hls(*s.design, s.bundle, ho, s.out / "hls", &sc);
  s.result.number_type = ho.type.name();
  s.report["hls"] = {{"folder", "hls"},   {"type", ho.type.name()}, {"top", ho.top},
                     {"part", ho.part},   {"clock_ns", ho.clock_ns},
                     {"pow2_scaling", ho.pow2_scaling && ho.type.kind == hls::NumberType::Fixed}};
  if (ho.input_range) s.report["hls"]["input_range"] = {ho.input_range->first, ho.input_range->second};
  if (ho.type.kind == hls::NumberType::Fixed) formats_stage(s, ho, sc);
  if (!s.opts.csim) return;
  hls::SimOptions sim;
  sim.budget_s = s.opts.sim_budget_s;
  // model_top is one function with every stream and kernel call, which g++ takes minutes
  // on at thousands of processes (3 min at 5,212); the other modes already run those calls.
  const size_t processes = s.design->processes.size();
  sim.project = processes <= kProjectCsimMaxProcesses;
  sim.progress = [&s](const std::string& line) { progress(s, line); };
  hls::SimVerdicts v = hls::run_simulations(*s.design, s.out / "hls", ho, sim);
  if (!sim.project)
    v.project = hls::ProjectRun{"", fmt::format("{} processes (over {}): run `make run` in OUT/hls", processes,
                                                kProjectCsimMaxProcesses), {}};
  const Verification typed = verification_of(v);
  s.result.verification = typed;
  progress(s, fmt::format("csim {}, threaded {}, trace {}, project {}", typed.csim.text(),
                          typed.threaded.text(), typed.trace.text(), typed.project.text()));
}

// --kernel-sim: the memory-mapped kernel's testbench (docs/deploy.md §4); its verdict is
// verification.kernel, its cycles at a fixed memory latency interface.kernel_cycles.
void kernel_flow_stage(FlowState& s) {
  progress(s, "rtl kernel: building and running its testbench");
  const rtl::KernelRun k = rtl::run_kernel(s.out / "rtl", s.opts.sim_budget_s);
  if (!s.result.verification) s.result.verification = Verification{};
  s.result.verification->kernel.status = k.pass ? SimResult::Status::Pass : SimResult::Status::Fail;
  s.result.verification->kernel_run = k;
  s.report["interface"]["kernel_cycles"] = k.cycles >= 0 ? nlohmann::json(k.cycles) : nlohmann::json(nullptr);
  s.report["interface"]["kernel_mem_latency"] = k.mem_latency;
  progress(s, k.error.empty() ? fmt::format("rtl kernel: Verilator {}, bit-exact {}, {} cycles with memory at "
                                            "{}-cycle latency", k.pass ? "PASS" : "FAIL", k.bit_exact, k.cycles,
                                            k.mem_latency)
                              : "rtl kernel: FAIL: " + k.error);
}

// OUT/rtl (docs/rtl.md); simulated, its verdict is verification.rtl.
void rtl_flow_stage(FlowState& s) {
  if (s.opts.rtl_sim.value_or(true) && !s.opts.emit_hls)
    throw Error("compile --rtl: the Verilator run compares with the HLS C simulation; drop --no-hls or add --no-rtl-sim");
  std::string skipped;
  if (!s.opts.rtl_sim) {
    const double work = rtl::simulation_work(*s.design);
    if (work > kAutoRtlSimWork)
      skipped = fmt::format("{:.3g} process-cycles, over the {:.3g} of --rtl's default: --rtl-sim runs it, as does "
                            "`make csim sim` in OUT/rtl", work, kAutoRtlSimWork);
  }
  const RtlStageResult r = driver::rtl_stage(*s.design, s.bundle, hls_options(s), s.out,
                                             s.opts.rtl_sim.value_or(skipped.empty()), s.opts.sim_budget_s);
  s.report["rtl"] = {{"folder", r.folder}, {"top", r.top}};
  s.report["interface"] = rtl::interface_report(r.kernel, s.result.fifo.latency_cycles.value_or(0), s.part.clock_mhz,
                                                s.part.name == "u50" ? kU50HbmGbs : 0);
  if (!skipped.empty()) {
    progress(s, "rtl: Verilator run skipped: " + skipped);
    s.report["rtl"]["sim_skipped"] = skipped;
  }
  if (r.run) {
    const rtl::RtlRun& run = *r.run;
    const std::string exact = run.verilator ? (run.bit_exact() ? "true" : "false") : "null";
    const std::string cycles = run.verilator ? std::to_string(run.cycles()) : "null";
    progress(s, fmt::format("rtl: Verilator {}, bit-exact {}, {} cycles (event graph {}){}", run.pass ? "PASS" : "FAIL",
                            exact, cycles, run.model_cycles, run.overflow_flag ? ", overflow flag set" : ""));
    if (!s.result.verification) s.result.verification = Verification{};
    add_rtl_run(*s.result.verification, run);
  }
  if (s.opts.kernel_sim) kernel_flow_stage(s);
}

}  // namespace

CompileResult compile(const CompileOptions& o) {
  if (o.out_dir.empty()) throw Error("compile: no output folder (-o)");
  if (o.builtin_insp.has_value() == !o.bundle_dir.empty())
    throw Error("compile: give either a bundle folder or --builtin, not both or neither");
  if (o.kernel_sim && !o.emit_rtl) throw Error("compile --kernel-sim: the kernel is written with the RTL; add --rtl");
  if (o.kernel_sim && !o.emit_hls)
    throw Error("compile --kernel-sim: the kernel's testbench compares with the HLS C simulation; drop --no-hls");
  StagingDir staging(o.out_dir, "report.json", "compile output");
  // --verify-design: the design verifier after every back-half step (dataflow/verify.h).
  std::optional<dataflow::ScopedVerifyEach> verify_design;
  if (o.verify_design) verify_design.emplace(true);
  FlowState s{o, staging.path(), {}, ir::Bundle{ir::Graph(""), {}, {}, {}}, {}, {}, {}, 0, dataflow::find_part(o.part),
              hls::parse_number_type(o.number_type), o.weight_bits, {}, {}};
  s.report["tool"] = {{"name", "inrarch"}, {"version", "0.1"}};
  auto t0 = Clock::now();

  stage(s, "frontend", frontend);
  stage(s, "optimize", optimize);
  if (o.max_error > 0) {
    stage(s, "reference", reference_stage);
    stage(s, "precision", precision_stage);
  }
  stage(s, "dataflow", dataflow_stage);
  if (!o.allow_over_budget && !s.over_budget.empty()) throw OverBudgetError(s.over_budget);  // nothing staged is kept
  if (s.saved) stage(s, "reference", reference_stage);
  if (o.emit_mlir) stage(s, "mlir", mlir_stage);
  if (o.emit_hls) stage(s, "hls", hls_stage);
  if (o.emit_rtl) stage(s, "rtl", rtl_flow_stage);

  s.report["timings_ms"]["total"] = std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
  CompileResult result = std::move(s.result);
  result.out_dir = o.out_dir;
  result.sections = std::move(s.report);
  write_file(s.out / "report.json", result.to_json().dump(2) + "\n");
  staging.commit();
  progress(s, fmt::format("wrote {}", o.out_dir.string()));
  return result;
}

}  // namespace inrarch::driver
