// sqrt for ap_fixed (fixed_sqrt.h): the digit recurrence against the defining inequality
// q² <= d < (q + 1)² (in 128-bit integers) on exact squares, their neighbours, random and
// boundary radicands; fx_sqrt on exact squares, the least and largest positive values,
// zero and negatives, in three types (one whose radicand is over 64 bits).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <random>

#include "backend/hls/include/fixed_sqrt.h"

namespace {

using inrarch_hls::fx_sqrt;
using inrarch_hls::isqrt_nonrestoring;
using u128 = unsigned __int128;

bool is_floor_root(uint64_t d, uint64_t q) {
  return u128(q) * q <= d && u128(q + 1) * (q + 1) > d;
}

TEST(FixedSqrt, IntegerRootOfSquaresAndTheirNeighbours) {
  for (uint64_t k = 0; k <= 70000; ++k) {
    const uint64_t sq = k * k;
    ASSERT_EQ(isqrt_nonrestoring<64>(sq), k) << k;
    if (k > 0) ASSERT_EQ(isqrt_nonrestoring<64>(sq - 1), k - 1) << k;
    ASSERT_EQ(isqrt_nonrestoring<64>(sq + 2 * k), k) << k;  // (k + 1)² − 1
  }
  EXPECT_EQ(isqrt_nonrestoring<2>(3), 1u);
  EXPECT_EQ(isqrt_nonrestoring<1>(1), 1u);
  EXPECT_EQ(isqrt_nonrestoring<53>((uint64_t(1) << 53) - 1), 94906265u);  // floor(2^26.5)
  EXPECT_EQ(isqrt_nonrestoring<64>(~uint64_t(0)), 0xFFFFFFFFu);
  const uint64_t k32 = 0xFFFFFFFFull;
  EXPECT_EQ(isqrt_nonrestoring<64>(k32 * k32), k32);
  EXPECT_EQ(isqrt_nonrestoring<64>(k32 * k32 - 1), k32 - 1);
}

TEST(FixedSqrt, IntegerRootOfRandomRadicands) {
  std::mt19937_64 rng(5);
  for (int i = 0; i < 200000; ++i) {
    const uint64_t d = rng() >> (rng() % 64);
    ASSERT_TRUE(is_floor_root(d, isqrt_nonrestoring<64>(d))) << d;
    const uint64_t d53 = d & ((uint64_t(1) << 53) - 1);
    ASSERT_TRUE(is_floor_root(d53, isqrt_nonrestoring<53>(d53))) << d53;
  }
}

template <class T, int F>
T from_raw(int64_t raw) { return inrarch_hls::from_raw_scaled<T, F>(raw); }
template <class T>
int64_t raw(const T& x) { return inrarch_hls::raw_of(x); }

TEST(FixedSqrt, Fixed32ExactSquaresAndBoundaries) {
  typedef ap_fixed<32, 10> T;  // F = 22: (k · 2^-11)² = k² · 2^-22 is exact
  for (int64_t k = 1; k < 46340; k += 7) EXPECT_EQ(raw(fx_sqrt(from_raw<T, 22>(k * k))), k << 11) << k;
  EXPECT_EQ(raw(fx_sqrt(from_raw<T, 22>(1))), 1 << 11);      // least positive: 2^-11
  EXPECT_EQ(raw(fx_sqrt(T(4.0))), 2 << 22);
  EXPECT_EQ(raw(fx_sqrt(T(0.25))), 1 << 21);
  const int64_t max_raw = (int64_t(1) << 31) - 1;  // 512 − 2^-22
  const int64_t top = raw(fx_sqrt(from_raw<T, 22>(max_raw)));
  EXPECT_TRUE(is_floor_root(uint64_t(max_raw) << 22, uint64_t(top))) << top;
  EXPECT_NEAR(top * std::ldexp(1.0, -22), std::sqrt(512.0), 1e-6);
  EXPECT_EQ(raw(fx_sqrt(T(0.0))), 0);
  EXPECT_EQ(raw(fx_sqrt(T(-3.5))), 0);
  EXPECT_EQ(raw(fx_sqrt(from_raw<T, 22>(-max_raw - 1))), 0);  // the least value
  std::mt19937_64 rng(3);
  for (int i = 0; i < 100000; ++i) {
    const int64_t r = int64_t(rng() >> 33);
    ASSERT_TRUE(is_floor_root(uint64_t(r) << 22, uint64_t(raw(fx_sqrt(from_raw<T, 22>(r)))))) << r;
  }
}

TEST(FixedSqrt, Fixed16) {
  typedef ap_fixed<16, 6> T;  // F = 10
  for (int64_t r = 0; r < 32768; ++r)
    ASSERT_TRUE(is_floor_root(uint64_t(r) << 10, uint64_t(raw(fx_sqrt(from_raw<T, 10>(r)))))) << r;
}

// fixed<64,24>: F = 40, the radicand r << 40 would be 103 bits; it is r << 0 and the root
// is shifted by 20, so its low 20 bits are zero and it is within 2^20 LSBs below the truth.
TEST(FixedSqrt, WideTypeDropsTheRadicandsLowBits) {
  typedef ap_fixed<64, 24> T;
  static_assert(inrarch_hls::sqrt_shift<64, 40>::value == 0, "");
  static_assert(inrarch_hls::sqrt_shift<48, 38>::value == 16, "");
  static_assert(inrarch_hls::sqrt_shift<32, 22>::value == 22, "");
  std::mt19937_64 rng(9);
  for (int i = 0; i < 20000; ++i) {
    const int64_t r = int64_t(rng() >> 1);
    const int64_t y = raw(fx_sqrt(from_raw<T, 40>(r)));
    ASSERT_EQ(y & ((1 << 20) - 1), 0) << r;
    ASSERT_TRUE(is_floor_root(uint64_t(r), uint64_t(y >> 20))) << r;
  }
  EXPECT_EQ(raw(fx_sqrt(T(16.0))), int64_t(4) << 40);
}

TEST(FixedSqrt, FloatingPointIsTheCLibrary) {
  EXPECT_EQ(fx_sqrt(2.0), std::sqrt(2.0));
  EXPECT_EQ(fx_sqrt(2.0f), std::sqrt(2.0f));
  EXPECT_EQ(fx_sqrt(0.0), 0.0);
}

}  // namespace
