// Designs for any number of rows (dataflow/periodic.h), on INSP:
//   1. agreement: the dataflow stage analyses and sizes a prefix of the rows; the design it
//      returns is then resolved beat by beat over the whole batch at the sized depths. The
//      closed-form latency must equal the full resolve's, and the design must be
//      deadlock-free there; the peak is compared with the full unbounded resolve.
//   2. cost: `compile --no-csim` (in a child process) against the batch: seconds and peak
//      memory, and the latency it reports.
//   build/bench_rows [--orders 1,2] [--batches 64,256,1024] [--compile-batches 64,...,65536]
//                    [--compile-orders 1,2] [--width 256]
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "autodiff/models.h"
#include "dataflow/event_graph.h"
#include "driver/flow.h"
#include "driver/parallelism.h"
#include "passes/pipeline.h"

using namespace inrarch;

namespace {

struct Args {
  std::vector<int64_t> orders{1, 2}, batches{64, 256, 1024};
  std::vector<int64_t> compile_orders{1, 2}, compile_batches{64, 256, 1024, 4096, 16384, 65536};
  int64_t width = 256;
};

std::vector<int64_t> ints(const char* s) {
  std::vector<int64_t> out;
  for (const char* p = s; *p;) {
    char* end = nullptr;
    out.push_back(std::strtoll(p, &end, 10));
    p = *end == ',' ? end + 1 : end;
    if (end == p && *p) break;
  }
  return out;
}

double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

void agreement_row(int order, int64_t batch, int64_t width, bool search) {
  ir::Bundle b = autodiff::build_insp_bundle(autodiff::insp_siren(batch, width), order, false);
  passes::optimize_bundle(b);
  driver::DataflowPlan plan;
  plan.dse = search;
  plan.merge = search ? 0 : 1;
  plan.part = dataflow::find_part("u50");
  auto t0 = std::chrono::steady_clock::now();
  driver::DataflowResult r = driver::build_dataflow(b.graph, plan);
  double prefix_s = seconds_since(t0);
  const auto& an = r.report["analysis"];
  t0 = std::chrono::steady_clock::now();
  dataflow::EventGraph eg(r.design);
  dataflow::Resolution full = eg.resolve(r.sized.depths);
  dataflow::Resolution unbounded =
      eg.resolve(std::vector<int64_t>(r.design.streams.size(), dataflow::kUnbounded));
  double full_s = seconds_since(t0);
  bool same = !full.deadlock && full.latency == r.sized.latency;
  std::printf("%5d %6lld %-8s %4lld %8lld %9lld %11lld %11lld %-5s %11lld %11lld %7.3f%% %7.2f %7.2f\n",
              order, (long long)batch, search ? "searched" : "P=1",
              (long long)an["rows_analysed"].get<int64_t>(),
              (long long)an.value("period_cycles", nlohmann::json(0)).get<int64_t>(),
              (long long)an.value("fill_cycles", nlohmann::json(0)).get<int64_t>(),
              (long long)r.sized.latency, (long long)full.latency, same ? "yes" : "NO",
              (long long)r.sized.peak_latency, (long long)unbounded.latency,
              100.0 * double(r.sized.peak_latency - unbounded.latency) / double(unbounded.latency),
              prefix_s, full_s);
  std::fflush(stdout);
}

// Runs `compile --builtin insp --no-csim` in a child; prints seconds, peak RSS, latency.
void compile_row(int order, int64_t batch, int64_t width) {
  std::string out = "/tmp/bench_rows_" + std::to_string(getpid());
  auto t0 = std::chrono::steady_clock::now();
  pid_t pid = fork();
  if (pid == 0) {
    driver::CompileOptions o;
    o.builtin_insp = autodiff::insp_siren(batch, width);
    o.builtin_order = order;
    o.out_dir = out;
    o.csim = false;
    try {
      driver::compile(o);
    } catch (const std::exception& e) {
      std::fprintf(stderr, "compile failed: %s\n", e.what());
      _exit(1);
    }
    _exit(0);
  }
  int status = 0;
  rusage ru{};
  wait4(pid, &status, 0, &ru);
  double s = seconds_since(t0);
  long long latency = -1;
  if (std::ifstream in{out + "/report.json"}) latency = nlohmann::json::parse(in)["fifo"]["latency_cycles"].get<long long>();
  std::printf("%5d %7lld %9.1f %9.0f %13lld %s\n", order, (long long)batch, s, ru.ru_maxrss / 1024.0,
              latency, WIFEXITED(status) && WEXITSTATUS(status) == 0 ? "" : "FAILED");
  std::fflush(stdout);
  std::system(("rm -rf " + out).c_str());
}

}  // namespace

int main(int argc, char** argv) {
  Args a;
  for (int i = 1; i + 1 < argc; i += 2) {
    if (!std::strcmp(argv[i], "--orders")) a.orders = ints(argv[i + 1]);
    else if (!std::strcmp(argv[i], "--batches")) a.batches = ints(argv[i + 1]);
    else if (!std::strcmp(argv[i], "--compile-orders")) a.compile_orders = ints(argv[i + 1]);
    else if (!std::strcmp(argv[i], "--compile-batches")) a.compile_batches = ints(argv[i + 1]);
    else if (!std::strcmp(argv[i], "--width")) a.width = std::strtoll(argv[i + 1], nullptr, 10);
    else { std::fprintf(stderr, "unknown option %s\n", argv[i]); return 2; }
  }
  std::printf("prefix analysis vs the full event graph (INSP, width %lld, U50)\n", (long long)a.width);
  std::printf("%5s %6s %-8s %4s %8s %9s %11s %11s %-5s %11s %11s %8s %7s %7s\n", "order", "batch",
              "design", "k", "period", "fill", "closed", "full", "same", "peak", "unbounded",
              "peak d", "stage s", "full s");
  for (int64_t order : a.orders)
    for (int64_t batch : a.batches)
      for (bool search : {false, true}) agreement_row(int(order), batch, a.width, search);
  if (a.compile_batches.empty()) return 0;
  std::printf("\ncompile --no-csim against the batch (INSP, width %lld, U50)\n", (long long)a.width);
  std::printf("%5s %7s %9s %9s %13s\n", "order", "batch", "seconds", "peak MB", "latency");
  for (int64_t order : a.compile_orders)
    for (int64_t batch : a.compile_batches) compile_row(int(order), batch, a.width);
  return 0;
}
