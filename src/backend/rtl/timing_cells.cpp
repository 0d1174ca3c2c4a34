// The delay table of analyze_timing (timing.h), in ns. Sources (docs/rtl.md, "Timing
// estimate", lists each): the DSP48E2 stages from DS923's -2 DSP48 maximum frequencies;
// LUTs, MUXF7/8, CARRY4, flip-flops, SRLs and LUT RAMs from the specify blocks of Yosys's
// share/yosys/xilinx/cells_sim.v (prjxray's Artix-7 figures, the only per-pin figures
// Yosys ships); CARRY8 and MUXF9, which have none, from CARRY4 and MUXF8.
#include "backend/rtl/timing_cells.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <sstream>

namespace inrarch::rtl::timing_detail {

namespace {

using nlohmann::json;

// Flip-flops (FDRE, cells_sim.v): C -> Q, and setup of D, CE and the synchronous or
// asynchronous set/reset (Yosys writes D's -0.046 ns as 0).
constexpr double kFfClkQ = 0.303, kFfSetupD = 0.0, kFfSetupCe = 0.109, kFfSetupSr = 0.404;
// LUT6 input I0..I5 to O; a LUTk's input Ij is LUT6's input 6 - k + j.
constexpr std::array<double, 6> kLut6 = {0.642, 0.631, 0.472, 0.407, 0.238, 0.127};
// DS923 (-2, 0.85 V) DSP48 FMAX: all registers 775 MHz, without MREG 544 MHz, without
// MREG and ADREG 410 MHz. The multiplier stage is taken as the one limiting the
// all-register figure; the ALU and pre-adder stages are what removing MREG and ADREG add.
constexpr double kDspMul = 1000.0 / 775, kDspAlu = 1000.0 / 544 - kDspMul, kDspPre = 1000.0 / 410 - 1000.0 / 544;
// LUT RAM (RAM32M/RAM64M/RAM*X1D, cells_sim.v): read address -> data as LUT6's slowest
// input, WCLK -> DO (the slowest of RAM32M's ports), setup of D, WE and write address
// (32, 64 and 128 deep).
constexpr double kRamRead = 0.642, kRamClkQ = 1.190, kRamSetupD = 0.453, kRamSetupWe = 0.654;
constexpr double kMuxF7S = 0.296, kMuxF8S = 0.273;
// SRL16E/SRLC32E (cells_sim.v): CLK -> Q, CLK -> Q31, setup of D and CE.
constexpr double kSrlClkQ = 1.472, kSrlClkQ31 = 1.114, kSrlSetupD = 0.173, kSrlSetupCe = 0.109;

// CARRY4 (cells_sim.v): input pin and bit > output pin and bit = ps.
constexpr const char* kCarry4 =
    "CYINIT>O0=482 S0>O0=223 CI>O0=222 CYINIT>O1=598 DI0>O1=407 S0>O1=400 S1>O1=205 CI>O1=334 "
    "CYINIT>O2=584 DI0>O2=556 DI1>O2=537 S0>O2=523 S1>O2=558 S2>O2=226 CI>O2=239 CYINIT>O3=642 "
    "DI0>O3=615 DI1>O3=596 DI2>O3=438 S0>O3=582 S1>O3=618 S2>O3=330 S3>O3=227 CI>O3=313 "
    "CYINIT>CO0=536 DI0>CO0=379 S0>CO0=340 CI>CO0=271 CYINIT>CO1=494 DI0>CO1=465 DI1>CO1=445 "
    "S0>CO1=433 S1>CO1=469 CI>CO1=157 CYINIT>CO2=592 DI0>CO2=540 DI1>CO2=520 DI2>CO2=356 S0>CO2=512 "
    "S1>CO2=548 S2>CO2=292 CI>CO2=228 CYINIT>CO3=580 DI0>CO3=526 DI1>CO3=507 DI2>CO3=398 DI3>CO3=385 "
    "S0>CO3=508 S1>CO3=528 S2>CO3=378 S3>CO3=380 CI>CO3=114";

// "S12" -> ("S", 12); "CI" -> ("CI", -1).
std::pair<std::string, int> split_pin(const std::string& p) {
  size_t k = p.size();
  while (k > 0 && std::isdigit(static_cast<unsigned char>(p[k - 1]))) --k;
  return {p.substr(0, k), k == p.size() ? -1 : std::stoi(p.substr(k))};
}

std::vector<Arc> carry4_arcs() {
  std::vector<Arc> out;
  std::istringstream in(kCarry4);
  for (std::string item; in >> item;) {
    const size_t gt = item.find('>'), eq = item.find('=');
    auto [ip, ib] = split_pin(item.substr(0, gt));
    auto [op, ob] = split_pin(item.substr(gt + 1, eq - gt - 1));
    out.push_back({ip, ip == "CI" || ip == "CYINIT" ? 0 : ib, op, ob, std::stoi(item.substr(eq + 1)) / 1000.0});
  }
  return out;
}

// CARRY8 as two CARRY4 in series (bits 0-3, 4-7), the upper one's CI being CO[3] of the
// lower one (or CI_TOP when CARRY_TYPE is DUAL_CY4). Its CI is CARRY4's CI.
std::vector<Arc> carry8_arcs(bool dual) {
  const std::vector<Arc> c4 = carry4_arcs();
  std::vector<Arc> out;
  for (const Arc& a : c4) {
    if (a.in == "CYINIT") continue;
    out.push_back(a);
    Arc up = a;
    if (up.in != "CI") up.in_bit += 4;
    else up.in = dual ? "CI_TOP" : "";
    up.out_bit += 4;
    if (!up.in.empty()) out.push_back(up);
  }
  if (dual) return out;
  // Lower inputs through CO[3] into the upper half's CI arcs.
  for (const Arc& lo : c4) {
    if (lo.in == "CYINIT" || lo.out != "CO" || lo.out_bit != 3) continue;
    for (const Arc& hi : c4)
      if (hi.in == "CI") out.push_back({lo.in, lo.in_bit, hi.out, hi.out_bit + 4, lo.ns + hi.ns});
  }
  for (Arc& a : out)
    if (a.in == "CI") a.in_bit = 0;
  return out;
}

// Yosys's INV (cells_sim.v: I => O 127 ps).
constexpr double kInv = 0.127;

CellModel lut_model(int k, bool dual) {
  CellModel m;
  m.category = Category::Lut;
  for (int j = 0; j < k; ++j) m.arcs.push_back({fmt::format("I{}", j), 0, dual ? "O6" : "O", 0, kLut6[6 - k + j]});
  if (dual)
    for (int j = 0; j < 5; ++j) m.arcs.push_back({fmt::format("I{}", j), 0, "O5", 0, kLut6[1 + j]});
  return m;
}

CellModel muxf_model(bool f7) {
  CellModel m;
  m.category = Category::Muxf;
  m.arcs = {{"I0", 0, "O", 0, f7 ? 0.217 : 0.104}, {"I1", 0, "O", 0, f7 ? 0.223 : 0.094}, {"S", 0, "O", 0, f7 ? kMuxF7S : kMuxF8S}};
  return m;
}

CellModel ff_model(const std::string& type) {
  CellModel m;
  m.category = Category::Ff;
  m.starts["Q"] = {kFfClkQ};
  m.ends["D"] = {kFfSetupD};
  m.ends["CE"] = {kFfSetupCe};
  const char* sr = type == "FDRE" ? "R" : type == "FDSE" ? "S" : type == "FDCE" ? "CLR" : "PRE";
  m.ends[sr] = {kFfSetupSr};
  return m;
}

CellModel srl_model(bool c32) {
  CellModel m;
  m.category = Category::Srl;
  for (int j = 0; j < (c32 ? 5 : 4); ++j)
    m.arcs.push_back({c32 ? "A" : fmt::format("A{}", j), c32 ? j : 0, "Q", 0, kLut6[j + (c32 ? 0 : 1)]});
  m.starts["Q"] = {kSrlClkQ};
  if (c32) m.starts["Q31"] = {kSrlClkQ31};
  m.ends["D"] = {kSrlSetupD};
  m.ends["CE"] = {kSrlSetupCe};
  return m;
}

bool is_output(const json& cell, const std::string& port) {
  if (cell.contains("port_directions") && cell["port_directions"].contains(port))
    return cell["port_directions"][port] == "output";
  for (const char* k : {"OUT", "DETECT", "FLOW", "ERR", "ECC"})
    if (port.find(k) != std::string::npos) return true;
  return port == "P" || port == "SPO" || port == "DPO" || port == "O" || port.rfind("DO", 0) == 0;
}

}  // namespace

int64_t param_int(const json& cell, const std::string& name, int64_t fallback) {
  if (!cell.contains("parameters") || !cell["parameters"].contains(name)) return fallback;
  const json& v = cell["parameters"][name];
  if (v.is_number_integer()) return v.get<int64_t>();
  if (!v.is_string()) return fallback;
  const std::string s = v.get<std::string>();
  if (!s.empty() && s.find_first_not_of("01") == std::string::npos) return std::stoll(s.substr(s.size() > 62 ? s.size() - 62 : 0), nullptr, 2);
  try {
    return std::stoll(s);
  } catch (const std::exception&) {
    return fallback;
  }
}

namespace {

std::string param_str(const json& cell, const std::string& name, const std::string& fallback) {
  if (!cell.contains("parameters") || !cell["parameters"].contains(name) || !cell["parameters"][name].is_string()) return fallback;
  std::string s = cell["parameters"][name].get<std::string>();
  while (!s.empty() && s.back() == ' ') s.pop_back();  // Yosys pads string parameters
  return s;
}

// One DSP48E2 input's way to P: the stages it passes (a register before each, enabled or
// not, and the stage's delay), then PREG.
struct Stage {
  bool reg;
  double ns;
};

// Where an input of the chain ends: its setup (the delay to the first enabled register),
// or its arc to P when no register lies between.
void dsp_entry(CellModel& m, const std::string& pin, const std::vector<Stage>& chain, bool preg,
               const std::vector<std::string>& p_outs) {
  double acc = 0;
  for (const Stage& s : chain) {
    if (s.reg) {
      m.ends[pin] = {acc + kFfSetupD};
      return;
    }
    acc += s.ns;
  }
  if (preg) m.ends[pin] = {acc + kFfSetupD};
  else
    for (const std::string& p : p_outs) m.arcs.push_back({pin, -1, p, -1, acc});
}

// The chain's share of P's clock-to-out (its last enabled register before P, when PREG is
// off) and of the register-to-register stages inside the slice.
void dsp_chain_regs(CellModel& m, const std::vector<Stage>& chain, bool preg, double& clk_to_p) {
  int last = -1;
  double since = 0;
  for (size_t i = 0; i < chain.size(); ++i) {
    if (chain[i].reg) {
      if (last >= 0) m.internal_ns = std::max(m.internal_ns, since);
      last = static_cast<int>(i);
      since = 0;
    }
    since += chain[i].ns;
  }
  if (last < 0) return;
  if (preg) m.internal_ns = std::max(m.internal_ns, since);
  else clk_to_p = std::max(clk_to_p, kFfClkQ + since);
}

CellModel dsp_model(const json& cell) {
  CellModel m;
  m.category = Category::Dsp;
  auto reg = [&](const char* p) { return param_int(cell, p, 1) > 0; };
  const bool mult = param_str(cell, "USE_MULT", "MULTIPLY") != "NONE";
  const bool pre = param_str(cell, "AMULTSEL", "A") == "AD" || param_str(cell, "BMULTSEL", "B") == "AD";
  const bool preg = reg("PREG"), mreg = mult && reg("MREG"), adreg = pre && reg("ADREG");
  const double t_mul = mult ? kDspMul : 0;
  std::vector<std::string> p_outs;
  for (const auto& [port, _] : cell["connections"].items())
    if (is_output(cell, port) && port != "ACOUT" && port != "BCOUT") p_outs.push_back(port);
  const std::vector<Stage> a = {{reg("AREG"), pre ? kDspPre : 0}, {adreg, t_mul}, {mreg, kDspAlu}};
  const std::vector<Stage> b = {{reg("BREG"), 0}, {false, t_mul}, {mreg, kDspAlu}};
  const std::vector<Stage> d = {{reg("DREG"), kDspPre}, {adreg, t_mul}, {mreg, kDspAlu}};
  const std::vector<Stage> c = {{reg("CREG"), kDspAlu}};
  const std::vector<Stage> inmode = {{reg("INMODEREG"), pre ? kDspPre : 0}, {adreg, t_mul}, {mreg, kDspAlu}};
  const std::vector<std::pair<std::string, std::vector<Stage>>> entries = {
      {"A", a}, {"ACIN", a}, {"B", b}, {"BCIN", b}, {"D", d}, {"C", c}, {"INMODE", inmode},
      {"OPMODE", {{reg("OPMODEREG"), kDspAlu}}}, {"ALUMODE", {{reg("ALUMODEREG"), kDspAlu}}},
      {"CARRYIN", {{reg("CARRYINREG"), kDspAlu}}}, {"CARRYINSEL", {{reg("CARRYINSELREG"), kDspAlu}}},
      {"PCIN", {{false, kDspAlu}}}, {"CARRYCASCIN", {{false, kDspAlu}}}, {"MULTSIGNIN", {{false, kDspAlu}}}};
  // A register on constant inputs holds a constant: no path starts there.
  auto live = [&](const std::string& pin) {
    if (!cell["connections"].contains(pin)) return false;
    for (const json& bit : cell["connections"][pin])
      if (bit.is_number_integer()) return true;
    return false;
  };
  double clk_to_p = 0;
  for (const auto& [pin, chain] : entries) {
    if (!live(pin)) continue;
    dsp_entry(m, pin, chain, preg, p_outs);
    dsp_chain_regs(m, chain, preg, clk_to_p);
  }
  if (preg) clk_to_p = kFfClkQ;
  for (const std::string& p : p_outs)
    if (clk_to_p > 0) m.starts[p] = {clk_to_p};
  for (const auto& [out, in, r] : {std::tuple{"ACOUT", "A", "AREG"}, std::tuple{"BCOUT", "B", "BREG"}}) {
    if (reg(r)) m.starts[out] = {kFfClkQ};
    else m.arcs.push_back({in, -1, out, -1, 0});
  }
  for (const auto& [port, _] : cell["connections"].items())
    if (port.rfind("CE", 0) == 0 || port.rfind("RST", 0) == 0) m.ends[port] = {port[0] == 'C' ? kFfSetupCe : kFfSetupSr};
  return m;
}

CellModel bram_model(const std::string& type, const json& cell) {
  CellModel m;
  m.category = Category::Bram;
  m.note = type + ": clock-to-out and setup cannot be costed (no DS923 or Yosys figure); paths through it are lower bounds";
  for (const auto& [port, _] : cell["connections"].items()) {
    if (port.find("CLK") != std::string::npos) continue;
    if (is_output(cell, port)) m.starts[port] = {0, true};
    else m.ends[port] = {0, true};
  }
  return m;
}

// RAM32M/RAM64M/RAM32M16/RAM64M8 and RAM{32,64,128,256,512}X1{S,D}: asynchronous read,
// synchronous write. A deeper RAM's read adds its MUXF7/MUXF8 (and MUXF9 as MUXF8).
CellModel lutram_model(const std::string& type, const json& cell) {
  CellModel m;
  m.category = Category::Lutram;
  const int depth = std::stoi(type.substr(3));
  const double read = kRamRead + (depth >= 128 ? kMuxF7S : 0) + (depth >= 256 ? kMuxF8S : 0) + (depth >= 512 ? kMuxF8S : 0);
  const double addr_setup = depth <= 32 ? 0.245 : depth <= 64 ? 0.362 : 0.616;
  const bool quad = type.find('M') != std::string::npos;
  const std::string write_addr = type == "RAM32M" || type == "RAM64M" ? "ADDRD" : "ADDRH";
  std::vector<std::string> outs, addrs;
  for (const auto& [port, _] : cell["connections"].items()) {
    if (port == "WCLK") continue;
    if (is_output(cell, port)) {
      outs.push_back(port);
      m.starts[port] = {kRamClkQ};
    } else if (port.rfind("ADDR", 0) == 0 || port.rfind("DPRA", 0) == 0 || port[0] == 'A') {
      addrs.push_back(port);
      if (quad ? port == write_addr : port[0] == 'A') m.ends[port] = {addr_setup};
    } else {
      m.ends[port] = {port == "WE" ? kRamSetupWe : kRamSetupD};
    }
  }
  for (const std::string& a : addrs)
    for (const std::string& o : outs) m.arcs.push_back({a, -1, o, -1, read});
  return m;
}

bool starts_with(const std::string& s, const char* p) { return s.rfind(p, 0) == 0; }

}  // namespace

CellModel cell_model(const std::string& type, const json& cell) {
  if (type.size() == 4 && starts_with(type, "LUT") && type[3] >= '1' && type[3] <= '6') return lut_model(type[3] - '0', false);
  if (type == "LUT6_2") return lut_model(6, true);
  if (type == "INV") {  // placed as a LUT1: a LUT level
    CellModel m;
    m.category = Category::Lut;
    m.arcs = {{"I", 0, "O", 0, kInv}};
    return m;
  }
  if (type == "MUXF7" || type == "MUXF8") return muxf_model(type == "MUXF7");
  if (type == "MUXF9") return muxf_model(false);
  if (type == "FDRE" || type == "FDSE" || type == "FDCE" || type == "FDPE") return ff_model(type);
  if (type == "SRL16E" || type == "SRLC32E") return srl_model(type == "SRLC32E");
  if (type == "CARRY4" || type == "CARRY8") {
    CellModel m;
    m.category = Category::Carry;
    m.arcs = type == "CARRY4" ? carry4_arcs() : carry8_arcs(param_str(cell, "CARRY_TYPE", "SINGLE_CY8") == "DUAL_CY4");
    return m;
  }
  if (type == "DSP48E2") return dsp_model(cell);
  if (type == "RAMB18E2" || type == "RAMB36E2" || type == "FIFO18E2" || type == "FIFO36E2" || type == "URAM288")
    return bram_model(type, cell);
  static const char* const kLutram[] = {"RAM32M", "RAM64M", "RAM32M16", "RAM64M8", "RAM32X1D", "RAM64X1D", "RAM128X1D",
                                        "RAM256X1D", "RAM32X1S", "RAM64X1S", "RAM128X1S", "RAM256X1S", "RAM512X1S"};
  for (const char* t : kLutram)
    if (type == t) return lutram_model(type, cell);
  CellModel m;
  if (starts_with(type, "BUFG") || type == "GND" || type == "VCC") m.category = Category::Clock;
  return m;
}

}  // namespace inrarch::rtl::timing_detail
