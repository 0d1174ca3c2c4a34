// .npy reader/writer: round-trips, hand-assembled files with known values, and malformed
// files.
#include <gtest/gtest.h>

#include <cmath>

#include "io_test_util.h"
#include "ir/bundle.h"

namespace inrarch::ir {
namespace {

using testing::expect_error;
using testing::slurp;
using testing::spit;
using testing::TempDir;

// An .npy file assembled by hand: magic, version, little-endian header length, header, data.
std::string npy_bytes(int major, const std::string& header, const std::string& data) {
  std::string out = "\x93NUMPY";
  out += static_cast<char>(major);
  out += '\0';
  const size_t len_bytes = major == 1 ? 2 : 4;
  for (size_t i = 0; i < len_bytes; ++i) out += static_cast<char>((header.size() >> (8 * i)) & 0xff);
  return out + header + data;
}

std::string bytes(std::initializer_list<int> bs) {
  std::string s;
  for (int b : bs) s += static_cast<char>(b);
  return s;
}

TEST(Npy, RoundTripShapes) {
  TempDir dir;
  for (const Shape& shape : {Shape{}, Shape{0}, Shape{3}, Shape{2, 3, 4}, Shape{1, 0, 5}}) {
    std::vector<double> data;
    for (int64_t i = 0; i < numel(shape); ++i) data.push_back(std::ldexp(1.0 + 0.1 * i, static_cast<int>(i) - 5));
    if (shape.empty()) data = {-1.0 / 3.0};
    const Tensor t(shape, data);
    write_npy(t, dir / "t.npy");
    const Tensor back = read_npy(dir / "t.npy");
    EXPECT_EQ(back.shape, shape) << shape_str(shape);
    EXPECT_TRUE(testing::same_values(back.data, data)) << shape_str(shape);
  }
}

TEST(Npy, RoundTripKeepsNonFiniteAndNegativeZero) {
  TempDir dir;
  const std::vector<double> data = {HUGE_VAL, -HUGE_VAL, std::nan(""), -0.0, 5e-324};
  write_npy(Tensor({5}, data), dir / "t.npy");
  EXPECT_TRUE(testing::same_values(read_npy(dir / "t.npy").data, data));
}

TEST(Npy, ReadsHandWrittenFloat64) {
  TempDir dir;
  // 1.5 = 0x3FF8000000000000, -2.0 = 0xC000000000000000, little-endian.
  spit(dir / "a.npy", npy_bytes(1, "{'descr': '<f8', 'fortran_order': False, 'shape': (2,), }\n",
                                bytes({0, 0, 0, 0, 0, 0, 0xF8, 0x3F, 0, 0, 0, 0, 0, 0, 0, 0xC0})));
  const Tensor t = read_npy(dir / "a.npy");
  EXPECT_EQ(t.shape, (Shape{2}));
  EXPECT_EQ(t.data, (std::vector<double>{1.5, -2.0}));
}

// A 0-d array (a loss) as numpy writes it: shape (), one value; written back as ().
TEST(Npy, ReadsAndWritesZeroDimensionalArrays) {
  TempDir dir;
  spit(dir / "loss.npy", npy_bytes(1, "{'descr': '<f8', 'fortran_order': False, 'shape': (), }\n",
                                   bytes({0, 0, 0, 0, 0, 0, 0xF8, 0x3F})));
  const Tensor t = read_npy(dir / "loss.npy");
  EXPECT_EQ(t.shape, Shape{});
  EXPECT_EQ(t.data, (std::vector<double>{1.5}));
  write_npy(t, dir / "back.npy");
  EXPECT_NE(slurp(dir / "back.npy").find("'shape': ()"), std::string::npos);
  EXPECT_EQ(read_npy(dir / "back.npy").shape, Shape{});
}

TEST(Npy, ReadsOtherDtypesAndHeaderVersions) {
  TempDir dir;
  // float32 1.0 = 0x3F800000, -0.5 = 0xBF000000; version 2 header, keys in another order.
  spit(dir / "f4.npy", npy_bytes(2, "{'shape': (1, 2), 'fortran_order': False, 'descr': '<f4'}",
                                 bytes({0, 0, 0x80, 0x3F, 0, 0, 0, 0xBF})));
  EXPECT_EQ(read_npy(dir / "f4.npy").data, (std::vector<double>{1.0, -0.5}));
  EXPECT_EQ(read_npy(dir / "f4.npy").shape, (Shape{1, 2}));
  // int32 2x2: 258, -2, 65536, 0; version 3.
  spit(dir / "i4.npy", npy_bytes(3, "{\"descr\": \"<i4\", \"fortran_order\": False, \"shape\": (2, 2)}",
                                 bytes({2, 1, 0, 0, 0xFE, 0xFF, 0xFF, 0xFF, 0, 0, 1, 0, 0, 0, 0, 0})));
  EXPECT_EQ(read_npy(dir / "i4.npy").data, (std::vector<double>{258, -2, 65536, 0}));
  // int64 scalar -1.
  spit(dir / "i8.npy", npy_bytes(1, "{'descr': '<i8', 'fortran_order': False, 'shape': (), }",
                                 bytes({0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF})));
  EXPECT_EQ(read_npy(dir / "i8.npy").data, (std::vector<double>{-1}));
  EXPECT_EQ(read_npy(dir / "i8.npy").shape, Shape{});
  spit(dir / "b1.npy", npy_bytes(1, "{'descr': '|b1', 'fortran_order': False, 'shape': (3,), }", bytes({1, 0, 1})));
  EXPECT_EQ(read_npy(dir / "b1.npy").data, (std::vector<double>{1, 0, 1}));
}

TEST(Npy, WriterEmitsNumpyV1Layout) {
  TempDir dir;
  write_npy(Tensor({2, 3}, {0, 1, 2, 3, 4, 5}), dir / "w.npy");
  const std::string b = slurp(dir / "w.npy");
  const std::string dict = "{'descr': '<f8', 'fortran_order': False, 'shape': (2, 3), }";
  // NumPy pads the header so the data starts on a 64-byte boundary: 10 + 118 = 128 (this is
  // the familiar "\x93NUMPY\x01\x00v\x00" prefix of a small float64 array).
  ASSERT_EQ(b.size(), 128u + 48u);
  EXPECT_EQ(b.substr(0, 10), std::string("\x93NUMPY\x01\x00v\x00", 10));
  EXPECT_EQ(b.substr(10, dict.size()), dict);
  EXPECT_EQ(b.substr(10 + dict.size(), 128 - 10 - dict.size()), std::string(117 - dict.size(), ' ') + "\n");
  EXPECT_EQ(b.substr(128 + 8, 8), bytes({0, 0, 0, 0, 0, 0, 0xF0, 0x3F}));  // 1.0
}

TEST(NpyError, TruncatedDataNamesFileAndByteCounts) {
  TempDir dir;
  spit(dir / "short.npy", npy_bytes(1, "{'descr': '<f8', 'fortran_order': False, 'shape': (2, 3), }\n",
                                    std::string(40, '\0')));
  expect_error([&] { read_npy(dir / "short.npy"); }, {"short.npy", "truncated", "needs 48 bytes, found 40"});
}

TEST(NpyError, MalformedFiles) {
  TempDir dir;
  auto bad = [&](const std::string& content, std::initializer_list<std::string> parts) {
    spit(dir / "bad.npy", content);
    expect_error([&] { read_npy(dir / "bad.npy"); }, parts);
  };
  bad(npy_bytes(1, "{'descr': '<f8', 'fortran_order': True, 'shape': (1,), }", std::string(8, '\0')),
      {"bad.npy", "Fortran-order"});
  bad(npy_bytes(1, "{'descr': '>f8', 'fortran_order': False, 'shape': (1,), }", std::string(8, '\0')),
      {"bad.npy", "unsupported dtype '>f8'"});
  bad(npy_bytes(1, "{'descr': '<f8', 'fortran_order': False, 'shape': (1,), }", std::string(9, '\0')),
      {"bad.npy", "1 unexpected bytes after the data"});
  bad(npy_bytes(1, "{'descr': '<f8', 'fortran_order': False, 'shape': (-1,), }", ""), {"bad.npy", "bad .npy header"});
  bad(npy_bytes(1, "{'descr': '<f8', 'fortran_order': False, 'shape': (99999999999, 99999999999), }", ""),
      {"bad.npy", "more elements than the limit"});
  bad(npy_bytes(1, "{'descr': [('a', '<f8')], 'fortran_order': False, 'shape': (1,), }", ""),
      {"bad.npy", "structured dtypes"});
  bad(npy_bytes(4, "{}", ""), {"bad.npy", "unsupported .npy version 4"});
  bad(npy_bytes(1, "{'descr': '<f8'", "") .substr(0, 12), {"bad.npy", "truncated .npy header"});
  bad("PK\x03\x04 this is a zip file", {"bad.npy", "not a .npy file"});
  expect_error([&] { read_npy(dir / "absent.npy"); }, {"absent.npy", "cannot open"});
}

TEST(NpyError, CorruptedHeadersNeverCrash) {
  TempDir dir;
  const std::string good = npy_bytes(1, "{'descr': '<f8', 'fortran_order': False, 'shape': (2, 3), }\n",
                                     std::string(48, '\0'));
  for (size_t n = 0; n < 80; ++n) {
    spit(dir / "c.npy", good.substr(0, n));
    EXPECT_THROW(read_npy(dir / "c.npy"), Error);
  }
  for (size_t i = 6; i < 72; ++i) {
    std::string t = good;
    t[i] = static_cast<char>(t[i] ^ 0x5A);
    spit(dir / "c.npy", t);
    try {
      read_npy(dir / "c.npy");
    } catch (const Error&) {
    }
  }
}

}  // namespace
}  // namespace inrarch::ir
