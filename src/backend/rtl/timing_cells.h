// The UltraScale+ delay table of analyze_timing (timing.h): what one netlist cell
// contributes to a path. Figures and sources: docs/rtl.md, "Timing estimate".
#pragma once

#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace inrarch::rtl::timing_detail {

// A combinational arc from an input pin to an output pin; bit -1 stands for every bit of
// the port.
struct Arc {
  std::string in;
  int in_bit = -1;
  std::string out;
  int out_bit = -1;
  double ns = 0;
};

// A pin where a path ends (setup) or starts (clock-to-out).
struct Boundary {
  double ns = 0;
  bool lower_bound = false;  // no figure: counted as 0
};

enum class Category { Lut, Carry, Muxf, Dsp, Bram, Srl, Lutram, Ff, Clock, Boundary, Unknown };

struct CellModel {
  Category category = Category::Unknown;
  std::vector<Arc> arcs;
  std::map<std::string, Boundary> starts;  // output port -> clock-to-out
  std::map<std::string, Boundary> ends;    // input port -> setup
  double internal_ns = 0;                  // longest path between two registers inside it
  std::string note;                        // why part of it is not costed
};

// The model of a cell of `type` with `cell`'s parameters and connections. An unknown type
// gives Category::Unknown with no arcs.
CellModel cell_model(const std::string& type, const nlohmann::json& cell);

// A Yosys parameter as an integer ("00000000000000000000000000000010", "2" or 2).
int64_t param_int(const nlohmann::json& cell, const std::string& name, int64_t fallback);

}  // namespace inrarch::rtl::timing_detail
