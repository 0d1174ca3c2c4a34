// `inrarch compile`: the whole flow into an output folder with report.json.
#include <CLI/CLI.hpp>
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <cmath>
#include <cstdio>
#include <optional>
#include <utility>

#include "cli/cli.h"
#include "driver/budget.h"
#include "driver/derivative_mode.h"
#include "driver/flow.h"
#include "driver/report_html.h"
#include "backend/hls/hls.h"
#include "support/error.h"
#include "support/limits.h"

namespace inrarch::cli {

namespace {

struct CompileArgs {
  std::string bundle;
  std::string builtin;
  int order = 1;
  int64_t batch = 64;
  int64_t width = 256;
  uint64_t seed = 0;
  std::string mode = "auto";
  bool no_opt = false;
  bool no_mlir = false;
  bool no_hls = false;
  bool no_csim = false;
  bool no_scaling = false;
  bool no_dse = false;
  bool mm_par_given = false;
  std::string block = "auto";  // --block: auto or elements per beat
  bool block_given = false;
  bool report = false;  // --report: OUT/report.html
  int rtl_sim = 0;      // --rtl-sim: 1, --no-rtl-sim: -1, neither: 0 (the flow decides)
  std::string input_range;
  driver::CompileOptions flow;
  bool quiet = false;
};

// An error figure as "%g" would print it; "n/a" when the run gave none.
std::string figure(const std::optional<double>& v) { return v ? fmt::format("{:.6g}", *v) : "n/a"; }

// One line: latency against the DSP floor, and what the design takes of the part.
void print_performance(const driver::CompileResult& r) {
  const auto& p = r.performance;
  fmt::print("performance: {} cycles = {:.2f}x the DSP floor ({} cycles); {}: DSP {:.1f}%, BRAM "
             "{:.1f}%, URAM {:.1f}%, LUT {:.1f}%, FF {:.1f}%: {}\n",
             r.fifo.latency_cycles ? std::to_string(*r.fifo.latency_cycles) : "null",
             p.latency_over_floor, p.floor_cycles, p.part, 100 * p.dsp, 100 * p.bram18k,
             100 * p.uram, 100 * p.lut, 100 * p.ff,
             p.fits ? "within budget" : "OVER budget (" + p.over + ")");
}

// What the hardware would show: the outputs whose top's sticky overflow flag is set.
void print_flags(const char* who, const std::vector<std::string>& flags, int64_t outputs) {
  if (!flags.empty())
    fmt::print("{}overflow flag set on {} of {} outputs: {}\n", who, flags.size(), outputs, fmt::join(flags, ", "));
}

void print_verification(const driver::CompileResult& r) {
  const driver::Verification& v = *r.verification;
  const std::string err = v.csim.status == driver::SimResult::Status::NotRun
                              ? ""
                              : fmt::format(" (max abs error {}, max rel error {})",
                                            figure(v.csim.max_abs_error), figure(v.csim.max_rel_error));
  fmt::print("verification ({}): csim {}{}, threaded {}, trace {}, project {}{}{}\n", r.number_type,
             v.csim.text(), err, v.threaded.text(), v.trace.text(), v.project.text(),
             v.rtl.status == driver::SimResult::Status::NotRun ? "" : ", rtl " + v.rtl.text(),
             v.kernel.status == driver::SimResult::Status::NotRun ? "" : ", kernel " + v.kernel.text());
  if (v.csim.overflows > 0)
    fmt::print("overflows: {} values out of the range of {} (first in {}): {}\n", v.csim.overflows,
               r.number_type, v.csim.first_overflow, v.csim.overflow_cause);
  print_flags("", v.csim.overflow_flags, r.graph.outputs);
  print_flags("rtl: ", v.rtl.overflow_flags, r.graph.outputs);  // the RTL top's flag registers
  if (const auto& w = v.worst_column)
    fmt::print("worst column: {}[..., {}], rel error {}, abs error {}\n", w->output, w->column,
               figure(w->rel_error), figure(w->max_abs_error));
}

void print_summary(const driver::CompileResult& r) {
  fmt::print("{}: {} outputs; op nodes {} imported -> {} optimized\n", r.out_dir.string(),
             r.graph.outputs, r.graph.op_nodes_imported, r.graph.op_nodes_optimized);
  fmt::print("design: {} processes, {} streams, block {}; {}\n", r.design.processes, r.design.streams,
             r.design.block, r.design.deadlock_free ? "deadlock-free" : "DEADLOCK");
  const auto& f = r.fifo;
  fmt::print("fifo ({}): latency {} cycles (peak {}), {} FIFO entries, {} bits, {} BRAM18K\n",
             f.method, f.latency_cycles ? std::to_string(*f.latency_cycles) : "null",
             f.peak_latency_cycles, f.total_depth, f.total_bits, f.bram18k);
  print_performance(r);
  if (r.verification) print_verification(r);
}

// "LO,HI" with LO < HI, both finite.
std::pair<double, double> parse_input_range(const std::string& text) {
  const size_t comma = text.find(',');
  double lo = 0, hi = 0;
  size_t used_lo = 0, used_hi = 0;
  try {
    if (comma != std::string::npos) {
      lo = std::stod(text.substr(0, comma), &used_lo);
      hi = std::stod(text.substr(comma + 1), &used_hi);
    }
  } catch (const std::exception&) {
    used_lo = 0;
  }
  const bool whole = comma != std::string::npos && used_lo == comma && used_hi == text.size() - comma - 1;
  if (!whole || !std::isfinite(lo) || !std::isfinite(hi) || !(lo < hi))
    throw Error("--input-range: expected LO,HI with LO < HI (e.g. -1,1), got '" + text + "'");
  return {lo, hi};
}

// --block: "auto" (none: searched) or elements per beat, 1 to limits::kMaxParallel.
// --weight-bits N: fixed point only, narrower than the type and wider than its integer bits
// (the weights keep the type's binary point, so they need a fraction bit).
void check_weight_bits(int bits, const hls::NumberType& t) {
  if (t.kind != hls::NumberType::Fixed)
    throw Error("--weight-bits narrows fixed-point weights: --type must be fixed<W,I>, not " + t.name());
  if (bits > t.width || bits <= t.int_bits)
    throw Error(fmt::format("--weight-bits {} must be above the integer bits {} and at most the width {} of {}", bits,
                            t.int_bits, t.width, t.name()));
}

std::optional<int64_t> parse_block(const std::string& text) {
  if (text == "auto") return std::nullopt;
  size_t used = 0;
  int64_t block = 0;
  try {
    block = std::stoll(text, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  if (used == 0 || used != text.size())
    throw Error("--block: expected auto or a whole number of elements per beat (e.g. 4), got '" + text + "'");
  limits::check_range(block, 1, limits::kMaxParallel, fmt::format("--block {}", block), "compile");
  return block;
}

int run_compile(CompileArgs& a) {
  driver::CompileOptions& o = a.flow;
  if (a.rtl_sim != 0) o.rtl_sim = a.rtl_sim > 0;
  if (!a.builtin.empty()) {
    if (!a.bundle.empty()) throw Error("give either a bundle folder or --builtin, not both");
    o.builtin_insp = insp_spec(a.order, a.batch, a.width, a.seed);
    o.builtin_order = a.order;
    const driver::ModeChoice mode = driver::choose_insp_mode(a.mode, *o.builtin_insp, a.order);
    o.builtin_mode = mode.mode;
    if (mode.chosen) o.builtin_mode_choice = mode.json();
  } else if (a.bundle.empty()) {
    throw Error("give a bundle folder or --builtin insp");
  }
  o.block = parse_block(a.block);
  if (o.mm_par < 1) throw Error("--mm-par must be >= 1");
  if (o.weight_bits > 0) check_weight_bits(o.weight_bits, hls::parse_number_type(o.number_type));
  if (!o.plan_file.empty() && (a.mm_par_given || o.merge > 0 || a.block_given))
    throw Error("--plan gives every mm's MACs, the merge and the block: drop --mm-par, --merge and --block");
  if (!(o.alpha >= 0 && o.alpha <= 10)) throw Error("--alpha must be in [0, 10]");
  o.bundle_dir = a.bundle;
  o.optimize = !a.no_opt;
  o.emit_mlir = !a.no_mlir;
  o.emit_hls = !a.no_hls;
  o.csim = !a.no_csim;
  o.pow2_scaling = !a.no_scaling;
  if (!a.input_range.empty()) o.input_range = parse_input_range(a.input_range);
  o.dse = !a.no_dse && !a.mm_par_given && o.plan_file.empty();  // --mm-par and --plan are forced designs
  o.progress = progress_reporter("compile", a.quiet);
  std::optional<driver::CompileResult> compiled;
  try {
    compiled = driver::compile(o);
  } catch (const driver::OverBudgetError& e) {  // docs/errors.md "Over budget"
    std::fprintf(stderr, "inrarch compile: error: %s\n", e.what());
    return driver::kExitOverBudget;
  }
  const driver::CompileResult& result = *compiled;
  print_summary(result);
  if (a.report) fmt::print("wrote {}\n", driver::write_report_html(o.out_dir).string());
  return result.exit_code();  // a design that fails its own verification fails the compile
}

}  // namespace

void register_compile(CLI::App& app) {
  auto args = std::make_shared<CompileArgs>();
  auto& f = args->flow;
  auto* cmd = app.add_subcommand(
      "compile", "Run the whole flow on a bundle or a built-in model; write OUT/report.json");
  cmd->add_option("bundle", args->bundle, "Bundle folder to compile");
  cmd->add_option("--builtin", args->builtin, "Compile a built-in model instead (insp)")
      ->check(CLI::IsMember({"insp"}));
  cmd->add_option("--order,-K", args->order, "Built-in: gradient order")->capture_default_str();
  cmd->add_option("--batch,-B", args->batch, "Built-in: batch size")->capture_default_str();
  cmd->add_option("--width", args->width, "Built-in: hidden width")->capture_default_str();
  cmd->add_option("--seed", args->seed, "Built-in: seed of weights and inputs")->capture_default_str();
  add_mode_option(cmd, args->mode);
  cmd->add_option("-o,--out", f.out_dir, "Output folder (replaced atomically)")->required();
  cmd->add_flag("--no-opt", args->no_opt, "Skip the optimizer pipeline");
  auto* block = cmd->add_option("--block", args->block,
                                "Elements per stream beat: N, or auto (searched with the parallelism; 1 "
                                "with --no-dse or --mm-par)");
  block->capture_default_str();
  auto* par = cmd->add_option("--mm-par", f.mm_par,
                              "Parallel MACs of every mm kernel (turns the search off)");
  par->capture_default_str();
  cmd->add_flag("--no-dse", args->no_dse,
                "No parallelism search: every mm gets --mm-par MACs (default 1)");
  cmd->add_option("--merge", f.merge,
                  "Products sharing a weight merged into one kernel, at most N each "
                  "(1: never; default: searched with the parallelism)")
      ->check(CLI::Range(int64_t{1}, int64_t{64}));
  cmd->add_option("--plan", f.plan_file,
                  "Use this plan (an earlier OUT/plan.json: merge and every mm's MACs) instead of "
                  "searching; every compile writes its own to OUT/plan.json");
  cmd->add_flag("--verify-design", f.verify_design,
                "Run the design verifier after every back-half step (lowering, search candidates, "
                "FIFO sizing): a debugging aid");
  cmd->add_option("--part", f.part, "Target part: u50 | u280 | zcu104")
      ->check(CLI::IsMember({"u50", "u280", "zcu104"}))
      ->capture_default_str();
  cmd->add_option("--budget", f.budget,
                  "Share of the part the search may use, e.g. dsp=0.5,bram=0.6 (default 0.8 each)");
  cmd->add_flag("--allow-over-budget", f.allow_over_budget,
                "Write the design even when it takes more of the part than --budget allows "
                "(default: an error, exit 3)");
  cmd->add_option("--fifo-opt", f.fifo_method, "FIFO sizing: none | paper | min")
      ->check(CLI::IsMember({"none", "paper", "min"}))
      ->capture_default_str();
  cmd->add_option("--alpha", f.alpha, "Latency slack of FIFO sizing: bound = (1+alpha)*peak")
      ->capture_default_str();
  cmd->add_flag("--exact", f.exact,
                "Analyse and size on every beat of the batch (default: on a prefix of rows, "
                "when rows are independent; the latency is then fill + (rows-1) x period)");
  cmd->add_flag("--no-mlir", args->no_mlir, "Do not write design.mlir");
  cmd->add_flag("--no-hls", args->no_hls, "Do not write the HLS project (OUT/hls)");
  cmd->add_option("--type", f.number_type, "HLS number type: float | double | fixed<W,I>")
      ->capture_default_str();
  cmd->add_option("--max-error", f.max_error,
                  "Use the narrowest fixed<W,I> (W up to --type's) whose C-simulated max abs "
                  "error is within this bound; it also becomes csim's PASS bound")
      ->check(CLI::PositiveNumber);
  cmd->add_option("--weight-bits", f.weight_bits,
                  "Fixed point: each mm's weights (a constant B) in N-bit ROM words with the type's "
                  "binary point; 18 makes a product with streams of up to 27 bits one DSP48E2 "
                  "(default: the type's width; with --max-error, searched)")
      ->check(CLI::Range(2, 64));
  cmd->add_flag("--no-scaling", args->no_scaling,
                "Fixed point: one format for every value (no per-stream power-of-two exponents)");
  cmd->add_option("--input-range", args->input_range,
                  "Fixed point: LO,HI, the range of every input value; the per-stream exponents "
                  "are chosen for it (default: for the bundle's inputs), a C simulation "
                  "whose values leave the number type fails, and report.json's "
                  "hls.range_proof says which streams provably fit for every input in it");
  cmd->add_flag("--no-csim", args->no_csim, "Emit HLS code but do not run its C simulations");
  cmd->add_option("--sim-budget", args->flow.sim_budget_s,
                  "Seconds each C simulation may run; past it the run stops and fails as "
                  "'out of time'")
      ->check(CLI::Range(0.001, 1e6))
      ->capture_default_str();
  cmd->add_flag("--rtl", f.emit_rtl, "Also write OUT/rtl (SystemVerilog, docs/rtl.md) and run it with Verilator");
  cmd->add_flag("--rtl-sim,!--no-rtl-sim", args->rtl_sim,
                "With --rtl: run Verilator on it, or not (default: when the design's simulation work, "
                "processes x latency, is at most 2e9; docs/rtl.md)");
  cmd->add_flag("--kernel-sim", f.kernel_sim,
                "With --rtl: also run the memory-mapped kernel under its Verilator testbench (device memory with "
                "random latency, two back-to-back runs; docs/deploy.md): verification.kernel, interface.kernel_cycles");
  cmd->add_flag("--report", args->report, "Also write OUT/report.html (as `inrarch report OUT`)");
  cmd->add_flag("-q,--quiet", args->quiet, "No progress lines on stderr");
  cmd->callback([args, par, block] {
    args->mm_par_given = par->count() > 0;
    args->block_given = block->count() > 0;
    run_guarded("compile", [args] { return run_compile(*args); });
  });
}

}  // namespace inrarch::cli
