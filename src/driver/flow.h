// The whole compile flow behind `inrarch compile`: front end → passes → dataflow →
// backends → verification, writing an output folder with report.json. Stages append their
// sections to the report (documented in docs/report.md).
#pragma once

#include <filesystem>
#include <functional>
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "autodiff/models.h"
#include "driver/compile_result.h"

namespace inrarch::driver {

struct CompileOptions {
  // Exactly one source: a bundle folder or a built-in model.
  std::filesystem::path bundle_dir;
  std::optional<autodiff::SirenSpec> builtin_insp;
  int builtin_order = 1;
  autodiff::DerivativeMode builtin_mode = autodiff::DerivativeMode::Reverse;
  nlohmann::json builtin_mode_choice;  // report source.mode_choice, when the rule chose the mode

  std::filesystem::path out_dir;
  bool optimize = true;            // run the default pass pipeline
  // Elements per stream beat; none: searched with the parallelism (--block auto), 1 when
  // the search is off (--no-dse, --mm-par). A plan gives its own.
  std::optional<int64_t> block;
  int64_t mm_par = 1;              // parallel MACs per mm (every mm, when dse is off)
  bool dse = true;                 // search each mm's parallelism under the budget
  int64_t merge = 0;               // products sharing a weight per kernel: 0 searched, 1 never
  // A plan (driver/plan.h, e.g. an earlier OUT/plan.json) instead of the search: its merge and
  // every mm's MACs. Every compile writes the plan it compiled to OUT/plan.json.
  std::filesystem::path plan_file;
  bool verify_design = false;      // dataflow::verify after every back-half step (a debugging aid)
  std::string part = "u50";        // target part (dataflow/part.h)
  std::string budget;              // "dsp=0.8,bram=0.8,..." (empty: 0.8 of everything)
  bool allow_over_budget = false;  // else a design over the budget ends the flow (driver/budget.h)
  std::string fifo_method = "min";  // none | paper | min
  double alpha = 0.01;
  bool exact = false;              // analyse every beat of the batch, not a prefix of rows
  bool emit_mlir = true;
  bool emit_hls = true;
  std::string number_type = "fixed<32,10>";  // float | double | fixed<W,I>
  double max_error = 0;  // > 0: the narrowest fixed<W,I> (W <= number_type's) within it
  // Fixed point: an mm's constant B (its weights) in N-bit ROM words with the type's binary
  // point (0: the type's width). With max_error, the narrowest the search tries is 18 and it
  // may choose narrower weights than the streams (docs/hls.md, "Narrow weights").
  int weight_bits = 0;
  bool pow2_scaling = true;                  // fixed point: per-stream power-of-two exponents
  // Fixed point: the range of every input value the exponents are chosen for (default:
  // the bundle's own inputs).
  std::optional<std::pair<double, double>> input_range;
  bool csim = true;                          // run the three C simulations of the HLS code
  double sim_budget_s = 600;                 // per simulation; past it the verdict is out_of_time
  // OUT/rtl (docs/rtl.md; needs the HLS project), and its Verilator run (verification.rtl):
  // true or false as asked, unset when the design is small enough (kAutoRtlSimWork).
  bool emit_rtl = false;
  std::optional<bool> rtl_sim;
  // With emit_rtl: also run the memory-mapped kernel's testbench (docs/deploy.md §4):
  // verification.kernel, interface.kernel_cycles.
  bool kernel_sim = false;
  // Receives one line per step (the caller prefixes and prints it); none: silent.
  std::function<void(const std::string&)> progress;
};

// Runs the flow and writes `out_dir` atomically (staged in a sibling folder, renamed at the
// end): on error nothing is left that looks like a finished output. report.json is the
// result's serialisation (CompileResult::to_json).
CompileResult compile(const CompileOptions& opts);

}  // namespace inrarch::driver
