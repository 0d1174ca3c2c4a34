// `inrarch synth OUT`: Yosys's synth_xilinx of the RTL that `compile --rtl` wrote in OUT/rtl,
// per kernel instance class or flattened (docs/rtl.md §5); prints its resources beside the
// model's estimate, per kind and in total (per class too: synth_model.cpp), and adds them to
// OUT/report.json as resources_synth; per class, also the netlist's timing estimate
// (report.json's timing).
#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include "backend/rtl/rtl.h"
#include "cli/cli.h"
#include "support/error.h"
#include "support/files.h"

namespace inrarch::cli {

namespace {

struct SynthArgs {
  rtl::SynthOptions opt;
  std::string out;
  bool whole = false;
};

const char* const kKeys[] = {"lut", "ff", "dsp", "bram18k", "uram"};

std::string cell(const nlohmann::json& j, const char* k) {
  return j.is_object() && j.contains(k) ? j[k].dump() : "-";
}

// One line: the kind, then Yosys's and the model's count of each resource.
void print_row(const std::string& kind, const nlohmann::json& syn, const nlohmann::json& model) {
  std::string line = fmt::format("{:<10}", kind);
  for (const char* k : kKeys) line += fmt::format(" {:>9} {:>9}", cell(syn, k), cell(model, k));
  fmt::print("{}\n", line);
}

void print_table(const nlohmann::json& syn, const nlohmann::json& resources) {
  const nlohmann::json none;
  const nlohmann::json& by_kind = resources.is_object() && resources.contains("by_kind") ? resources["by_kind"] : none;
  std::string head = fmt::format("{:<10}", "");
  for (const char* k : kKeys) head += fmt::format(" {:>9} {:>9}", std::string(k) + ":yosys", "model");
  fmt::print("{}\n", head);
  for (const auto& [kind, cells] : syn["by_kind"].items())
    print_row(kind, cells, by_kind.is_object() && by_kind.contains(kind) ? by_kind[kind] : none);
  print_row("total", syn, resources.is_object() ? resources.value("total", none) : none);
  fmt::print("({}; {} s", syn["tool"].get<std::string>(), fmt::format("{:.1f}", syn["seconds"].get<double>()));
  if (syn["method"] == "per-class")
    fmt::print("; {} classes for {} instances, {} cached", syn["classes"].get<int64_t>(), syn["instances"].get<int64_t>(),
               syn["cached"].get<int64_t>());
  fmt::print(")\n");
  if (syn.value("partial", false))
    fmt::print("(only the classes matching --classes '{}': the totals above are theirs, not the design's)\n",
               syn["selected"].get<std::string>());
}

int run_synth(SynthArgs& a) {
  namespace fs = std::filesystem;
  const fs::path out(a.out), report = out / "report.json";
  if (!fs::exists(out / "rtl" / "Makefile"))
    throw Error("synth: " + (out / "rtl").string() + " has no RTL; run `inrarch compile ... --rtl` first");
  if (a.whole) a.opt.method = "flattened";
  nlohmann::json syn = rtl::synthesize_design(out / "rtl", a.opt);
  nlohmann::json r = fs::exists(report) ? nlohmann::json::parse(read_file(report)) : nlohmann::json::object();
  const nlohmann::json resources = r.value("resources", nlohmann::json());
  print_table(syn, resources);
  if (syn["method"] == "per-class") {
    syn["against_model"] = rtl::compare_classes(syn, resources.value("by_name", nlohmann::json()));
    fmt::print("\n{}", rtl::format_class_comparison(syn["against_model"]));
  }
  const nlohmann::json timing = syn.contains("timing") ? syn["timing"] : nlohmann::json();
  syn.erase("timing");
  if (timing.is_object()) fmt::print("\n{}", rtl::format_timing_table(timing));
  else fmt::print("(no timing estimate: it is made per class; --method per-class)\n");
  if (fs::exists(report)) {
    r["resources_synth"] = syn;
    if (timing.is_object()) r["timing"] = timing;
    write_file_atomic(report, r.dump(2) + "\n");
  }
  return 0;
}

}  // namespace

void register_synth(CLI::App& app) {
  auto args = std::make_shared<SynthArgs>();
  auto* cmd = app.add_subcommand("synth", "Synthesize OUT/rtl with Yosys (synth_xilinx, UltraScale+); resources beside the model's");
  cmd->add_option("out", args->out, "Output folder of `compile --rtl`")->required();
  cmd->add_option("--method", args->opt.method,
                  "auto (flattened up to 8 kernel instances, else per-class), flattened or per-class")
      ->capture_default_str();
  cmd->add_flag("--whole", args->whole, "Same as --method flattened: the whole top, flattened");
  cmd->add_option("--jobs", args->opt.jobs, "Classes synthesized at once (0: the machine's cores)")->capture_default_str();
  cmd->add_option("--class-timeout", args->opt.class_timeout_s, "Seconds one class's Yosys may run")->capture_default_str();
  cmd->add_option("--budget", args->opt.budget_s, "Seconds the flattened Yosys may run")->capture_default_str();
  cmd->add_option("--classes", args->opt.classes,
                  "Synthesize only the classes whose key (\"inrarch_mm P=V ...\", \"top inrarch_top\") matches this "
                  "regular expression; implies --method per-class");
  cmd->add_option("--clock-mhz", args->opt.timing.clock_mhz, "Clock the timing estimate checks each class against")
      ->capture_default_str();
  cmd->add_option("--route-ns", args->opt.timing.route_ns, "Assumed routing delay per net of the timing estimate")
      ->capture_default_str();
  cmd->add_flag("--exact-roms", args->opt.exact_roms,
                "A class per ROM contents, not only per ROM depth (the counts of an unflattened synthesis)");
  cmd->callback([args] { run_guarded("synth", [args] { return run_synth(*args); }); });
}

}  // namespace inrarch::cli
