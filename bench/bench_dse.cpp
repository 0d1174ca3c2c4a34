// The parallelism search on the INSP workload: for each gradient order and part, the
// searched design's latency against the DSP floor, its utilisation of the part, the on-chip
// data bits, and the time of the search and of the whole dataflow stage (search, lowering,
// FIFO sizing, costing: what `compile --no-csim` spends there). --front prints the
// latency-vs-DSP front the search evaluated (the Pareto table in docs/resources.md).
//   build/bench_dse [--orders 1,2,3] [--parts u50,zcu104] [--batch 64] [--width 256]
//                   [--budget dsp=0.8,...] [--front]
#include <sys/resource.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "autodiff/models.h"
#include "driver/parallelism.h"
#include "passes/pipeline.h"

using namespace inrarch;

namespace {

struct Args {
  std::vector<int> orders{1, 2, 3};
  std::vector<std::string> parts{"u50", "zcu104"};
  int64_t batch = 64, width = 256;
  std::string budget;
  bool front = false;
};

std::vector<std::string> split(const char* s) {
  std::vector<std::string> out;
  std::string cur;
  for (const char* p = s;; ++p) {
    if (*p == ',' || *p == '\0') {
      if (!cur.empty()) out.push_back(cur);
      cur.clear();
      if (*p == '\0') return out;
    } else {
      cur += *p;
    }
  }
}

double pct(const nlohmann::json& res, const char* k) { return 100 * res["utilisation"][k].get<double>(); }

void print_front(const nlohmann::json& dse) {
  std::printf("    %12s %12s %6s %8s %6s %s\n", "target", "latency", "DSP", "BRAM18K", "URAM", "fits");
  for (const auto& p : dse["front"])
    std::printf("    %12lld %12lld %6lld %8lld %6lld %s\n", p["target_cycles"].get<long long>(),
                p["latency_cycles"].get<long long>(), p["dsp"].get<long long>(),
                p["bram18k"].get<long long>(), p["uram"].get<long long>(),
                p["fits"].get<bool>() ? "yes" : "no");
}

void run(int order, const std::string& part, const Args& a, const ir::Graph& g) {
  driver::DataflowPlan plan;
  plan.part = dataflow::find_part(part);
  plan.budget = dataflow::parse_budget(a.budget);
  auto t0 = std::chrono::steady_clock::now();
  driver::DataflowResult r = driver::build_dataflow(g, plan);
  double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  const auto& res = r.report["resources"];
  const auto& fl = r.report["floor"];
  std::printf("%5d %-7s %9lld %9lld %6.2f %5.1f %5.1f %5.1f %5.1f %5.1f %-4s %8.2f %8.1f %7.1f\n",
              order, part.c_str(), (long long)r.sized.latency, fl["cycles"].get<long long>(),
              fl["latency_over_floor"].get<double>(), pct(res, "dsp"), pct(res, "bram18k"),
              pct(res, "uram"), pct(res, "lut"), pct(res, "ff"), res["fits"].get<bool>() ? "yes" : "NO",
              res["on_chip_bits"]["total"].get<double>() / 1e6, r.report["dse"]["seconds"].get<double>(),
              secs);
  std::fflush(stdout);
  if (a.front) print_front(r.report["dse"]);
}

}  // namespace

int main(int argc, char** argv) {
  Args a;
  for (int i = 1; i < argc; ++i) {
    auto value = [&] { return i + 1 < argc ? argv[++i] : (std::fprintf(stderr, "%s needs a value\n", argv[i]), std::exit(1), ""); };
    if (!std::strcmp(argv[i], "--orders")) {
      a.orders.clear();
      for (const auto& o : split(value())) a.orders.push_back(std::atoi(o.c_str()));
    } else if (!std::strcmp(argv[i], "--parts")) a.parts = split(value());
    else if (!std::strcmp(argv[i], "--batch")) a.batch = std::atoll(value());
    else if (!std::strcmp(argv[i], "--width")) a.width = std::atoll(value());
    else if (!std::strcmp(argv[i], "--budget")) a.budget = value();
    else if (!std::strcmp(argv[i], "--front")) a.front = true;
    else { std::fprintf(stderr, "unknown option %s\n", argv[i]); return 1; }
  }
  std::printf("INSP batch %lld, width %lld, fixed<32,10>, budget '%s' (default 0.8 of each)\n",
              (long long)a.batch, (long long)a.width, a.budget.c_str());
  std::printf("%5s %-7s %9s %9s %6s %5s %5s %5s %5s %5s %-4s %8s %8s %7s\n", "order", "part",
              "latency", "floor", "ratio", "DSP%", "BRAM%", "URAM%", "LUT%", "FF%", "fits",
              "data Mb", "search s", "total s");
  for (int order : a.orders) {
    ir::Bundle b = autodiff::build_insp_bundle(autodiff::insp_siren(a.batch, a.width), order, false);
    passes::optimize_bundle(b);
    for (const auto& part : a.parts) run(order, part, a, b.graph);
  }
  rusage ru{};
  getrusage(RUSAGE_SELF, &ru);
  std::printf("peak RSS %.0f MB\n", ru.ru_maxrss / 1024.0);
  return 0;
}
