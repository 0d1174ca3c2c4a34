// compile's OUT/bundle keeps the source bundle's meta.json, so `eval --check OUT/bundle`
// judges a float32 reference with float32's default tolerance.
#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "run_cli.h"

namespace {

namespace fs = std::filesystem;
using inrarch::test::run_cli;

TEST(BundleMeta, CompileKeepsTheSourceDtype) {
  const fs::path dir = fs::temp_directory_path() / ("inrarch_bundle_meta_" + std::to_string(getpid()));
  fs::remove_all(dir);
  auto r = run_cli("model insp --order 1 --batch 4 --width 16 -o " + (dir / "b").string());
  ASSERT_EQ(r.code, 0) << r.output;
  std::ofstream(dir / "b" / "meta.json") << R"({"source_dtype": "float32"})";
  r = run_cli("compile " + (dir / "b").string() + " --no-hls --no-mlir -q -o " + (dir / "o").string());
  ASSERT_EQ(r.code, 0) << r.output;
  ASSERT_TRUE(fs::exists(dir / "o" / "bundle" / "meta.json"));
  r = run_cli("eval " + (dir / "o" / "bundle").string() + " --check -q");
  EXPECT_EQ(r.code, 0) << r.output;
  EXPECT_NE(r.output.find("rtol 1.0e-04 (float32 reference)"), std::string::npos) << r.output;
  fs::remove_all(dir);
}

}  // namespace
