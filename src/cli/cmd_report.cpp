// `inrarch report OUT [-o FILE]`: the compile output's report as one self-contained HTML
// page, OUT/report.html (driver/report_html.h, docs/report_html.md).
#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include "cli/cli.h"
#include "driver/report_html.h"

namespace inrarch::cli {

namespace {

struct ReportArgs {
  std::string out;
  std::string file;
};

int run_report(const ReportArgs& a) {
  const std::filesystem::path written = driver::write_report_html(a.out, a.file);
  fmt::print("wrote {}\n", written.string());
  return 0;
}

}  // namespace

void register_report(CLI::App& app) {
  auto args = std::make_shared<ReportArgs>();
  auto* cmd = app.add_subcommand("report", "Write a compile output's report as one HTML page (OUT/report.html)");
  cmd->add_option("out", args->out, "Compile output folder (with report.json and activity.json)")->required();
  cmd->add_option("-o,--output", args->file, "Write the page here instead of OUT/report.html");
  cmd->callback([args] { run_guarded("report", [args] { return run_report(*args); }); });
}

}  // namespace inrarch::cli
