// The RTL stage of the compile flow (docs/rtl.md): OUT/rtl from the design, with the HLS
// emitter's number type and power-of-two exponents, so the RTL computes the C simulation's
// bits; run with Verilator when asked.
#pragma once

#include <filesystem>

#include <optional>
#include <string>

#include "backend/hls/hls.h"
#include "backend/rtl/kernel_interface.h"
#include "backend/rtl/rtl.h"

namespace inrarch::driver {

// The RTL options matching an HLS emission with `ho` (its type and exponents; hls::emit_hls
// chooses them the same way). Throws inrarch::Error for a type other than fixed point.
rtl::RtlOptions rtl_options(const dataflow::Design& d, const ir::Bundle& b, const hls::HlsOptions& ho);

// compile --rtl's Verilator run by default: when rtl::simulation_work is at most this. The
// INSP benchmark's searched designs are 5-6e7 (a run of about 13 s here, after a build of
// minutes); --no-dse at batch 64 is 3.3e8; at batch 65,536, width 64, it is about 2e10.
inline constexpr double kAutoRtlSimWork = 2e9;

// report.json's `interface` (docs/deploy.md) sets the bandwidth a run needs beside the
// Alveo U50's HBM (8 GB HBM2, 316 GB/s in its product brief).
inline constexpr double kU50HbmGbs = 316;

// What the RTL stage wrote and, when it simulated, found.
struct RtlStageResult {
  std::string folder = "rtl";  // under OUT
  std::string top;             // the top module
  rtl::KernelInterface kernel;  // the memory-mapped kernel's buffers and registers
  std::optional<rtl::RtlRun> run;
};

// emit_rtl into out/rtl (the HLS project in out/hls) and, with `simulate`, run_rtl on it.
RtlStageResult rtl_stage(const dataflow::Design& d, const ir::Bundle& b, const hls::HlsOptions& ho,
                         const std::filesystem::path& out, bool simulate, double budget_s);

}  // namespace inrarch::driver
