// synthesize: Yosys's synth_xilinx (UltraScale+) of an emitted top, flattened, its cells
// counted as the resource model counts them; synthesize_design chooses between it and the
// per-class synthesis of synth_classes.cpp.
#include <fmt/format.h>

#include <chrono>
#include <map>
#include <regex>
#include <sstream>

#include "backend/rtl/rtl.h"
#include "support/error.h"
#include "support/files.h"
#include "support/process.h"

namespace inrarch::rtl {

namespace {

// The LUTs each LUT RAM and shift-register cell of synth_xilinx -family xcup occupies
// (UltraScale+ CLB: a LUT6 is 64 bits of RAM or a 32-bit shift register; UG574). Vivado
// counts them among the CLB LUTs ("LUT as Memory"), and so does the resource model.
int64_t luts_of_memory_cell(const std::string& type) {
  static const std::map<std::string, int64_t> luts = {
      {"SRL16E", 1},   {"SRLC16E", 1},  {"SRLC32E", 1},   {"RAM32X1S", 1},   {"RAM32X1D", 2},
      {"RAM32M", 4},   {"RAM32M16", 8}, {"RAM64X1S", 1},  {"RAM64X1D", 2},   {"RAM64M", 4},
      {"RAM64M8", 8},  {"RAM128X1S", 2}, {"RAM128X1D", 4}, {"RAM256X1S", 4}, {"RAM256X1D", 8},
      {"RAM512X1S", 8}};
  const auto it = luts.find(type);
  if (it == luts.end()) throw Error("synthesis: no LUT count for the LUT RAM cell " + type);
  return it->second;
}

}  // namespace

nlohmann::json stat_cells(const std::string& stat) {
  // A hierarchical `stat` lists every module, then the design's total under "design
  // hierarchy": reading only that section counts a module with submodules once.
  const size_t hier = stat.find("=== design hierarchy ===");
  std::istringstream in(hier == std::string::npos ? stat : stat.substr(hier));
  // Cells are listed as "     <cell type>   <count>" under "Number of cells".
  const std::regex cell(R"(^\s+([A-Z][A-Z0-9_]*)\s+(\d+)\s*$)");
  int64_t lut = 0, ff = 0, dsp = 0, bram18k = 0, uram = 0, lutram = 0, lut_memory = 0, carry = 0;
  std::smatch m;
  for (std::string line; std::getline(in, line);) {
    if (!std::regex_match(line, m, cell)) continue;
    const std::string type = m[1];
    const int64_t n = std::stoll(m[2]);
    if (type.rfind("LUT", 0) == 0) lut += n;
    else if (type.rfind("FD", 0) == 0) ff += n;
    else if (type.rfind("DSP48", 0) == 0) dsp += n;
    else if (type == "RAMB18E2") bram18k += n;
    else if (type == "RAMB36E2") bram18k += 2 * n;
    else if (type.rfind("URAM", 0) == 0) uram += n;
    else if (type.rfind("RAM", 0) == 0 || type.rfind("SRL", 0) == 0) {
      lutram += n;
      lut_memory += n * luts_of_memory_cell(type);
    }
    else if (type.rfind("CARRY", 0) == 0) carry += n;
  }
  return {{"lut", lut + lut_memory}, {"ff", ff}, {"dsp", dsp}, {"bram18k", bram18k}, {"uram", uram},
          {"lut_memory", lut_memory}, {"lutram_cells", lutram}, {"carry_cells", carry}};
}

nlohmann::json synthesize(const std::filesystem::path& dir, double budget_s) {
  const auto t0 = std::chrono::steady_clock::now();
  std::filesystem::create_directories(dir / "logs");
  auto run = run_command(fmt::format("cd '{}' && make synth > logs/synth.log 2>&1", dir.string()), budget_s);
  if (run.exit_code != 0)
    throw Error(run.timed_out ? fmt::format("synth: yosys ran out of time ({:g} s; --budget)", budget_s)
                              : "synth: yosys failed; see " + (dir / "logs" / "synth.log").string());
  nlohmann::json r = stat_cells(read_file(dir / "logs" / "synth_stat.txt"));
  r["tool"] = "yosys 0.23 synth_xilinx -family xcup -flatten";
  r["method"] = "flattened";
  r["by_kind"] = nlohmann::json::object();
  r["seconds"] = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return r;
}

}  // namespace inrarch::rtl
