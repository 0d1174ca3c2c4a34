// The RTL stage of the compile flow (docs/rtl.md): OUT/rtl from the design, with the HLS
// emitter's number type and power-of-two exponents, so the RTL computes the C simulation's
// bits; run with Verilator when asked.
#pragma once

#include <filesystem>

#include <nlohmann/json.hpp>

#include "backend/hls/hls.h"
#include "backend/rtl/rtl.h"

namespace inrarch::driver {

// The RTL options matching an HLS emission with `ho` (its type and exponents; hls::emit_hls
// chooses them the same way). Throws inrarch::Error for a type other than fixed point.
rtl::RtlOptions rtl_options(const dataflow::Design& d, const ir::Bundle& b, const hls::HlsOptions& ho);

// emit_rtl into out/rtl (the HLS project in out/hls) and, with `simulate`, run_rtl on it.
// Returns report.json's `rtl` section and, when simulated, `verification.rtl` in "run".
nlohmann::json rtl_stage(const dataflow::Design& d, const ir::Bundle& b, const hls::HlsOptions& ho,
                         const std::filesystem::path& out, bool simulate, double budget_s);

}  // namespace inrarch::driver
