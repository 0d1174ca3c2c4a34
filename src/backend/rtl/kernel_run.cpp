// run_kernel: `make kernel-sim` twice (random latency with two runs; a fixed latency).
#include "backend/rtl/kernel_run.h"

#include <fmt/format.h>

#include "backend/rtl/rtl_detail.h"

namespace inrarch::rtl {

namespace {

// The random session of docs/deploy.md §4: latencies 2 to 80 cycles, a fifth of the
// readies and beats withheld, two runs back to back.
constexpr const char* kRandomSession = "--runs 2 --lat-min 2 --lat-max 80 --stall 0.2 --seed 1";

}  // namespace

KernelRun run_kernel(const std::filesystem::path& dir, double budget_s, int mem_latency) {
  KernelRun r;
  r.mem_latency = mem_latency;
  if (!detail::make(dir, "obj_kernel/Vkernel", "kernel_build.log", budget_s)) {
    r.error = "the kernel's testbench did not build: see logs/kernel_build.log";
    return r;
  }
  detail::make(dir, "kernel-sim", "kernel_sim.log", budget_s, fmt::format("KERNEL_SIM_FLAGS='{}'", kRandomSession));
  const nlohmann::json j = detail::last_json(dir / "logs" / "kernel_sim.log");
  if (j.empty()) {
    r.error = "the kernel's testbench printed no result: see logs/kernel_sim.log";
    return r;
  }
  r.hang = j.value("hang", true);
  r.axi_error = j.value("axi_error", false);
  r.protocol_errors = j.value("protocol_errors", 0);
  r.bit_exact = j.value("bit_exact", false);
  r.registers_ok = j.value("registers_ok", false);
  for (const auto& c : j.value("runs", nlohmann::json::array())) r.runs.push_back(c.get<int64_t>());
  detail::make(dir, "kernel-sim", "kernel_sim_fixed.log", budget_s,
               fmt::format("KERNEL_SIM_FLAGS='--lat-min {0} --lat-max {0}'", mem_latency));
  const nlohmann::json f = detail::last_json(dir / "logs" / "kernel_sim_fixed.log");
  if (!f.empty() && !f.value("runs", nlohmann::json::array()).empty()) r.cycles = f["runs"][0].get<int64_t>();
  r.pass = !r.hang && !r.axi_error && r.protocol_errors == 0 && r.bit_exact && r.registers_ok && r.runs.size() == 2 &&
           r.cycles > 0 && f.value("bit_exact", false);
  return r;
}

nlohmann::json to_json(const KernelRun& r) {
  nlohmann::json j = {{"pass", r.pass},       {"bit_exact", r.bit_exact},   {"registers_ok", r.registers_ok},
                      {"hang", r.hang},       {"axi_error", r.axi_error},   {"protocol_errors", r.protocol_errors},
                      {"runs", r.runs},       {"session", kRandomSession},  {"mem_latency", r.mem_latency},
                      {"cycles", r.cycles >= 0 ? nlohmann::json(r.cycles) : nlohmann::json(nullptr)}};
  if (!r.error.empty()) j["error"] = r.error;
  return j;
}

}  // namespace inrarch::rtl
