// run_kernel: the memory-mapped kernel of an emitted RTL folder under its Verilator
// testbench (docs/deploy.md §4), as `compile --rtl --kernel-sim` runs it: once under random
// memory latency and back-pressure with two back-to-back runs, checked bit for bit against
// the C simulation with the register map's checks; once at a fixed memory latency, whose
// cycles (start to done, the transfers included) are the end-to-end figure.
#pragma once

#include <nlohmann/json_fwd.hpp>

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

namespace inrarch::rtl {

struct KernelRun {
  bool pass = false;          // built, no hang, no AXI or protocol error, registers and bits right
  std::string error;          // why it did not run (a failed build), else empty
  bool bit_exact = false, registers_ok = false, hang = false, axi_error = false;
  int64_t protocol_errors = 0;
  std::vector<int64_t> runs;  // the random-latency session's cycles per run
  int mem_latency = 40;       // of the fixed-latency run
  int64_t cycles = -1;        // the fixed-latency run's cycles
};

KernelRun run_kernel(const std::filesystem::path& rtl_dir, double budget_s, int mem_latency = 40);
nlohmann::json to_json(const KernelRun& r);

}  // namespace inrarch::rtl
