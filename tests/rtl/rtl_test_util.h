// Shared helpers of the RTL backend tests: tool checks, a design from a graph with its HLS
// project (the bits the RTL must equal) and RTL folder.
#pragma once

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <utility>
#include <string>

#include "../hls_emit/hls_test_util.h"
#include "backend/rtl/rtl.h"
#include "driver/rtl_stage.h"

namespace inrarch::rtl::rtl_test {

namespace fs = std::filesystem;

inline bool have(const std::string& tool) {
  return std::system(("command -v " + tool + " > /dev/null 2>&1").c_str()) == 0;
}

#define INRARCH_NEED_TOOL(tool)                                                             \
  if (!::inrarch::rtl::rtl_test::have(tool))                                                \
  GTEST_SKIP() << tool " is not installed (scripts/install-deps.sh installs it)"

// A lowered, sized design of `b` (`mm_par` MACs per mm), its HLS project in dir/hls and its
// RTL in dir/rtl (both with the options `ho`: its type, its exponents' calibration).
struct Case {
  ir::Bundle bundle;
  dataflow::Design design;
  fs::path dir;
};

inline Case emit_case(ir::Bundle b, const std::string& name, const dataflow::LowerOptions& lo,
                      const hls::HlsOptions& ho = {}) {
  Case c{std::move(b), {}, hls::hls_test::out_dir("rtl_" + name)};
  c.design = dataflow::lower(c.bundle.graph, lo);
  hls::hls_test::size_design(c.design);
  hls::emit_hls(c.design, c.bundle, ho, c.dir / "hls");
  emit_rtl(c.design, c.bundle, driver::rtl_options(c.design, c.bundle, ho), c.dir / "rtl");
  return c;
}

inline Case emit_case(ir::Bundle b, const std::string& name, int64_t block = 1, const hls::HlsOptions& ho = {},
                      int64_t mm_par = 1) {
  dataflow::LowerOptions lo;
  lo.block = block;
  lo.mm_par = mm_par;
  return emit_case(std::move(b), name, lo, ho);
}

// Runs c's RTL under random stalls (lint too) and without: bit-exact and following the
// schedules both times, without stalls in the event graph's latency (resolved here).
inline void expect_exact(const Case& c) {
  for (double stall : {0.3, 0.0}) {
    RtlRunOptions ro;
    ro.lint = stall > 0;
    ro.stall_in = ro.stall_out = stall;
    const RtlRun r = run_rtl(c.design, c.dir / "rtl", ro);
    SCOPED_TRACE(to_json(r).dump());
    EXPECT_TRUE(r.pass);
    EXPECT_TRUE(r.bit_exact());
    EXPECT_TRUE(r.trace->pass);
    if (stall > 0) {
      EXPECT_EQ(r.lint, "clean");
      continue;
    }
    dataflow::EventGraph eg(c.design);
    EXPECT_EQ(r.cycles(), eg.resolve(c.design.depths()).latency);
  }
}

// c's RTL, whose outputs saturate (so `pass` is false), under random stalls and without:
// bit-exact flags included and on schedule both times, the event graph's cycles without.
// Returns how many of the C simulation's output beats carry the flag, and how many there are.
inline std::pair<int, int> expect_exact_flagged(const Case& c) {
  for (double stall : {0.3, 0.0}) {
    RtlRunOptions ro;
    ro.stall_in = ro.stall_out = stall;
    const RtlRun r = run_rtl(c.design, c.dir / "rtl", ro);
    SCOPED_TRACE(to_json(r).dump());
    EXPECT_TRUE(r.bit_exact());
    EXPECT_TRUE(r.trace->pass);
    if (stall == 0) {
      EXPECT_EQ(r.cycles(), r.model_cycles);
    }
  }
  int flagged = 0, beats = 0;
  for (const auto& f : fs::directory_iterator(c.dir / "rtl" / "csim"))
    if (f.path().extension() == ".txt") {
      std::ifstream in(f.path());
      for (std::string line; std::getline(in, line); ++beats) flagged += line.rfind("1 ", 0) == 0;
    }
  return {flagged, beats};
}

// b lowered with every FIFO at depth 2, where the event graph deadlocks: its RTL hangs, and
// the watchdog says so.
inline void expect_hang_at_depth_two(const ir::Bundle& b, const std::string& name) {
  dataflow::Design d = dataflow::lower(b.graph);
  ASSERT_TRUE(dataflow::EventGraph(d).resolve(d.depths()).deadlock);
  const fs::path dir = hls::hls_test::out_dir("rtl_" + name);
  hls::HlsOptions ho;
  hls::emit_hls(d, b, ho, dir / "hls");
  emit_rtl(d, b, driver::rtl_options(d, b, ho), dir / "rtl");
  RtlRunOptions ro;
  ro.lint = false;
  const RtlRun r = run_rtl(d, dir / "rtl", ro);
  EXPECT_TRUE(r.hang()) << to_json(r).dump();
  EXPECT_FALSE(r.pass) << to_json(r).dump();
  EXPECT_EQ(r.model_cycles, -1) << to_json(r).dump();
}

// The integer parameter `name` of instance u_<process> in the emitted top, or -1.
inline int64_t instance_param(const std::string& top, const std::string& process, const std::string& name) {
  const size_t at = top.find(" u_" + process + " (");
  const size_t p = top.rfind("." + name + "(", at);
  if (at == std::string::npos || p == std::string::npos) return -1;
  return std::stoll(top.substr(p + name.size() + 2));
}

}  // namespace inrarch::rtl::rtl_test
