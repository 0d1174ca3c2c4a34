// `cmake --install` into a temporary prefix gives a tool that works from there: the
// installed binary finds its kernel libraries beside itself, compiles and C-simulates INSP
// and writes its RTL,
// and carries no path of the source tree; the Python front end imports from the prefix.
#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>
#include <string>

#include "support/files.h"
#include "support/process.h"

namespace {

namespace fs = std::filesystem;

// Logs and the binary, as bytes (every file read here exists once its command ran).
std::string slurp(const fs::path& f) { return inrarch::read_file(f); }

TEST(Install, ToolRunsFromAPrefix) {
  const fs::path tmp = fs::temp_directory_path() / ("inrarch_install_" + std::to_string(getpid()));
  fs::remove_all(tmp);
  fs::create_directories(tmp);
  const fs::path prefix = tmp / "prefix", build = fs::path(INRARCH_BINARY).parent_path();
  auto r = inrarch::run_command("cmake --install '" + build.string() + "' --prefix '" + prefix.string() +
                                    "' > '" + (tmp / "install.log").string() + "' 2>&1",
                                300);
  ASSERT_EQ(r.exit_code, 0) << slurp(tmp / "install.log");
  const fs::path bin = prefix / "bin" / "inrarch";
  ASSERT_TRUE(fs::exists(bin));
  ASSERT_TRUE(fs::exists(prefix / "share/inrarch/hls/include/inrarch/kernels.h"));
  ASSERT_TRUE(fs::exists(prefix / "share/inrarch/rtl/inrarch_fifo.sv"));
  // No path of the source tree in the binary. AddressSanitizer's own metadata names each
  // instrumented source file by its full path (a header of the kernel library included by
  // the RTL back end among them), so a sanitizer build is checked only for what the tool
  // used to compile in: a library folder as a string of its own, ended by its NUL.
  const std::string image = slurp(bin);
#ifdef __SANITIZE_ADDRESS__
  for (const char* folder : {"/src/backend/hls/include", "/src/backend/rtl/sv"}) {
    const std::string source_path = std::string(INRARCH_SOURCE_DIR) + folder;
    EXPECT_EQ(image.find(source_path + '\0'), std::string::npos) << source_path << " is compiled in";
  }
#else
  const std::string source_path = INRARCH_SOURCE_DIR;
  EXPECT_EQ(image.find(source_path), std::string::npos) << source_path << " is compiled in";
#endif

  r = inrarch::run_command("'" + bin.string() + "' compile --builtin insp --order 1 --batch 4 --width 16 "
                           "--no-mlir --rtl --no-rtl-sim -q -o '" + (tmp / "out").string() + "' > '" +
                           (tmp / "compile.log").string() + "' 2>&1", 600);
  const std::string log = slurp(tmp / "compile.log");
  ASSERT_EQ(r.exit_code, 0) << log;
  EXPECT_NE(log.find("csim PASS"), std::string::npos) << log;
  EXPECT_TRUE(fs::exists(tmp / "out/hls/include/inrarch/kernels.h"));
  EXPECT_EQ(slurp(tmp / "out/rtl/inrarch_fifo.sv"), slurp(prefix / "share/inrarch/rtl/inrarch_fifo.sv"));

  // The Python package, from the prefix only (run outside the source tree).
  fs::path site;
  for (const auto& e : fs::recursive_directory_iterator(prefix / "lib"))
    if (e.path().filename() == "inrarch_torch") site = e.path().parent_path();
  ASSERT_FALSE(site.empty()) << "no inrarch_torch under " << (prefix / "lib");
  r = inrarch::run_command("cd '" + tmp.string() + "' && PYTHONPATH='" + site.string() + "' " +
                           INRARCH_PYTHON + " -c 'import inrarch_torch, sys; print(inrarch_torch.__file__)' > '" +
                           (tmp / "py.log").string() + "' 2>&1", 120);
  const std::string py = slurp(tmp / "py.log");
  EXPECT_EQ(r.exit_code, 0) << py;
  EXPECT_EQ(py.find(prefix.string()), 0u) << py;
  fs::remove_all(tmp);
}

// A binary without its libraries beside it (copied away from the build folder) stops with
// one error naming the folder it looked for, and writes no output folder.
TEST(Install, AToolWithoutItsRtlLibrarySaysWhereItLooked) {
  const fs::path tmp = fs::temp_directory_path() / ("inrarch_lonely_" + std::to_string(getpid()));
  fs::remove_all(tmp);
  fs::create_directories(tmp / "bin");
  fs::copy_file(INRARCH_BINARY, tmp / "bin" / "inrarch");
  const auto r = inrarch::run_command("'" + (tmp / "bin" / "inrarch").string() + "' compile --builtin insp --order 1 "
                                      "--batch 4 --width 8 --no-csim --no-hls --rtl --no-rtl-sim -q -o '" +
                                      (tmp / "out").string() + "' > '" + (tmp / "log").string() + "' 2>&1", 120);
  const std::string log = slurp(tmp / "log");
  EXPECT_EQ(r.exit_code, 1) << log;
  EXPECT_NE(log.find("rtl: the kernel library (share/inrarch/rtl) is not beside"), std::string::npos) << log;
  EXPECT_FALSE(fs::exists(tmp / "out"));
  fs::remove_all(tmp);
}

}  // namespace
