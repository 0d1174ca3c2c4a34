// Dataflow stage benchmark on the INSP workload (README, docs/dataflow.md §8): lowering, event-graph
// analysis and each FIFO sizing method, for gradient order 1 and 2 at batch 64, plus the
// table min vs paper vs unbounded (latency, FIFO bits). Plain main (wall-clock times of
// whole stages matter here, not micro-iterations).
//   build-df/bench_dataflow [--orders 1,2] [--batch 64] [--width 256] [--mm-par 1] [--raw] [--star|--chain]
#include <sys/resource.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "autodiff/models.h"
#include "dataflow/event_graph.h"
#include "dataflow/fifo_sizing.h"
#include "dataflow/lower.h"
#include "dataflow/memory.h"
#include "passes/pipeline.h"

using namespace inrarch;
using namespace inrarch::dataflow;

namespace {

double now() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

double peak_rss_mb() {
  rusage ru{};
  getrusage(RUSAGE_SELF, &ru);
  return ru.ru_maxrss / 1024.0;
}

struct Args {
  std::vector<int> orders{1, 2};
  int64_t batch = 64, width = 256, mm_par = 1, block = 1;
  bool raw = false;  // skip the optimizer
  Fanout fanout = LowerOptions{}.fanout;
};

void run(int order, const Args& a) {
  double t0 = now();
  ir::Graph g = autodiff::build_insp_graph(autodiff::insp_siren(a.batch, a.width), order);
  if (!a.raw) g = passes::run_pipeline(g).graph;
  double t1 = now();
  LowerOptions lo;
  lo.mm_par = a.mm_par;
  lo.block = a.block;
  lo.fanout = a.fanout;
  Design d = lower(g, lo);
  double t2 = now();
  EventGraph eg(d);
  double t3 = now();
  Resolution peak = eg.resolve(std::vector<int64_t>(d.streams.size(), kUnbounded));
  double t4 = now();
  std::vector<int64_t> unb = eg.observed_depths();
  Resolution at2 = eg.resolve(std::vector<int64_t>(d.streams.size(), 2));
  std::printf("INSP order %d, batch %lld, width %lld, mm_par %lld, fanout %s%s\n", order,
              (long long)a.batch, (long long)a.width, (long long)a.mm_par,
              a.fanout == Fanout::Chain ? "chain" : "star", a.raw ? " (raw graph)" : "");
  std::printf("  graph %.2f s | lower %.3f s: %zu processes, %zu streams | event graph build %.3f s:"
              " %lld events, %lld FIFO ops\n", t1 - t0, t2 - t1, d.processes.size(),
              d.streams.size(), t3 - t2, (long long)eg.events(), (long long)eg.fifo_ops());
  std::printf("  resolve %.3f s (%.1f M FIFO ops/s): peak latency %lld; all depth 2: %s\n",
              t4 - t3, eg.fifo_ops() / (t4 - t3) / 1e6, (long long)peak.latency,
              at2.deadlock ? "deadlock" : std::to_string(at2.latency).c_str());
  MemoryReport mu = memory(d, [&] {
    std::vector<int64_t> v;
    for (int64_t o : unb) v.push_back(std::max<int64_t>(o, 2));
    return v;
  }());
  std::printf("  %-10s %12s %14s %9s %12s %9s %8s\n", "method", "latency", "FIFO bits", "BRAM18K",
              "total depth", "resolves", "time s");
  std::printf("  %-10s %12lld %14lld %9lld %12lld %9s %8s\n", "unbounded", (long long)peak.latency,
              (long long)mu.fifo_bits, (long long)mu.bram18k, (long long)mu.total_depth, "-", "-");
  for (FifoMethod m : {FifoMethod::Paper, FifoMethod::Min}) {
    SizingOptions so;
    so.method = m;
    if (std::getenv("BENCH_PROGRESS"))
      so.progress = [](const std::string& line) { std::fprintf(stderr, "%s\n", line.c_str()); };
    SizingResult s = size_fifos(eg, so);
    std::printf("  %-10s %12lld %14lld %9lld %12lld %9lld %8.2f\n", method_name(m),
                (long long)s.latency, (long long)s.memory.fifo_bits, (long long)s.memory.bram18k,
                (long long)s.memory.total_depth, (long long)s.resolves, s.seconds);
    std::fflush(stdout);
  }
  std::printf("  kernel buffers %lld bits, ROM %lld bits; total %.2f s; peak RSS %.0f MB\n\n",
              (long long)mu.kernel_buffer_bits, (long long)mu.rom_bits, now() - t0, peak_rss_mb());
}

}  // namespace

int main(int argc, char** argv) {
  Args a;
  for (int i = 1; i < argc; ++i) {
    std::string k = argv[i];
    auto next = [&] { return i + 1 < argc ? std::string(argv[++i]) : std::string(); };
    if (k == "--orders") {
      a.orders.clear();
      std::string v = next();
      for (char c : v) if (c >= '0' && c <= '9') a.orders.push_back(c - '0');
    } else if (k == "--batch") a.batch = std::stoll(next());
    else if (k == "--width") a.width = std::stoll(next());
    else if (k == "--mm-par") a.mm_par = std::stoll(next());
    else if (k == "--block") a.block = std::stoll(next());
    else if (k == "--raw") a.raw = true;
    else if (k == "--chain") a.fanout = Fanout::Chain;
    else if (k == "--star") a.fanout = Fanout::Star;
    else { std::fprintf(stderr, "unknown argument %s\n", argv[i]); return 2; }
  }
  for (int o : a.orders) run(o, a);
  return 0;
}
