// The timing estimate (backend/rtl/timing.h) on netlists built by hand, whose longest path
// is known: every expected delay is written out from the table in docs/rtl.md ("Timing
// estimate"), 0.30 ns per routed net (none on a carry chain's CO -> CI). FF clock-to-out 0.303, LUT6 I0 0.642, LUT6 I5 0.127, LUT2 I0
// 0.238, LUT3 I0 0.407, LUT1 I0 0.127, CARRY4 S0->CO3 0.508 and CI->O3 0.313, FF setup of D
// 0, CE 0.109; DSP48E2 multiplier stage 1/775 MHz, ALU stage 1/544 - 1/775 MHz.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "backend/rtl/timing.h"
#include "support/error.h"

namespace inrarch::rtl {
namespace {

using nlohmann::json;

// A one-module netlist in write_json's shape: bits are integers from 2 up.
struct Netlist {
  json cells = json::object(), ports = json::object();
  int next = 2;
  int bit() { return next++; }
  void port(const std::string& name, const char* dir, int b) { ports[name] = {{"direction", dir}, {"bits", {b}}}; }
  void cell(const std::string& name, const std::string& type, const json& conn, const json& params = json::object(),
            const json& dirs = json()) {
    json c = {{"type", type}, {"parameters", params}, {"connections", conn}};
    if (!dirs.is_null()) c["port_directions"] = dirs;
    cells[name] = c;
  }
  // A flip-flop from d to q (clock on bit 1, unused by the analysis).
  void ff(const std::string& name, json d, json q, json ce = "1") {
    cell(name, "FDRE", {{"C", {1}}, {"CE", {ce}}, {"R", {"0"}}, {"D", {d}}, {"Q", {q}}});
  }
  json done() const {
    return {{"modules", {{"m", {{"attributes", {{"top", "00000000000000000000000000000001"}}}, {"ports", ports}, {"cells", cells}}}}}};
  }
};

constexpr double kFf = 0.303, kNet = 0.30;

// FF -> n LUT6s, each entered at `pin` -> FF.
Netlist lut_chain(int n, const std::string& pin) {
  Netlist nl;
  int q = nl.bit();
  nl.ff("src", nl.bit(), q);
  for (int i = 0; i < n; ++i) {
    json conn = {{"O", {nl.bit()}}};
    for (int k = 0; k < 6; ++k) conn["I" + std::to_string(k)] = {"0"};
    conn[pin] = {q};
    q = conn["O"][0];
    nl.cell("lut" + std::to_string(i), "LUT6", conn);
  }
  nl.ff("dst", q, nl.bit());
  return nl;
}

TEST(RtlTiming, ChainOfLutsBetweenTwoFlipFlops) {
  const TimingResult r = analyze_timing(lut_chain(4, "I0").done());
  ASSERT_TRUE(r.reg_to_reg.found);
  EXPECT_NEAR(r.reg_to_reg.est_ns, kFf + 5 * kNet + 4 * 0.642, 1e-9);  // 4.371
  EXPECT_EQ(r.reg_to_reg.counts.lut, 4);
  EXPECT_EQ(r.reg_to_reg.nets, 5);
  EXPECT_EQ(r.reg_to_reg.from, "src (FDRE).Q");
  EXPECT_EQ(r.reg_to_reg.to, "dst (FDRE).D");
  EXPECT_FALSE(r.in_to_reg.found);
  EXPECT_NEAR(r.est_fmax_mhz, 1000 / 4.371, 1e-6);
  EXPECT_FALSE(r.meets_clock);  // 4.371 ns > 3.333 ns
  EXPECT_TRUE(r.uncosted.empty());
  // The fast input: 0.127 ns a LUT.
  EXPECT_NEAR(analyze_timing(lut_chain(4, "I5").done()).reg_to_reg.est_ns, kFf + 5 * kNet + 4 * 0.127, 1e-9);
  const TimingResult one = analyze_timing(lut_chain(1, "I0").done());
  EXPECT_NEAR(one.worst_ns, kFf + 2 * kNet + 0.642, 1e-9);  // 1.545 ns: 647 MHz
  EXPECT_TRUE(one.meets_clock);
}

// Yosys's INV cell (0.127 ns, cells_sim.v) is a LUT level, not an uncosted cut.
TEST(RtlTiming, AnInverterIsALutLevel) {
  Netlist nl;
  const int q = nl.bit(), o = nl.bit();
  nl.ff("src", nl.bit(), q);
  nl.cell("inv", "INV", {{"I", {q}}, {"O", {o}}});
  nl.ff("dst", o, nl.bit());
  const TimingResult r = analyze_timing(nl.done());
  ASSERT_TRUE(r.reg_to_reg.found);
  EXPECT_NEAR(r.reg_to_reg.est_ns, kFf + 2 * kNet + 0.127, 1e-9);
  EXPECT_EQ(r.reg_to_reg.counts.lut, 1);
  EXPECT_TRUE(r.uncosted.empty());
}

TEST(RtlTiming, CarryChainOfTwoCarry4) {
  Netlist nl;
  const int q = nl.bit(), co3 = nl.bit(), o3 = nl.bit();
  nl.ff("src", nl.bit(), q);
  auto bits = [&](json first) {
    json v = json::array({first});
    for (int i = 1; i < 4; ++i) v.push_back(nl.bit());
    return v;
  };
  nl.cell("c0", "CARRY4", {{"CI", {"0"}}, {"CYINIT", {"0"}}, {"S", bits(q)}, {"DI", {"0", "0", "0", "0"}}, {"O", bits(nl.bit())},
                           {"CO", {nl.bit(), nl.bit(), nl.bit(), co3}}});
  nl.cell("c1", "CARRY4", {{"CI", {co3}}, {"CYINIT", {"0"}}, {"S", {"0", "0", "0", "0"}}, {"DI", {"0", "0", "0", "0"}},
                           {"O", {nl.bit(), nl.bit(), nl.bit(), o3}}, {"CO", bits(nl.bit())}});
  nl.ff("dst", o3, nl.bit());
  const TimingResult r = analyze_timing(nl.done());
  // CO[3] -> CI is the chain's own wire: two routed nets, not three.
  EXPECT_NEAR(r.reg_to_reg.est_ns, kFf + 2 * kNet + 0.508 + 0.313, 1e-9);  // 1.724
  EXPECT_EQ(r.reg_to_reg.nets, 2);
  EXPECT_EQ(r.reg_to_reg.counts.carry, 2);
  EXPECT_EQ(r.reg_to_reg.counts.lut, 0);
}

TEST(RtlTiming, Carry8IsTwoCarry4InSeries) {
  Netlist nl;
  const int q = nl.bit(), o7 = nl.bit();
  nl.ff("src", nl.bit(), q);
  json s = {q}, o = json::array(), co = json::array();
  for (int i = 1; i < 8; ++i) s.push_back("0");
  for (int i = 0; i < 7; ++i) o.push_back(nl.bit());
  o.push_back(o7);
  for (int i = 0; i < 8; ++i) co.push_back(nl.bit());
  nl.cell("c", "CARRY8", {{"CI", {"0"}}, {"CI_TOP", {"0"}}, {"S", s}, {"DI", json(std::vector<std::string>(8, "0"))}, {"O", o},
                          {"CO", co}});
  nl.ff("dst", o7, nl.bit());
  // S[0] -> CO[3] of the lower half, then the upper half's CI -> O[3].
  EXPECT_NEAR(analyze_timing(nl.done()).reg_to_reg.est_ns, kFf + 2 * kNet + 0.508 + 0.313, 1e-9);
}

// FF -> DSP48E2 A -> P -> FF with the given registers (B, C and the rest unconnected).
Netlist dsp(int areg, int mreg, int preg) {
  Netlist nl;
  const int q = nl.bit(), p = nl.bit();
  nl.ff("src", nl.bit(), q);
  auto reg = [](int v) { return std::string(31, '0') + (v ? "1" : "0"); };
  nl.cell("mac", "DSP48E2", {{"A", {q}}, {"P", {p}}, {"CLK", {1}}},
          {{"AREG", reg(areg)}, {"BREG", reg(areg)}, {"MREG", reg(mreg)}, {"PREG", reg(preg)}, {"USE_MULT", "MULTIPLY"},
           {"AMULTSEL", "A"}},
          {{"A", "input"}, {"P", "output"}, {"CLK", "input"}});
  nl.ff("dst", p, nl.bit());
  return nl;
}

TEST(RtlTiming, RegisteredAndUnregisteredDsp) {
  const double mul = 1000.0 / 775, alu = 1000.0 / 544 - 1000.0 / 775;
  const TimingResult comb = analyze_timing(dsp(0, 0, 0).done());
  EXPECT_NEAR(comb.reg_to_reg.est_ns, kFf + 2 * kNet + mul + alu, 1e-9);  // 2.441 ns
  EXPECT_EQ(comb.reg_to_reg.counts.dsp, 1);
  // MREG only: FF -> A -> (multiplier) MREG, then MREG -> (ALU) P -> FF.
  const TimingResult m = analyze_timing(dsp(0, 1, 0).done());
  EXPECT_NEAR(m.reg_to_reg.est_ns, kFf + kNet + mul, 1e-9);  // 1.893 ns
  // All registered: the fabric sides are one net each; the slowest stage is inside.
  const TimingResult all = analyze_timing(dsp(1, 1, 1).done());
  EXPECT_NEAR(all.reg_to_reg.est_ns, kFf + kNet, 1e-9);
  EXPECT_NEAR(all.dsp_internal_ns, mul, 1e-9);
  EXPECT_EQ(all.worst_kind, "dsp_internal");
  EXPECT_NEAR(all.est_fmax_mhz, 775, 1e-6);
  EXPECT_TRUE(all.meets_clock);
  EXPECT_FALSE(comb.meets_clock && comb.worst_ns < all.worst_ns);
}

TEST(RtlTiming, InputToRegisterAndRegisterToOutput) {
  Netlist nl;
  const int a = nl.bit(), l1 = nl.bit(), q = nl.bit(), y = nl.bit(), b = nl.bit(), z = nl.bit();
  nl.port("a", "input", a);
  nl.port("b", "input", b);
  nl.port("y", "output", y);
  nl.port("z", "output", z);
  nl.cell("l2", "LUT2", {{"I0", {a}}, {"I1", {"0"}}, {"O", {l1}}});
  nl.ff("r", l1, q);
  nl.cell("l3", "LUT3", {{"I0", {q}}, {"I1", {"0"}}, {"I2", {"0"}}, {"O", {y}}});
  nl.cell("l1", "LUT1", {{"I0", {b}}, {"O", {z}}});
  const TimingResult r = analyze_timing(nl.done());
  EXPECT_NEAR(r.in_to_reg.est_ns, 2 * kNet + 0.238, 1e-9);
  EXPECT_EQ(r.in_to_reg.from, "port a");
  EXPECT_NEAR(r.reg_to_out.est_ns, kFf + 2 * kNet + 0.407, 1e-9);
  EXPECT_EQ(r.reg_to_out.to, "port y");
  EXPECT_NEAR(r.in_to_out.est_ns, 2 * kNet + 0.127, 1e-9);
  EXPECT_FALSE(r.reg_to_reg.found);
  EXPECT_EQ(r.worst_kind, "reg_to_out");
}

TEST(RtlTiming, ClockEnableSetup) {
  Netlist nl;
  const int q = nl.bit();
  nl.ff("src", nl.bit(), q);
  nl.ff("dst", nl.bit(), nl.bit(), q);
  EXPECT_NEAR(analyze_timing(nl.done()).reg_to_reg.est_ns, kFf + kNet + 0.109, 1e-9);
}

TEST(RtlTiming, CombinationalLoopIsAnErrorNamingItsCells) {
  Netlist nl;
  const int x = nl.bit(), y = nl.bit();
  nl.cell("loop_a", "LUT1", {{"I0", {x}}, {"O", {y}}});
  nl.cell("loop_b", "LUT1", {{"I0", {y}}, {"O", {x}}});
  nl.ff("r", x, nl.bit());
  try {
    analyze_timing(nl.done());
    FAIL() << "a loop was costed";
  } catch (const Error& e) {
    const std::string m = e.what();
    EXPECT_NE(m.find("combinational loop"), std::string::npos) << m;
    EXPECT_NE(m.find("loop_a (LUT1)"), std::string::npos) << m;
    EXPECT_NE(m.find("loop_b (LUT1)"), std::string::npos) << m;
    EXPECT_NE(m.find("cannot be costed"), std::string::npos) << m;
  }
}

TEST(RtlTiming, UnknownCellIsReportedNotGuessed) {
  Netlist nl;
  const int q = nl.bit(), w = nl.bit();
  nl.ff("src", nl.bit(), q);
  nl.cell("odd", "WEIRD9", {{"I", {q}}, {"O", {w}}}, json::object(), {{"I", "input"}, {"O", "output"}});
  nl.cell("l", "LUT6", {{"I0", {w}}, {"I1", {"0"}}, {"I2", {"0"}}, {"I3", {"0"}}, {"I4", {"0"}}, {"I5", {"0"}}, {"O", {nl.bit()}}});
  nl.ff("dst", nl.cells["l"]["connections"]["O"][0], nl.bit());
  const TimingResult r = analyze_timing(nl.done());
  ASSERT_EQ(r.uncosted.size(), 1u);
  EXPECT_NE(r.uncosted[0].find("WEIRD9: cannot be costed"), std::string::npos) << r.uncosted[0];
  // Cut at its pins: from its output, 0 ns plus the LUT; flagged as a lower bound.
  EXPECT_NEAR(r.reg_to_reg.est_ns, 2 * kNet + 0.642, 1e-9);
  EXPECT_TRUE(r.reg_to_reg.lower_bound);
  EXPECT_EQ(r.reg_to_reg.from, "odd (WEIRD9).O");
}

TEST(RtlTiming, BlockRamPathIsALowerBoundAndSaysSo) {
  Netlist nl;
  const int d = nl.bit(), o = nl.bit();
  nl.cell("ram", "RAMB18E2", {{"CLKARDCLK", {1}}, {"DOUTADOUT", {d}}, {"ADDRARDADDR", {"0"}}}, json::object(),
          {{"CLKARDCLK", "input"}, {"DOUTADOUT", "output"}, {"ADDRARDADDR", "input"}});
  nl.cell("l", "LUT1", {{"I0", {d}}, {"O", {o}}});
  nl.ff("dst", o, nl.bit());
  const TimingResult r = analyze_timing(nl.done());
  EXPECT_TRUE(r.reg_to_reg.lower_bound);
  EXPECT_EQ(r.reg_to_reg.counts.bram, 0);  // the RAM starts the path; it is not on it
  ASSERT_EQ(r.uncosted.size(), 1u);
  EXPECT_NE(r.uncosted[0].find("RAMB18E2"), std::string::npos);
  EXPECT_NE(r.uncosted[0].find("cannot be costed"), std::string::npos);
}

TEST(RtlTiming, NotANetlistIsAClearError) {
  EXPECT_THROW(analyze_timing(json{{"x", 1}}), Error);
  EXPECT_THROW(analyze_timing(json{{"modules", {{"a", json::object()}, {"b", json::object()}}}}), Error);
}

}  // namespace
}  // namespace inrarch::rtl
