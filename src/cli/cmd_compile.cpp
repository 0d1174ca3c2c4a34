// `inrarch compile`: the whole flow into an output folder with report.json.
#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include "cli/cli.h"
#include "driver/flow.h"
#include "ir/error.h"

namespace inrarch::cli {

namespace {

struct CompileArgs {
  std::string bundle;
  std::string builtin;
  int order = 1;
  int64_t batch = 64;
  int64_t width = 256;
  uint64_t seed = 0;
  bool no_opt = false;
  bool no_mlir = false;
  bool no_hls = false;
  bool no_csim = false;
  bool no_scaling = false;
  driver::CompileOptions flow;
  bool quiet = false;
};

void print_summary(const std::string& out, const nlohmann::json& r) {
  const auto& g = r["graph"];
  fmt::print("{}: {} outputs; op nodes {} imported -> {} optimized\n", out,
             g["outputs"].get<int>(), g["op_nodes_imported"].get<int>(),
             g["op_nodes_optimized"].get<int>());
  const auto& d = r["design"];
  const auto& f = r["fifo"];
  fmt::print("design: {} processes, {} streams; {}\n", d["processes"].get<int>(),
             d["streams"].get<int>(),
             r["analysis"]["deadlock_free"].get<bool>() ? "deadlock-free" : "DEADLOCK");
  fmt::print("fifo ({}): latency {} cycles (peak {}), {} FIFO entries, {} bits, {} BRAM18K\n",
             f["method"].get<std::string>(), f["latency_cycles"].dump(),
             f["peak_latency_cycles"].dump(), f["total_depth"].dump(), f["total_bits"].dump(),
             f["bram18k"].dump());
  if (!r.contains("verification")) return;
  const auto& v = r["verification"];
  auto verdict = [&](const char* mode) -> std::string {
    return v.contains(mode) ? (v[mode].value("pass", false) ? "PASS" : "FAIL") : "not run";
  };
  std::string err = v.contains("csim") ? fmt::format(" (max abs error {}, max rel error {})",
                                                     v["csim"]["max_abs_error"].dump(),
                                                     v["csim"]["max_rel_error"].dump())
                                       : "";
  fmt::print("verification ({}): csim {}{}, threaded {}, trace {}\n", r["hls"]["type"].get<std::string>(),
             verdict("csim"), err, verdict("threaded"), verdict("trace"));
}

int run_compile(CompileArgs& a) {
  driver::CompileOptions& o = a.flow;
  if (!a.builtin.empty()) {
    if (!a.bundle.empty()) throw Error("give either a bundle folder or --builtin, not both");
    o.builtin_insp = insp_spec(a.order, a.batch, a.width, a.seed);
    o.builtin_order = a.order;
  } else if (a.bundle.empty()) {
    throw Error("give a bundle folder or --builtin insp");
  }
  if (o.block < 1 || o.mm_par < 1) throw Error("--block and --mm-par must be >= 1");
  if (!(o.alpha >= 0 && o.alpha <= 10)) throw Error("--alpha must be in [0, 10]");
  o.bundle_dir = a.bundle;
  o.optimize = !a.no_opt;
  o.emit_mlir = !a.no_mlir;
  o.emit_hls = !a.no_hls;
  o.csim = !a.no_csim;
  o.pow2_scaling = !a.no_scaling;
  o.verbose = !a.quiet;
  nlohmann::json report = driver::compile(o);
  print_summary(o.out_dir.string(), report);
  // A design that fails its own verification is a failed compile for scripts and CI.
  if (report.contains("verification"))
    for (const auto& [mode, v] : report["verification"].items())
      if (!v.value("pass", false)) return 2;
  return 0;
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
  cmd->add_option("-o,--out", f.out_dir, "Output folder (replaced atomically)")->required();
  cmd->add_flag("--no-opt", args->no_opt, "Skip the optimizer pipeline");
  cmd->add_option("--block", f.block, "Elements per stream beat")->capture_default_str();
  cmd->add_option("--mm-par", f.mm_par, "Parallel MACs per mm kernel")->capture_default_str();
  cmd->add_option("--fifo-opt", f.fifo_method, "FIFO sizing: none | paper | min")
      ->check(CLI::IsMember({"none", "paper", "min"}))
      ->capture_default_str();
  cmd->add_option("--alpha", f.alpha, "Latency slack of FIFO sizing: bound = (1+alpha)*peak")
      ->capture_default_str();
  cmd->add_flag("--no-mlir", args->no_mlir, "Do not write design.mlir");
  cmd->add_flag("--no-hls", args->no_hls, "Do not write the HLS project (OUT/hls)");
  cmd->add_option("--type", f.number_type, "HLS number type: float | double | fixed<W,I>")
      ->capture_default_str();
  cmd->add_flag("--no-scaling", args->no_scaling,
                "Fixed point: one format for every value (no per-stream power-of-two exponents)");
  cmd->add_flag("--no-csim", args->no_csim, "Emit HLS code but do not run its C simulations");
  cmd->add_flag("-q,--quiet", args->quiet, "No progress lines on stderr");
  cmd->callback([args] { run_guarded("compile", [args] { return run_compile(*args); }); });
}

}  // namespace inrarch::cli
