// Shared helpers of the HLS backend tests: designs built from graphs, output folders.
#pragma once

#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <sstream>
#include <filesystem>
#include <random>
#include <stdexcept>
#include <string>

#include <unistd.h>

#include "autodiff/models.h"
#include "backend/hls/hls.h"
#include "dataflow/event_graph.h"
#include "dataflow/fifo_sizing.h"
#include "dataflow/lower.h"
#include "passes/pipeline.h"

namespace inrarch::hls {
namespace fs = std::filesystem;
}

namespace inrarch::hls::hls_test {

// This process's folder of generated projects, removed when the test process exits
// (INRARCH_KEEP_TEST_DIRS=1 keeps it for inspection). A fresh name from mkdtemp, not the
// pid: test runs in different pid namespaces share /tmp, and one exiting would remove a
// folder another is using. Never destroyed, so the cleanup at exit can still read it.
inline const fs::path& test_root() {
  static const fs::path* root = [] {
    std::string name = (fs::temp_directory_path() / "inrarch_hls_test_XXXXXX").string();
    if (!::mkdtemp(name.data())) throw std::runtime_error("mkdtemp: cannot create a test folder under /tmp");
    return new fs::path(name);
  }();
  return *root;
}
struct TestRootCleanup {
  ~TestRootCleanup() {
    std::error_code ec;
    if (!std::getenv("INRARCH_KEEP_TEST_DIRS")) fs::remove_all(test_root(), ec);
  }
};
inline TestRootCleanup test_root_cleanup;

// A fresh folder for one test's generated project.
inline fs::path out_dir(const std::string& name) {
  (void)&test_root_cleanup;
  fs::path p = test_root() / name;
  fs::remove_all(p);
  fs::create_directories(p);
  return p;
}

// Values for every input and param of g: uniform in [-1, 1), seeded.
inline void fill_bundle(ir::Bundle& b, uint64_t seed = 1) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> u(-1, 1);
  for (const auto& n : b.graph.nodes()) {
    if (n.op != ir::Op::Input && n.op != ir::Op::Param) continue;
    Tensor t(n.shape);
    for (auto& v : t.data) v = u(rng);
    (n.op == ir::Op::Input ? b.inputs : b.params)[n.attrs.name] = t;
  }
}

// Depths from the paper's sizing (deadlock-free at near-peak latency).
inline void size_design(dataflow::Design& d) {
  dataflow::EventGraph eg(d);
  dataflow::SizingOptions so;
  so.method = dataflow::FifoMethod::Paper;
  d.set_depths(dataflow::size_fifos(eg, so).depths);
}

// INSP of the given order at batch 8 (the test size), optimized, lowered and sized.
struct InspCase {
  ir::Bundle bundle;
  dataflow::Design design;
};
inline InspCase insp_case(int64_t width, int order = 1, int64_t batch = 8) {
  autodiff::SirenSpec spec;
  spec.dims = {2, width, width, width, width, 3};
  spec.batch = batch;
  InspCase c{autodiff::build_insp_bundle(spec, order, false), {}};
  passes::optimize_bundle(c.bundle);
  c.design = dataflow::lower(c.bundle.graph);
  size_design(c.design);
  return c;
}

// sin(-x), x of [4,3], output under each of `names` (one value under several names, as
// Taylor mode's symmetric partials are); x's values (uniform in [-1, 1)) times scale.
inline ir::Bundle one_value_named(const std::vector<std::string>& names, double scale) {
  ir::Bundle b;
  ir::Graph& g = b.graph;
  ir::NodeId y = g.unary(ir::Op::Sin, g.unary(ir::Op::Neg, g.input("x", {4, 3})));
  for (const std::string& name : names) g.add_output(name, y);
  fill_bundle(b, 3);
  for (double& v : b.inputs.at("x").data) v *= scale;
  return b;
}

// The text of a generated file.
inline std::string read_file(const fs::path& f) {
  std::ifstream in(f);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

}  // namespace inrarch::hls::hls_test
