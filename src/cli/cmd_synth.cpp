// `inrarch synth OUT`: Yosys's synth_xilinx of the RTL that `compile --rtl` wrote in OUT/rtl;
// prints its resources beside the model's estimate and adds them to OUT/report.json as
// resources_synth (docs/rtl.md).
#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include "backend/rtl/rtl.h"
#include "cli/cli.h"
#include "support/error.h"
#include "support/files.h"

namespace inrarch::cli {

namespace {

struct SynthArgs {
  std::string out;
  double budget_s = 600;
};

int run_synth(const SynthArgs& a) {
  namespace fs = std::filesystem;
  const fs::path out(a.out), report = out / "report.json";
  if (!fs::exists(out / "rtl" / "Makefile"))
    throw Error("synth: " + (out / "rtl").string() + " has no RTL; run `inrarch compile ... --rtl` first");
  nlohmann::json syn = rtl::synthesize(out / "rtl", a.budget_s);
  nlohmann::json r = fs::exists(report) ? nlohmann::json::parse(read_file(report)) : nlohmann::json::object();
  const nlohmann::json model = r.contains("resources") ? r["resources"].value("total", nlohmann::json()) : nlohmann::json();
  fmt::print("{:<8} {:>10} {:>10}\n", "", "yosys", "model");
  for (const char* k : {"lut", "ff", "dsp", "bram18k", "uram"})
    fmt::print("{:<8} {:>10} {:>10}\n", k, syn[k].get<int64_t>(), model.contains(k) ? model[k].dump() : "-");
  fmt::print("({}, {:.1f} s)\n", syn["tool"].get<std::string>(), syn["seconds"].get<double>());
  if (fs::exists(report)) {
    r["resources_synth"] = syn;
    write_file_atomic(report, r.dump(2) + "\n");
  }
  return 0;
}

}  // namespace

void register_synth(CLI::App& app) {
  auto args = std::make_shared<SynthArgs>();
  auto* cmd = app.add_subcommand("synth", "Synthesize OUT/rtl with Yosys (synth_xilinx, UltraScale+); resources beside the model's");
  cmd->add_option("out", args->out, "Output folder of `compile --rtl`")->required();
  cmd->add_option("--budget", args->budget_s, "Seconds Yosys may run")->capture_default_str();
  cmd->callback([args] { run_guarded("synth", [args] { return run_synth(*args); }); });
}

}  // namespace inrarch::cli
