// Helpers for the text IR / graph.json / .npy / bundle tests.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <random>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "support/error.h"
#include "ir/graph.h"

namespace inrarch::ir::testing {

namespace fs = std::filesystem;

inline fs::path golden_ir_dir() { return fs::path(INRARCH_SOURCE_DIR) / "tests" / "golden" / "ir"; }

inline std::vector<fs::path> golden_ir_files() {
  std::vector<fs::path> out;
  for (const auto& e : fs::directory_iterator(golden_ir_dir()))
    if (e.path().extension() == ".ir") out.push_back(e.path());
  std::sort(out.begin(), out.end());
  return out;
}

inline std::string slurp(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

inline void spit(const fs::path& p, const std::string& bytes) {
  std::ofstream out(p, std::ios::binary | std::ios::trunc);
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
}

// Bitwise, so that nan == nan and -0.0 != 0.0.
inline bool same_double(double a, double b) { return std::bit_cast<uint64_t>(a) == std::bit_cast<uint64_t>(b); }

inline bool same_values(const std::vector<double>& a, const std::vector<double>& b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), same_double);
}

// Node-by-node equality that looks through dense-constant indices to their contents.
inline void expect_same_graph(const Graph& a, const Graph& b) {
  EXPECT_EQ(a.name(), b.name());
  ASSERT_EQ(a.size(), b.size());
  for (NodeId i = 0; i < a.size(); ++i) {
    const Node &x = a.node(i), &y = b.node(i);
    SCOPED_TRACE(::testing::Message() << "node %" << i << " " << op_name(x.op));
    EXPECT_EQ(x.op, y.op);
    EXPECT_EQ(x.operands, y.operands);
    EXPECT_EQ(x.shape, y.shape);
    Attrs xa = x.attrs, ya = y.attrs;
    EXPECT_TRUE(same_double(xa.value, ya.value)) << xa.value << " vs " << ya.value;
    ASSERT_EQ(xa.dense >= 0, ya.dense >= 0);
    if (xa.dense >= 0) {
      EXPECT_EQ(a.tensor(xa.dense).shape, b.tensor(ya.dense).shape);
      EXPECT_TRUE(same_values(a.tensor(xa.dense).data, b.tensor(ya.dense).data));
    }
    xa.value = ya.value = 0;
    xa.dense = ya.dense = 0;
    EXPECT_EQ(xa, ya);
  }
  EXPECT_EQ(a.outputs(), b.outputs());
}

// A fresh folder under the system temp dir, removed with everything in it at scope exit.
class TempDir {
 public:
  TempDir() {
    std::random_device rd;
    path_ = fs::temp_directory_path() / ("inrarch_io_test_" + std::to_string(rd()) + std::to_string(rd()));
    fs::create_directories(path_);
  }
  ~TempDir() {
    std::error_code ec;
    fs::remove_all(path_, ec);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  const fs::path& path() const { return path_; }
  fs::path operator/(const std::string& s) const { return path_ / s; }

 private:
  fs::path path_;
};

// Runs f, expecting an inrarch::Error of class E (Error or a subclass) whose message
// contains every one of `parts`.
template <typename E, typename F>
void expect_error_of(F&& f, std::initializer_list<std::string> parts) {
  try {
    f();
    ADD_FAILURE() << "expected an inrarch::Error";
  } catch (const Error& e) {
    const std::string msg = e.what();
    if constexpr (!std::is_same_v<E, Error>)
      if (!dynamic_cast<const E*>(&e)) ADD_FAILURE() << "an Error of another class: " << msg;
    for (const std::string& p : parts) EXPECT_NE(msg.find(p), std::string::npos) << "'" << p << "' not in: " << msg;
  }
}

template <typename F>
void expect_error(F&& f, std::initializer_list<std::string> parts) {
  expect_error_of<Error>(std::forward<F>(f), parts);
}

// A LimitError (support/limits.h): a file past one of the tool's limits.
template <typename F>
void expect_limit(F&& f, std::initializer_list<std::string> parts) {
  expect_error_of<LimitError>(std::forward<F>(f), parts);
}

}  // namespace inrarch::ir::testing
