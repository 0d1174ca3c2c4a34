// The SystemVerilog backend (docs/rtl.md): RTL kernels that perform exactly the FIFO
// operations of their dataflow schedules, so that a Verilator run takes the event graph's
// latency to the cycle, and compute exactly the HLS kernels' fixed-point bits.
//
//   emit_rtl       writes OUT/rtl/: one module per kernel kind (inrarch_*.sv), the FIFO, a
//                  generated top (<top>.sv) wiring them with FIFOs at the design's depths,
//                  a Verilator testbench (tb_main.cpp), the C program that records the HLS
//                  C simulation's output bits (csim_dump.cpp), input data and a Makefile.
//   run_rtl        lints, builds and runs it with Verilator (and parses it with Icarus and
//                  Yosys when asked); returns what it found, typed (rtl_run.h).
//   check_rtl_trace  compares a run's recorded FIFO operations with the schedules and, for
//                  a run without stalls, with the event graph's times.
//   synthesize     Yosys's synth_xilinx of the top: LUT, FF, DSP, BRAM18K, URAM;
//                  synthesize_classes per kernel instance class (synth_classes.cpp).
//
// This slice supports sources and sinks of inputs/outputs, constant outputs (a .hex ROM),
// copies, the elementwise add, sub, mul, div (streamed, splat or ROM operands), neg, relu,
// step, sin, cos, exp, tanh and log, sum and the other gathers (any blocks, constant
// operands), transposes and permutes of any rank and blocks, and mm with any MACs of a
// streamed A and a constant B (a .hex ROM), of a constant A and a streamed B, or of a
// streamed A and B, for fixed<W,I> with W <= 32; any other process is an
// inrarch::Error naming its kernel kind or op, before a file is written.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "backend/rtl/rtl_run.h"
#include "backend/rtl/timing.h"
#include "dataflow/design.h"
#include "ir/bundle.h"

namespace inrarch::rtl {

// The kernel library's SystemVerilog modules, relative to the tool's folder or its parent
// (installed: P/share/inrarch/rtl; in the build folder: a link to src/backend/rtl/sv).
inline constexpr const char* kLibraryRelative = "share/inrarch/rtl";

struct RtlOptions {
  // The number type ap_fixed<width, int_bits> (the HLS backend's NumberType, fixed only).
  int width = 32, int_bits = 10;
  // The HLS emitter's power-of-two exponents (hls::Scaling): per stream (stored = value *
  // 2^k) and per process and operand slot. Empty: all 0.
  std::vector<int> stream_exp;
  std::vector<std::vector<int>> operand_exp;
  std::string top = "inrarch_top";
  // The HLS project (emit_hls) whose C simulation gives the expected bits, relative to the
  // rtl folder or absolute, and its top function. Empty: the bits are not compared.
  std::filesystem::path hls_dir = "../hls";
  std::string hls_top = "model_top";
};

// Writes the RTL project into `dir` (created). Throws inrarch::Error, before writing
// anything, for a process or number type this backend does not support yet.
void emit_rtl(const dataflow::Design& d, const ir::Bundle& b, const RtlOptions& opt,
              const std::filesystem::path& dir);

struct RtlRunOptions {
  bool lint = true;        // verilator --lint-only -Wall on every module and the top
  // iverilog -g2012 and yosys read_verilog -sv accept them, and Icarus runs the design
  // (tb_top.sv: without stalls, against the same C simulation bits)
  bool other_tools = false;
  // Icarus interprets: its run is skipped (reported) past this many process-cycles
  // (processes, an mm counted as its MACs, x the model's cycles; INSP order 1 at width 32:
  // 1e6, 2.3 s at one MAC per mm).
  double icarus_max_work = 2e7;
  bool trace = true;       // record every FIFO op and check it (check_rtl_trace)
  double stall_in = 0, stall_out = 0;  // probability that a port withholds valid / ready
  uint64_t seed = 1;
  double budget_s = 600;   // per build or run
};

// Runs the project written by emit_rtl in `dir` (logs in dir/logs): pass when the run
// ended without a hang, every output bit equals the HLS C simulation's, (without stalls)
// the cycle count is the event graph's latency, and no overflow flag is set (each agreeing
// with its port's beats).
RtlRun run_rtl(const dataflow::Design& d, const std::filesystem::path& dir, const RtlRunOptions& opt = {});

// Checks a trace ("<cycle> <stream> w|r" lines) against the schedules: per process, the
// ops grouped by cycle are its steps in order, each at least its delay after the previous;
// with `exact_times`, every op at the event graph's time for the design's depths.
RtlTraceCheck check_rtl_trace(const dataflow::Design& d, const std::filesystem::path& trace, bool exact_times);

// Yosys's synth_xilinx -family xcup of the whole top in an emitted RTL folder (`make synth`).
// Returns {tool, lut, ff, dsp, bram18k (a RAMB36 is two), uram, lut_memory, lutram_cells,
// carry_cells, seconds}. Throws inrarch::Error when Yosys fails or runs past budget_s.
nlohmann::json synthesize(const std::filesystem::path& rtl_dir, double budget_s = 600);

// Yosys's cell counts in a `stat` listing as the resource model counts them: {lut, ff, dsp,
// bram18k (a RAMB36 is two), uram, lut_memory, lutram_cells, carry_cells}. lut counts the
// LUTs of logic and those that LUT RAM and shift-register cells occupy (lut_memory, as
// Vivado's CLB LUTs do); a cell of those with no known LUT count is an Error naming it. A
// hierarchical listing is read from its "design hierarchy" section (each instance counted
// once).
nlohmann::json stat_cells(const std::string& stat);

// Synthesis per kernel instance class (synth_classes.cpp): every distinct module
// parametrization in the top (FIFOs included) is synthesized once on its own
// (synth_xilinx -family xcup -noiopad -top <module>, not flattened), the top's own logic
// once with the kernels as black boxes, and count x cells is summed. Classes run `jobs` at
// a time, each cached in rtl_dir/logs/synth/<hash>.json.
struct SynthOptions {
  std::string method = "auto";    // "auto", "flattened" or "per-class"
  int jobs = 0;                   // 0: the machine's cores
  double class_timeout_s = 600;   // each class's Yosys run
  double budget_s = 600;          // the flattened run
  bool exact_roms = false;        // classes differ by ROM contents, not only ROM depth
  int flatten_max_processes = 8;  // "auto": flattened up to this many kernel instances
  std::string classes;            // per-class: only the classes whose key matches (ECMAScript regex)
  TimingOptions timing;           // per-class: each class's netlist timed (timing.h)
};
// Returns the counts of stat_cells with {method, tool, by_kind, classes, instances, cached,
// class_list, seconds, timing}; with `classes` set also {selected, partial}. Throws
// inrarch::Error naming the class whose Yosys run failed.
nlohmann::json synthesize_classes(const std::filesystem::path& rtl_dir, const SynthOptions& opt = {});
// "auto" chooses by the number of kernel instances in the top; see docs/rtl.md §5.
nlohmann::json synthesize_design(const std::filesystem::path& rtl_dir, const SynthOptions& opt = {});

// Each synthesized class beside the resource model (synth_model.cpp): Yosys's cells times
// the class's count against the model's usage summed over its instances, `by_name` being
// report.json's resources.by_name (a process or stream name, as its instance u_<name>, to
// its usage). Returns {band, classes, within, by_class: [{class, kind, count, yosys, model,
// ratio {lut, ff}, within}]}: within when LUT and FF are in the band and DSP, BRAM18K and
// URAM equal. Classes with an instance the model does not name (the top) are left out.
struct ClassBand {
  double low = 0.75, high = 1.33;
};
nlohmann::json compare_classes(const nlohmann::json& synth, const nlohmann::json& by_name, const ClassBand& band = {});
// The comparison as a table, the farthest classes first.
std::string format_class_comparison(const nlohmann::json& comparison);

// The event graph's latency of the design at its depths (unbounded depths as the RTL
// builds them), which an unstalled RTL run must take to the cycle.
int64_t model_latency(const dataflow::Design& d);
// The same run's latency (its last FIFO op) and the cycle of its last output beat: they
// differ when a gather reads input beats it does not need after its last write. Both -1
// when the design deadlocks.
struct ModelTimes {
  int64_t latency = -1, last_out = -1;
};
ModelTimes model_times(const dataflow::Design& d);
// What a simulation of the design costs: its processes, an mm counted as its MACs, times
// the event graph's latency (0 when it deadlocks). Icarus's run is skipped past
// RtlRunOptions::icarus_max_work of it, and compile's default Verilator run past
// driver::kAutoRtlSimWork.
double simulation_work(const dataflow::Design& d);

}  // namespace inrarch::rtl
