// The HTML report's cost on the INSP workload: the time `compile` adds for its data file
// (driver::report_data: the event graph rebuilt on the rows analysed, resolved unbounded
// and at the sized depths, the activity binned) and the time and size of the page
// (render_report_html, dot included). The dataflow stage itself is built first, as the
// flow does, and not timed.
//   build/bench_report [--order 2] [--batch 64] [--width 256]
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "autodiff/models.h"
#include "driver/parallelism.h"
#include "driver/report_data.h"
#include "driver/report_html.h"
#include "passes/pipeline.h"

using namespace inrarch;

namespace {

double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

}  // namespace

int main(int argc, char** argv) {
  int order = 2;
  int64_t batch = 64, width = 256;
  for (int i = 1; i + 1 < argc; i += 2) {
    if (!std::strcmp(argv[i], "--order")) order = std::atoi(argv[i + 1]);
    else if (!std::strcmp(argv[i], "--batch")) batch = std::atoll(argv[i + 1]);
    else if (!std::strcmp(argv[i], "--width")) width = std::atoll(argv[i + 1]);
    else { std::fprintf(stderr, "unknown option %s\n", argv[i]); return 1; }
  }
  ir::Bundle b = autodiff::build_insp_bundle(autodiff::insp_siren(batch, width), order, false);
  passes::optimize_bundle(b);
  driver::DataflowPlan plan;
  plan.part = dataflow::find_part("u50");
  plan.budget = dataflow::parse_budget("");
  driver::DataflowResult r = driver::build_dataflow(b.graph, plan);
  std::printf("INSP order %d, batch %lld, width %lld: %zu processes, %zu streams; rows analysed %s\n", order,
              (long long)batch, (long long)width, r.design.processes.size(), r.design.streams.size(),
              r.report["analysis"]["rows_analysed"].dump().c_str());
  auto t0 = std::chrono::steady_clock::now();
  const nlohmann::json data = driver::report_data(r.graph, r.design, driver::report_inputs(r.design, r.analysis, r.sized));
  const double data_s = seconds_since(t0);
  const std::string text = data.dump();
  t0 = std::chrono::steady_clock::now();
  const std::string page = driver::render_report_html(r.report, data, "bench");
  const double page_s = seconds_since(t0);
  std::printf("activity.json: %.2f s, %.0f KB; report.html: %.2f s, %.2f MB\n", data_s, text.size() / 1e3, page_s,
              page.size() / 1e6);
  return 0;
}
