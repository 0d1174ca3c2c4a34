// Target FPGA parts as data, and the share of each resource a design may use.
//
// The search (dse.h) and the resource model (resources.h) read a Part; nothing else in the
// compiler knows a device. Figures are the vendors' data-sheet totals for the whole device
// (docs/resources.md lists them with their sources).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace inrarch::dataflow {

struct Part {
  std::string name;       // short name used on the command line: "u50"
  std::string device;     // the vendor part number: "xcu50-fsvh2104-2-e"
  int64_t dsp = 0;        // DSP48E2 slices
  int64_t bram18k = 0;    // 18 Kb block RAMs (two per BRAM36)
  int64_t uram = 0;       // 288 Kb UltraRAMs
  int64_t lut = 0;
  int64_t ff = 0;
  double clock_mhz = 300;
};

// The known parts, in a fixed order (the first is the default).
const std::vector<Part>& parts();
// A part by short name; throws inrarch::Error listing the known names.
const Part& find_part(const std::string& name);

// The fraction (0..1] of each resource a design may use.
struct Budget {
  double dsp = 0.8, bram = 0.8, uram = 0.8, lut = 0.8, ff = 0.8;
};

// "dsp=0.6,bram=0.5" (any subset of dsp, bram, uram, lut, ff, or all=F); unnamed resources
// keep the default 0.8. Throws inrarch::Error naming the bad entry.
Budget parse_budget(const std::string& text);

// The absolute amount of each resource the budget allows on the part (rounded down).
struct Capacity {
  int64_t dsp = 0, bram18k = 0, uram = 0, lut = 0, ff = 0;
};
Capacity capacity(const Part& part, const Budget& budget);

}  // namespace inrarch::dataflow
