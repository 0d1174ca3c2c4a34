// The kernel library as SystemVerilog files (src/backend/rtl/sv/, docs/rtl.md): every file
// holds the one module it is named after, and every module, taken as the top at its own
// default parameters, passes `verilator --lint-only -Wall` and elaborates in Icarus, and
// Yosys parses the library (its elaboration reads the ROM files a design supplies).
// The designs' lint (rtl_kernels_test.cpp) checks them at the parameters a design uses;
// this checks each module on its own, so a module no test design instantiates is linted too.
#include <fmt/format.h>

#include <regex>
#include <set>

#include "backend/rtl/rtl_detail.h"
#include "rtl_test_util.h"
#include "support/files.h"
#include "support/process.h"

namespace inrarch::rtl {
namespace {

namespace fs = std::filesystem;

// The library, written once into a folder of its own.
const fs::path& library_copy() {
  static const fs::path dir = [] {
    fs::path d = hls::hls_test::out_dir("rtl_library");
    for (const auto& f : detail::library_files()) write_file(d / f.name, f.text);
    return d;
  }();
  return dir;
}

std::string module_of(const std::string& file) { return file.substr(0, file.size() - 3); }

TEST(RtlLibrary, EveryFileHoldsTheModuleItIsNamedAfter) {
  const std::regex module_decl(R"((?:^|\n)\s*module\s+([A-Za-z_][A-Za-z0-9_]*))");
  const auto files = detail::library_files();
  ASSERT_GE(files.size(), 20u);  // the stream, elementwise, mm, gather, permute and sum modules
  std::set<std::string> seen;
  for (const auto& f : files) {
    SCOPED_TRACE(f.name);
    std::vector<std::string> modules;
    for (auto it = std::sregex_iterator(f.text.begin(), f.text.end(), module_decl); it != std::sregex_iterator(); ++it)
      modules.push_back((*it)[1]);
    ASSERT_EQ(modules.size(), 1u);
    EXPECT_EQ(modules[0], module_of(f.name));
    EXPECT_TRUE(seen.insert(modules[0]).second);
    EXPECT_EQ(f.text.find("\t"), std::string::npos) << "tabs in " << f.name;
  }
}

TEST(RtlLibrary, EveryModuleLintsOnItsOwn) {
  INRARCH_NEED_TOOL("verilator");
  const fs::path& dir = library_copy();
  for (const auto& f : detail::library_files()) {
    SCOPED_TRACE(f.name);
    const std::string log = (dir / (module_of(f.name) + ".lint.txt")).string();
    const auto r = run_command(fmt::format("cd '{}' && verilator --lint-only -Wall --top-module {} *.sv > '{}' 2>&1",
                                           dir.string(), module_of(f.name), log), 120);
    EXPECT_EQ(r.exit_code, 0) << read_file(log);
  }
}

TEST(RtlLibrary, IcarusAndYosysReadEveryModule) {
  INRARCH_NEED_TOOL("iverilog");
  INRARCH_NEED_TOOL("yosys");
  const fs::path& dir = library_copy();
  for (const auto& f : detail::library_files()) {
    SCOPED_TRACE(f.name);
    const auto r = run_command(fmt::format("cd '{}' && iverilog -g2012 -s {} -o /dev/null *.sv > icarus.txt 2>&1",
                                           dir.string(), module_of(f.name)), 120);
    EXPECT_EQ(r.exit_code, 0) << read_file(dir / "icarus.txt");
  }
  const auto r = run_command(fmt::format("cd '{}' && yosys -q -p 'read_verilog -sv -defer *.sv' > yosys.txt 2>&1", dir.string()), 120);
  EXPECT_EQ(r.exit_code, 0) << read_file(dir / "yosys.txt");
}

TEST(RtlLibrary, IsFoundBesideTheTool) {
  // library_dir() looks beside the running executable: this test binary's folder holds
  // the build's share/inrarch/rtl link to the sources.
  const fs::path dir = detail::library_dir();
  EXPECT_EQ(dir.filename(), "rtl");
  EXPECT_TRUE(fs::exists(dir / "inrarch_fifo.sv"));
}

}  // namespace
}  // namespace inrarch::rtl
