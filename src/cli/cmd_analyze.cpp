// `inrarch analyze DIR|FILE.ir`: lowers the graph to a dataflow design, resolves its event
// graph at the given FIFO depths and prints the latency or the deadlock explanation (exit 0
// either way: a deadlock is a result). Optionally sizes the FIFOs (--fifo-opt).
#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include <iostream>

#include "cli/cli.h"
#include "dataflow/depths.h"
#include "dataflow/event_graph.h"
#include "dataflow/fifo_sizing.h"
#include "dataflow/lower.h"
#include "dataflow/report.h"
#include "dataflow/periodic.h"
#include "driver/report_html.h"
#include "driver/rows.h"
#include "frontend/load.h"
#include "ir/bundle.h"
#include "support/error.h"
#include "passes/pipeline.h"

namespace inrarch::cli {

namespace {

using namespace inrarch::dataflow;

struct AnalyzeArgs {
  std::string path;
  std::string depths = "all=2";
  int64_t block = 1;
  int64_t mm_par = 1;
  bool json = false;
  bool optimize = false;
  bool deepen = false;
  std::string fifo_opt;
  std::string fanout = "chain";
  double alpha = 0.01;
  bool exact = false;
  std::string report;  // --report FILE.html
};

void print_sizing(const Design& d, const SizingResult& s) {
  fmt::print("fifo {} (alpha {}): latency {} cycles (peak {}, bound {}), {} resolves, {:.2f} s\n",
             method_name(s.method), s.alpha, s.deadlock ? std::string("deadlock") : std::to_string(s.latency),
             s.peak_latency, s.bound, s.resolves, s.seconds);
  fmt::print("  total depth {}, FIFO bits {}, BRAM18K {}; kernel buffers {} bits, ROM {} bits\n",
             s.memory.total_depth, s.memory.fifo_bits, s.memory.bram18k,
             s.memory.kernel_buffer_bits, s.memory.rom_bits);
  for (size_t i = 0; i < s.depths.size(); ++i)
    if (s.depths[i] > 2) fmt::print("  {} = {}\n", d.streams[i].name, s.depths[i]);
}

SizingOptions sizing_options(const AnalyzeArgs& a) {
  SizingOptions so;
  so.method = method_from_name(a.fifo_opt);
  so.alpha = a.alpha;
  so.progress = progress_reporter("analyze");
  return so;
}

// Every beat of the batch: the event graph of the whole design.
nlohmann::json analyze_exact(const AnalyzeArgs& a, Design& d, std::vector<int64_t> depths,
                             const std::string& why) {
  EventGraph eg(d);
  Resolution peak = eg.resolve(std::vector<int64_t>(d.streams.size(), kUnbounded));
  Resolution r = a.deepen ? resolve_by_deepening(eg, depths) : eg.resolve(depths);
  d.set_depths(depths);
  nlohmann::json out = deadlock_json(d, r);
  out["design"] = design_json(d);
  out["analysis"] = analysis_json(eg, r, peak.latency);
  out["analysis"]["exact"] = true;
  out["analysis"]["why_exact"] = why;
  if (a.deepen) {
    nlohmann::json dj = nlohmann::json::object();
    for (size_t i = 0; i < depths.size(); ++i) if (depths[i] > 2) dj[d.streams[i].name] = depths[i];
    out["deepened_depths"] = dj;
  }
  if (!a.json) {
    fmt::print("design: {} processes, {} streams, {} events (block {}, mm_par {})\n",
               d.processes.size(), d.streams.size(), eg.events(), a.block, a.mm_par);
    if (r.deadlock) fmt::print("{}", explain_deadlock(d, r));
    else fmt::print("latency: {} cycles (peak, unbounded FIFOs: {})\n", r.latency, peak.latency);
  }
  if (!a.fifo_opt.empty()) {
    SizingResult s = size_fifos(eg, sizing_options(a));
    out["fifo"] = fifo_json(d, s);
    if (!a.json) print_sizing(d, s);
  }
  return out;
}

// A prefix of the rows (dataflow/periodic.h): the same verdicts, at a cost that does not
// grow with the batch.
nlohmann::json analyze_periodic(const AnalyzeArgs& a, const RowDesignBuilder& build, Design& d,
                                int64_t rows, const std::vector<int64_t>& depths) {
  RowAnalysis peak = analyze_peak(build, rows);
  RowAnalysis r = analyze_rows(build, rows, depths);
  nlohmann::json out = deadlock_json(d, r.resolution);
  out["design"] = design_json(d);
  out["analysis"] = rows_analysis_json(r, peak);
  if (!a.json) {
    fmt::print("design: {} processes, {} streams; {} of {} rows analysed, {} events (block {}, mm_par {})\n",
               d.processes.size(), d.streams.size(), r.rows_analysed, rows, r.events, a.block, a.mm_par);
    if (r.deadlock) fmt::print("{}", explain_deadlock(d, r.resolution));
    else if (r.exact) fmt::print("latency: {} cycles (peak: {})\n", r.latency, peak.latency);
    else fmt::print("latency: {} = {} cycles (peak: {})\n", r.latency,
                    closed_form(r.fill, rows, r.period, r.period_rows), peak.latency);
  }
  if (!a.fifo_opt.empty()) {
    RowSizing s = size_fifos_rows(build, rows, sizing_options(a));
    out["fifo"] = fifo_json(d, s.sized);
    if (!a.json) print_sizing(d, s.sized);
  }
  return out;
}

int run_analyze(const AnalyzeArgs& a) {
  ir::Graph g = frontend::load_graph(a.path);
  if (a.optimize) g = passes::run_pipeline(g).graph;
  LowerOptions lo;
  lo.block = a.block;
  lo.mm_par = a.mm_par;
  lo.fanout = a.fanout == "chain" ? Fanout::Chain : Fanout::Star;
  const driver::RowPlan rp = driver::plan_rows(g, RowOptions{}, a.exact ? "--exact" : a.deepen ? "--deepen" : "");
  lo = driver::row_lowering(g, lo, rp);
  Design d = driver::lower_at_batch(g, lo, rp);
  std::vector<int64_t> depths = read_depths(d, a.depths);
  d.set_depths(depths);
  nlohmann::json out = rp.periodic ? analyze_periodic(a, driver::row_builder(g, lo), d, *rp.rows, depths)
                                   : analyze_exact(a, d, depths, rp.why_exact);
  if (!a.report.empty()) driver::write_analysis_report_html(a.report, g, d, out);
  if (a.json) std::cout << out.dump(2) << "\n";
  return 0;
}

}  // namespace

void register_analyze(CLI::App& app) {
  auto args = std::make_shared<AnalyzeArgs>();
  auto* cmd = app.add_subcommand("analyze", "Lower to a dataflow design; latency or deadlock; FIFO sizing");
  cmd->add_option("path", args->path, "Bundle folder or .ir file")->required();
  cmd->add_option("--depths", args->depths, "all=N (N or 'unbounded') or a JSON file {stream: depth}")
      ->capture_default_str();
  cmd->add_option("--block", args->block, "Elements per stream beat")->capture_default_str();
  cmd->add_option("--mm-par", args->mm_par, "Parallel MACs per mm")->capture_default_str();
  cmd->add_option("--fanout", args->fanout, "Fan-out: star (one N-way copy) or chain (copies in order of consumer lag)")
      ->check(CLI::IsMember({"star", "chain"}))
      ->capture_default_str();
  cmd->add_flag("--json", args->json, "Print JSON");
  cmd->add_flag("--optimize", args->optimize, "Run the optimizer pipeline first");
  cmd->add_flag("--deepen", args->deepen, "Resolve deadlocks by deepening FIFOs on the cycle (implies --exact)");
  cmd->add_flag("--exact", args->exact,
                "Resolve every beat of the batch (default: a prefix of rows when rows are independent)");
  cmd->add_option("--fifo-opt", args->fifo_opt, "Size the FIFOs: none, paper or min")
      ->check(CLI::IsMember({"none", "paper", "min"}));
  cmd->add_option("--alpha", args->alpha, "Latency slack of FIFO sizing")->capture_default_str();
  cmd->add_option("--report", args->report, "Also write an HTML report of the design at --depths (graph, deadlock cycle, activity)");
  cmd->callback([args] { run_guarded("analyze", [args] { return run_analyze(*args); }); });
}

}  // namespace inrarch::cli
