// `inrarch run OUT --input NAME=FILE.npy ... -o DIR`: the compiled design's memory-mapped
// kernel run on a device by the host runtime (docs/deploy.md): the outputs as .npy in DIR
// with run.json (cycles start to done, memory transfers included; time at the clock).
#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include "cli/cli.h"
#include "runtime/runtime.h"
#include "support/error.h"

namespace inrarch::cli {

namespace {

struct RunArgs {
  std::string compiled, results, device = "verilator";
  std::vector<std::string> inputs;
  int mem_latency = 40;
  double clock_mhz = 300;
  bool quiet = false;
};

int run_run(const RunArgs& a) {
  runtime::RunRequest r;
  r.compiled = a.compiled;
  r.results = a.results;
  r.clock_mhz = a.clock_mhz;
  r.device.kind = a.device;
  r.device.compiled = a.compiled;
  r.device.mem_latency = a.mem_latency;
  r.device.progress = progress_reporter("run", a.quiet);
  for (const std::string& in : a.inputs) {
    const size_t eq = in.find('=');
    if (eq == std::string::npos || eq == 0 || eq + 1 == in.size())
      throw Error(fmt::format("run: --input '{}': expected NAME=FILE.npy", in));
    r.inputs.emplace_back(in.substr(0, eq), in.substr(eq + 1));
  }
  const runtime::RunResult res = runtime::run(r);
  fmt::print("{}: {} outputs written to {}\n", res.device, res.outputs.size(), a.results);
  fmt::print("cycles: {} (start to done, memory included) = {:.3g} us at {} MHz\n", res.cycles, res.seconds * 1e6,
             a.clock_mhz);
  if (res.input_saturated) fmt::print("warning: some input values were outside the type's range and were saturated\n");
  if (!res.overflowed.empty()) {
    std::string list;
    for (const auto& n : res.overflowed) list += (list.empty() ? "" : ", ") + n;
    fmt::print("warning: overflow flag set on {}\n", list);
  }
  return 0;
}

}  // namespace

void register_run(CLI::App& app) {
  auto args = std::make_shared<RunArgs>();
  auto* cmd = app.add_subcommand("run", "Run a compiled design's memory-mapped kernel on a device (the host runtime)");
  cmd->add_option("out", args->compiled, "Output folder of `compile --rtl`")->required();
  cmd->add_option("--input,-i", args->inputs, "An input tensor: NAME=FILE.npy (float64 or float32, the compiled shape)")
      ->required();
  cmd->add_option("-o,--results", args->results, "Folder for the outputs (<name>.npy) and run.json")->required();
  cmd->add_option("--device", args->device,
                  "verilator (the RTL kernel simulated, device memory included) or xrt (an Alveo card; only in "
                  "builds with XRT)")
      ->capture_default_str();
  cmd->add_option("--mem-latency", args->mem_latency, "verilator: device memory's latency in cycles")
      ->check(CLI::Range(1, 100000))
      ->capture_default_str();
  cmd->add_option("--clock-mhz", args->clock_mhz, "Kernel clock the time is given at")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  cmd->add_flag("-q,--quiet", args->quiet, "No progress lines");
  cmd->callback([args] { run_guarded("run", [args] { return run_run(*args); }); });
}

}  // namespace inrarch::cli
