// The HLS C++ backend (docs/hls.md): emits a Vitis-HLS project for a dataflow
// design and verifies it by C simulation with g++ (no Vitis needed).
//
//   emit_hls         writes OUT/hls/: model.h/.cpp (top, #pragma HLS dataflow), weights.h
//                    (constant operands as ROM arrays), testbench.cpp, sim_main.cpp (the
//                    simulation driver's tables), run_hls.tcl, Makefile, data/*.bin, include/ (the
//                    kernel library and compat headers, so the folder stands alone).
//   run_simulations  builds model.cpp with the driver (make sim) and runs three modes: sequential
//                    csim, threaded csim (cooperative processes, bounded FIFOs, an exact
//                    deadlock verdict), trace check against dataflow::schedule. Returns
//                    their verdicts, typed (verdict.h).
//   parse_csynth_report  reads Vitis's csynth.xml.
#pragma once

#include <filesystem>
#include <optional>
#include <utility>
#include <functional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "backend/hls/verdict.h"
#include "dataflow/design.h"
#include "ir/bundle.h"
#include "ir/interpreter.h"

namespace inrarch::hls {

struct NumberType {
  enum Kind { Float, Double, Fixed } kind = Fixed;
  int width = 32, int_bits = 10;  // Fixed only
  std::string cpp() const;        // "ap_fixed<32,10>", "float", "double"
  std::string name() const;       // "fixed<32,10>", "float", "double"
};
// "float" | "double" | "fixed<W,I>" (also "ap_fixed<W,I>"); throws inrarch::Error.
NumberType parse_number_type(const std::string& s);

// Where the kernel library (the headers every project copies into include/) lives, relative
// to the folder of the binary or its parent: CMakeLists.txt installs it there and links
// the build folder's copy to the sources.
inline constexpr const char* kLibraryRelative = "share/inrarch/hls/include";

struct HlsOptions {
  NumberType type;                       // default fixed<32,10>, the paper's
  std::string top = "model_top";
  std::string part = "xcu50-fsvh2104-2-e";
  double clock_ns = 3.33;
  double abs_tol = 1e-3;                 // PASS bound for fixed types (max scaled error, tb_util.h)
  double rel_tol = 1e-4;                 // PASS bound for float/double (max rel error)
  bool pow2_scaling = true;              // fixed point: per-stream exponents (scaling.h)
  std::filesystem::path include_dir;     // kernel library; empty: kLibraryRelative beside the tool
  // The batch when the design's samples are independent (passes/rebatch.h's graph_rows):
  // the project then streams any number of samples, the top's `rows` argument; 0: the
  // arrays are streamed whole, as one sample.
  int64_t rows = 0;
  // How the value ranges of the scaling are evaluated (empty: ir::evaluate_visit); the
  // flow passes one that goes through a large batch a block of rows at a time.
  ir::VisitEvaluator evaluate;
  // Fixed point: the range [lo, hi] every input value may take. The exponents are then
  // chosen on samples of that box (scaling.h calibration_bundle), not on the bundle's
  // inputs, which become test data like any other.
  std::optional<std::pair<double, double>> input_range;
};

// Writes the project into out_hls_dir (created; existing files overwritten). Inputs,
// params and golden outputs come from the bundle (golden: its reference when it has every
// output, else the reference interpreter).
// Throws inrarch::Error for a design it cannot emit (custom processes, a constant operand
// of a data-movement kernel).
// `used`, when given, receives the exponents the code was emitted with (scaling.h).
struct Scaling;
void emit_hls(const dataflow::Design& d, const ir::Bundle& b, const HlsOptions& opt,
              const std::filesystem::path& out_hls_dir, Scaling* used = nullptr);

struct SimOptions {
  bool sequential = true, threaded = true, trace = true;
  bool project = false;  // also the shipped project's own `make csim` run (run_project_csim)
  // Per mode: past it the driver stops itself and the verdict says `out_of_time`; a
  // driver that does not stop is killed a little later.
  double budget_s = 600;
  std::string cxx = "g++";
  std::string cxxflags = "-O1";
  // Samples to stream (--rows of the driver; the data files must hold them); 0: the batch
  // the project was emitted with. The trace is checked against the schedules of the
  // design given to run_simulations, which must be lowered at this many rows.
  int64_t rows = 0;
  std::function<void(const std::string&)> progress;  // a line per step (build, each mode)
};

// Builds (make sim) and runs the emitted top with the simulation driver in out_hls_dir
// (emit_hls first): the modes `sim` asks for, each with its verdict (verdict.h; a mode not
// run is absent). Logs go to out_hls_dir/sim/*.log. Throws inrarch::Error when the code
// does not compile.
SimVerdicts run_simulations(const dataflow::Design& d, const std::filesystem::path& out_hls_dir,
                            const HlsOptions& opt, const SimOptions& sim = {});

// The shipped project's own C simulation (`make csim`, then `./csim data [rows]`) in
// out_hls_dir. Logs in sim/.
ProjectRun run_project_csim(const std::filesystem::path& out_hls_dir, const SimOptions& sim);

// Compares a recorded trace (the driver's format, see sim.cpp) with the schedule of every
// process.
TraceCheck check_trace(const dataflow::Design& d, const std::filesystem::path& trace_file);

// ---- precision sweep -------------------------------------------------------------------
struct SweepRow {
  NumberType type;
  double max_abs_error = 0, max_rel_error = 0;
  double max_scaled_error = 0;  // what a fixed type is judged by (tb_util.h errors)
  bool completed = false;
};
struct SweepOptions {
  bool pow2_scaling = true;                          // HlsOptions::pow2_scaling of every run
  std::optional<std::pair<double, double>> input_range;  // HlsOptions::input_range of every run
  std::function<void(const std::string&)> progress;  // a line per type
};
// Emits the design once per type into work_dir/<type> and runs the sequential csim of each;
// the error is against the reference interpreter (double). Used by `inrarch precision-sweep`.
std::vector<SweepRow> precision_sweep(const dataflow::Design& d, const ir::Bundle& b,
                                      const std::vector<NumberType>& types,
                                      const std::filesystem::path& work_dir,
                                      const SweepOptions& so = {});
std::string sweep_csv(const std::vector<SweepRow>& rows);

// ---- Vitis csynth report ---------------------------------------------------------------
struct CsynthModule {
  std::string name;
  int64_t latency_best = -1, latency_worst = -1, interval = -1;  // cycles
  int64_t bram18k = 0, dsp = 0, ff = 0, lut = 0, uram = 0;
};
struct CsynthReport {
  std::string top, part, version;
  double target_clock_ns = 0, estimated_clock_ns = 0;
  CsynthModule total;                  // the top
  std::vector<CsynthModule> modules;   // sub-modules, as listed
  int64_t avail_bram18k = 0, avail_dsp = 0, avail_ff = 0, avail_lut = 0;
};
CsynthReport parse_csynth_report(const std::filesystem::path& xml);  // throws inrarch::Error
std::string format_csynth_report(const CsynthReport& r);             // a text table
nlohmann::json csynth_json(const CsynthReport& r);

}  // namespace inrarch::hls
