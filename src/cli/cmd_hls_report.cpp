// `inrarch hls-report FILE [--json]`: reads a Vitis HLS synthesis report (csynth.xml) and
// prints latency, interval and resources of the top and of each module.
#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include "backend/hls/hls.h"
#include "cli/cli.h"
#include "ir/json_text.h"

namespace inrarch::cli {

namespace {

struct HlsReportArgs {
  std::string file;
  bool json = false;
};

int run_hls_report(const HlsReportArgs& a) {
  hls::CsynthReport r = hls::parse_csynth_report(a.file);
  if (a.json) fmt::print("{}\n", ir::dump_json(hls::csynth_json(r), 2, a.file));
  else fmt::print("{}", hls::format_csynth_report(r));
  return 0;
}

}  // namespace

void register_hls_report(CLI::App& app) {
  auto args = std::make_shared<HlsReportArgs>();
  auto* cmd = app.add_subcommand("hls-report", "Summarize a Vitis HLS csynth.xml report");
  cmd->add_option("file", args->file, "csynth.xml (solution/syn/report/)")->required();
  cmd->add_flag("--json", args->json, "Print JSON");
  cmd->callback([args] { run_guarded("hls-report", [args] { return run_hls_report(*args); }); });
}

}  // namespace inrarch::cli
