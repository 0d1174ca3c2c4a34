// analyze_timing: a static timing estimate of one synthesized module, read from Yosys's
// JSON netlist (`write_json` after `synth_xilinx -family xcup`). The combinational cells
// form a DAG between sequential boundaries (flip-flops, SRL outputs, the registered stages
// of a DSP48E2, block RAMs read synchronously, the module's ports); each path costs its
// start's clock-to-out, its cells' delays, an assumed routing delay per net and its end's
// setup, from the UltraScale+ table of timing_cells.cpp. docs/rtl.md ("Timing estimate")
// gives every figure's source and what the method leaves out (placement, congestion, SLR
// crossings).
#pragma once

#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace inrarch::rtl {

struct TimingOptions {
  double clock_mhz = 300;  // the Alveo U50's kernel clock
  double route_ns = 0.30;  // assumed routing delay of every net on a path
};

// The cells a path goes through, by type, and the categories the report prints.
struct PathCells {
  int lut = 0, carry = 0, muxf = 0, dsp = 0, bram = 0, srl = 0, lutram = 0, other = 0;
  std::map<std::string, int> by_type;
};

struct TimingPath {
  bool found = false;        // false: the module has no path of this kind
  double est_ns = 0;         // clock-to-out + cells + nets + setup
  std::string from, to;      // "cell (TYPE).PORT[bit]" or "port name[bit]"
  std::vector<std::string> cells;  // "TYPE name", start to end, the boundaries excluded
  PathCells counts;
  int nets = 0;
  bool lower_bound = false;  // a figure on it is missing (a block RAM's, an unknown cell's)
};

struct TimingResult {
  std::string module;
  double clock_mhz = 0, route_ns = 0;
  TimingPath reg_to_reg, in_to_reg, reg_to_out, in_to_out;
  // A path inside one DSP48E2 between two of its registers (it does not leave the slice).
  double dsp_internal_ns = 0;
  // The longest of the four kinds and the DSP-internal stage: what the clock must cover
  // when every input comes straight from a register and every output goes straight to one.
  double worst_ns = 0, est_fmax_mhz = 0;
  std::string worst_kind;
  bool meets_clock = false;
  // "TYPE: cannot be costed (why)" for each cell type or figure the table lacks; empty when
  // every path was costed in full.
  std::vector<std::string> uncosted;
  int64_t cells = 0;
};

// The module is the netlist's top (attribute "top"), or its only module that is not a
// cell library's black box. Throws inrarch::Error on a netlist it cannot read and on a
// combinational loop, naming cells on the loop. A cell type the table does not know is
// cut like a port and named in `uncosted`.
TimingResult analyze_timing(const nlohmann::json& netlist, const TimingOptions& opt = {});

// {module, clock_mhz, route_ns, meets_clock, worst_ns, est_fmax_mhz, worst_kind,
//  dsp_internal_ns, uncosted, cells, paths {reg_to_reg, in_to_reg, reg_to_out, in_to_out}}
// with each path as {found, est_ns, from, to, nets, lower_bound, lut_levels, carry, muxf,
// dsp, bram, srl, lutram, by_type, cells}.
nlohmann::json timing_json(const TimingResult& r);

// The per-class synthesis's use (synth_timing.cpp): timing_json of a netlist file, or
// {"error": why} when it cannot be read or has a combinational loop.
nlohmann::json netlist_timing(const std::filesystem::path& netlist, const TimingOptions& opt);
// report.json's timing section from the classes' {class, module, kind, count, timing}:
// {clock_mhz, route_ns, meets_clock, worst {class, module, est_ns, est_fmax_mhz, kind, path},
//  by_class [...]}, the classes slowest first.
nlohmann::json timing_summary(const nlohmann::json& classes, const TimingOptions& opt);
// The per-class timing table `inrarch synth` prints.
std::string format_timing_table(const nlohmann::json& timing);

}  // namespace inrarch::rtl
