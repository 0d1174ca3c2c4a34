// ap_int / ap_uint compat semantics: result widths (Vitis rules), wraparound mod 2^W,
// C division/remainder, shifts, bitwise ops, conversions, mixing with C ints and ap_fixed.
#include <gtest/gtest.h>

#include <random>
#include <type_traits>

#include "ap_reference.h"
#include "backend/hls/include/compat/ap_fixed.h"
#include "backend/hls/include/compat/ap_int.h"

namespace {

using ap_ref::i128;

i128 wrap(i128 v, int w, bool s) { return ap_ref::overflow(v, w, s, ap_ref::O::wrap); }

typedef ap_int<13> I13;
typedef ap_uint<9> U9;
static_assert(std::is_same<decltype(I13() + U9()), ap_int<14>>::value, "+: max(13, 9+1)+1");
static_assert(std::is_same<decltype(U9() + U9()), ap_uint<10>>::value, "unsigned +");
static_assert(std::is_same<decltype(U9() - U9()), ap_int<10>>::value, "- is signed");
static_assert(std::is_same<decltype(I13() * U9()), ap_int<22>>::value, "*: W1+W2");
static_assert(std::is_same<decltype(I13() / I13()), ap_int<14>>::value, "/: W1+S2");
static_assert(std::is_same<decltype(U9() / U9()), ap_uint<9>>::value, "unsigned /");
static_assert(std::is_same<decltype(I13() % U9()), ap_int<10>>::value, "%: min(W1, W2+1)");
static_assert(std::is_same<decltype(I13() & U9()), ap_int<13>>::value, "&: max(13, 10)");
static_assert(std::is_same<decltype(I13() + 1), ap_int<33>>::value, "int is ap_int<32>");
static_assert(std::is_same<decltype(I13() << 2), ap_int<13>>::value, "shift keeps type");
static_assert(std::is_same<decltype(-U9()), ap_int<10>>::value, "unary - widens");
static_assert(std::is_same<decltype(I13() * ap_fixed<8, 2>()), ap_fixed<21, 15>>::value,
              "ap_int * ap_fixed is fixed, ap_int as ap_fixed<13,13>");

TEST(ApInt, ArithmeticAgainstIntegers) {
  std::mt19937_64 rng(11);
  for (int i = 0; i < 50000; ++i) {
    const i128 a = ap_ref::random_raw(rng, 13, true), b = ap_ref::random_raw(rng, 9, false);
    const I13 x = static_cast<long long>(a);
    const U9 y = static_cast<unsigned long long>(b);
    ASSERT_TRUE(x.raw() == a && y.raw() == b);
    ASSERT_TRUE((x + y).raw() == a + b);
    ASSERT_TRUE((x - y).raw() == a - b);
    ASSERT_TRUE((y - x).raw() == b - a);
    ASSERT_TRUE((x * y).raw() == a * b);
    if (b != 0) {
      ASSERT_TRUE((x / y).raw() == a / b);  // C: toward zero
      ASSERT_TRUE((x % y).raw() == a % b);  // C: sign of the dividend
    }
    ASSERT_TRUE((x & y).raw() == (a & b));
    ASSERT_TRUE((x | y).raw() == wrap(a | b, 13, true));
    ASSERT_TRUE((x ^ y).raw() == wrap(a ^ b, 13, true));
    ASSERT_TRUE((~x).raw() == -a - 1);
    const int sh = static_cast<int>(rng() % 14);
    ASSERT_TRUE((x << sh).raw() == wrap(a * ap_ref::pow2(sh), 13, true));
    ASSERT_TRUE((x >> sh).raw() == ap_ref::floor_div(a, ap_ref::pow2(sh)));  // arithmetic
    ASSERT_TRUE((y >> sh).raw() == b / ap_ref::pow2(sh));                    // logical
    I13 acc = x;
    acc += y;  // wraps to 13 bits
    ASSERT_TRUE(acc.raw() == wrap(a + b, 13, true));
    acc = x;
    acc *= y;
    ASSERT_TRUE(acc.raw() == wrap(a * b, 13, true));
    U9 u = y;
    u -= x;
    ASSERT_TRUE(u.raw() == wrap(b - a, 9, false));
  }
}

TEST(ApInt, EdgeCasesAndWrap) {
  ap_int<8> m = 127;
  ++m;
  EXPECT_EQ(m.to_int(), -128);
  m--;
  EXPECT_EQ(m.to_int(), 127);
  EXPECT_EQ(ap_int<8>(-128 - 1).to_int(), 127);
  EXPECT_EQ(ap_uint<8>(-1).to_uint(), 255u);
  EXPECT_EQ(ap_uint<8>(256 + 7).to_uint(), 7u);
  EXPECT_EQ((-ap_int<8>(-128)).to_int(), 128);  // ap_int<9>: exact
  EXPECT_EQ((ap_int<8>(-128) / ap_int<8>(-1)).to_int(), 128);
  EXPECT_EQ((ap_int<8>(-7) / 2).to_int(), -3);
  EXPECT_EQ((ap_int<8>(-7) % 2).to_int(), -1);
  EXPECT_EQ((ap_int<8>(5) / ap_int<8>(0)).to_int(), 0);  // documented: x/0 -> 0
  const ap_int<64> big = -1;
  EXPECT_EQ(big.to_int64(), -1);
  EXPECT_EQ(ap_uint<64>(~0ull).to_uint64(), ~0ull);
  EXPECT_TRUE((ap_uint<64>(~0ull) * ap_uint<63>(2)).raw() ==
              (ap_ref::pow2(64) - 1) * 2);  // 127-bit product
}

TEST(ApInt, Conversions) {
  EXPECT_EQ(ap_int<8>(-7.9).to_int(), -7);  // double: toward zero
  EXPECT_EQ(ap_int<8>(7.9).to_int(), 7);
  EXPECT_EQ(ap_int<8>(300.0).to_int(), 44);  // then wrap
  EXPECT_EQ(ap_int<8>(ap_fixed<8, 4>(-7.5)).to_int(), -7);  // from ap_fixed: toward zero
  EXPECT_EQ(ap_uint<4>(ap_fixed<16, 8>(19.75)).to_uint(), 3u);
  EXPECT_EQ((ap_fixed<8, 4>(ap_int<8>(5))).to_double(), 5.0);
  EXPECT_EQ((ap_fixed<8, 4>(ap_int<8>(9))).to_double(), -7.0);  // WRAP
  const long long l = ap_int<20>(-12345);  // implicit conversion (array index, C ops)
  EXPECT_EQ(l, -12345);
  int table[4] = {10, 20, 30, 40};
  const ap_uint<2> idx = 3;
  EXPECT_EQ(table[idx], 40);
  ap_uint<12> r = 0;
  r.range(7, 4) = 0xFull;
  EXPECT_EQ(r.to_uint(), 0xF0u);
  r[11] = true;
  EXPECT_EQ(r.to_uint(), 0x8F0u);
  EXPECT_TRUE(r[4]);
  EXPECT_FALSE(r[3]);
}

TEST(ApInt, ComparisonsMixed) {
  std::mt19937_64 rng(12);
  for (int i = 0; i < 20000; ++i) {
    const i128 a = ap_ref::random_raw(rng, 13, true), b = ap_ref::random_raw(rng, 9, false);
    const I13 x = static_cast<long long>(a);
    const U9 y = static_cast<unsigned long long>(b);
    ASSERT_EQ(x < y, a < b);
    ASSERT_EQ(x >= y, a >= b);
    ASSERT_EQ(x == y, a == b);
    const int k = static_cast<int>(rng() % 600) - 300;
    ASSERT_EQ(x < k, a < k);
    ASSERT_EQ(k <= y, k <= b);
    ASSERT_EQ(x != k, a != k);
  }
  int count = 0;
  for (ap_uint<4> i = 0; i < 10; ++i) ++count;  // the usual HLS loop counter
  EXPECT_EQ(count, 10);
}

}  // namespace
