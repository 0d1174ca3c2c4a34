// ap_fixed compat semantics against the definitions in ap_reference.h: conversions with every
// quantization/overflow mode, exact arithmetic with Vitis's result types, edge cases.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <random>
#include <type_traits>

#include "ap_reference.h"
#include "backend/hls/include/compat/ap_fixed.h"

namespace {

using ap_ref::i128;
using ap_ref::O;
using ap_ref::Q;

constexpr Q ref_q(ap_q_mode q) {
  return q == AP_TRN ? Q::trn : q == AP_TRN_ZERO ? Q::trn_zero : q == AP_RND ? Q::rnd
       : q == AP_RND_ZERO ? Q::rnd_zero : q == AP_RND_MIN_INF ? Q::rnd_min_inf
       : q == AP_RND_INF ? Q::rnd_inf : Q::rnd_conv;
}
constexpr O ref_o(ap_o_mode o) {
  return o == AP_WRAP ? O::wrap : o == AP_SAT ? O::sat : o == AP_SAT_ZERO ? O::sat_zero
                                                                          : O::sat_sym;
}

// A double that is exactly k·2^-e, with k of up to 40 bits: spans in-range, fractional,
// and out-of-range values of the 16-bit targets below.
struct Exact {
  double d;
  i128 k;
  int e;
};
Exact random_exact(std::mt19937_64& rng) {
  const int bits = 1 + static_cast<int>(rng() % 40);
  i128 k = static_cast<i128>(rng() & ((1ull << bits) - 1));
  if (rng() & 1) k = -k;
  const int e = static_cast<int>(rng() % 40);
  return {std::ldexp(static_cast<double>(static_cast<long long>(k)), -e), k, e};
}

template <int W, int I, bool S, ap_q_mode QM, ap_o_mode OM>
void check_from_double(std::mt19937_64& rng, int n) {
  typedef typename ap_compat::fixed_t<W, I, S, QM, OM>::type T;
  for (int i = 0; i < n; ++i) {
    const Exact x = random_exact(rng);
    const T t = x.d;
    const i128 want = ap_ref::convert(x.k, x.e, W, W - I, S, ref_q(QM), ref_o(OM));
    ASSERT_TRUE(t.raw() == want) << "d=" << x.d << " W=" << W << " I=" << I << " q=" << QM
                                 << " o=" << OM << " got " << static_cast<double>(t.raw())
                                 << " want " << static_cast<double>(want);
  }
}

template <ap_q_mode QM>
void check_modes_from_double(std::mt19937_64& rng) {
  check_from_double<16, 6, true, QM, AP_WRAP>(rng, 3000);
  check_from_double<16, 6, true, QM, AP_SAT>(rng, 3000);
  check_from_double<16, 6, true, QM, AP_SAT_ZERO>(rng, 1000);
  check_from_double<16, 6, true, QM, AP_SAT_SYM>(rng, 1000);
  check_from_double<12, 3, false, QM, AP_WRAP>(rng, 2000);
  check_from_double<12, 3, false, QM, AP_SAT>(rng, 2000);
  check_from_double<10, 14, true, QM, AP_WRAP>(rng, 1000);   // I > W: LSB is 2^4
  check_from_double<10, -3, true, QM, AP_SAT>(rng, 1000);    // I < 0: all fraction
}

TEST(ApFixed, FromDoubleEveryMode) {
  std::mt19937_64 rng(1);
  check_modes_from_double<AP_TRN>(rng);
  check_modes_from_double<AP_TRN_ZERO>(rng);
  check_modes_from_double<AP_RND>(rng);
  check_modes_from_double<AP_RND_ZERO>(rng);
  check_modes_from_double<AP_RND_MIN_INF>(rng);
  check_modes_from_double<AP_RND_INF>(rng);
  check_modes_from_double<AP_RND_CONV>(rng);
}

template <int W2, int I2, bool S2, ap_q_mode QM, ap_o_mode OM>
void check_fixed_to_fixed(std::mt19937_64& rng, int n) {
  typedef typename ap_compat::fixed_t<W2, I2, S2, QM, OM>::type T;
  for (int i = 0; i < n; ++i) {
    const i128 raw = ap_ref::random_raw(rng, 30, true);
    const ap_fixed<30, 12> src = ap_fixed<30, 12>::from_raw(raw);
    const T t = src;
    ASSERT_TRUE(t.raw() == ap_ref::convert(raw, 18, W2, W2 - I2, S2, ref_q(QM), ref_o(OM)))
        << "src=" << src.to_double() << " W=" << W2 << " I=" << I2;
  }
}

TEST(ApFixed, FixedToFixed) {
  std::mt19937_64 rng(2);
  check_fixed_to_fixed<16, 6, true, AP_TRN, AP_WRAP>(rng, 5000);
  check_fixed_to_fixed<16, 6, true, AP_RND, AP_SAT>(rng, 5000);
  check_fixed_to_fixed<16, 6, true, AP_RND_CONV, AP_SAT_SYM>(rng, 5000);
  check_fixed_to_fixed<16, 6, true, AP_TRN_ZERO, AP_SAT_ZERO>(rng, 5000);
  check_fixed_to_fixed<14, 4, false, AP_RND_ZERO, AP_SAT>(rng, 5000);
  check_fixed_to_fixed<14, 4, false, AP_TRN, AP_WRAP>(rng, 5000);
  check_fixed_to_fixed<40, 20, true, AP_TRN, AP_WRAP>(rng, 2000);  // widening: exact
}

// Result types: Vitis's rules, worked out by hand for these operands.
typedef ap_fixed<20, 6> A;   // F = 14
typedef ap_fixed<18, 10> B;  // F = 8
typedef ap_ufixed<16, 4> U;  // F = 12
static_assert(std::is_same<decltype(A() + B()), ap_fixed<25, 11>>::value, "+ growth");
static_assert(std::is_same<decltype(A() - B()), ap_fixed<25, 11>>::value, "- growth");
static_assert(std::is_same<decltype(A() * B()), ap_fixed<38, 16>>::value, "* growth");
static_assert(std::is_same<decltype(A() / B()), ap_fixed<29, 15>>::value, "/ growth");
static_assert(std::is_same<decltype(A() + U()), ap_fixed<21, 7>>::value, "signed + unsigned");
static_assert(std::is_same<decltype(U() + U()), ap_ufixed<17, 5>>::value, "unsigned +");
static_assert(std::is_same<decltype(U() - U()), ap_fixed<17, 5>>::value, "unsigned - signed");
static_assert(std::is_same<decltype(-A()), ap_fixed<21, 7>>::value, "unary - widens");
static_assert(std::is_same<decltype(A() * 3), ap_fixed<52, 38>>::value, "int is ap_fixed<32,32>");

TEST(ApFixed, ArithmeticIsExact) {
  std::mt19937_64 rng(3);
  for (int i = 0; i < 20000; ++i) {
    const i128 ra = ap_ref::random_raw(rng, 20, true), rb = ap_ref::random_raw(rng, 18, true);
    const i128 ru = ap_ref::random_raw(rng, 16, false);
    const A a = A::from_raw(ra);
    const B b = B::from_raw(rb);
    const U u = U::from_raw(ru);
    ASSERT_TRUE((a + b).raw() == ra + rb * 64);  // both on 2^-14
    ASSERT_TRUE((a - b).raw() == ra - rb * 64);
    ASSERT_TRUE((b - a).raw() == rb * 64 - ra);
    ASSERT_TRUE((a * b).raw() == ra * rb);       // on 2^-22
    ASSERT_TRUE((a + u).raw() == ra + ru * 4);
    ASSERT_TRUE((u - u).raw() == 0);
    if (rb != 0) {  // (ra·2^8) / rb toward zero, on 2^-14
      ASSERT_TRUE((a / b).raw() == (ra * 256) / rb) << a.to_double() << "/" << b.to_double();
    }
    // Assignment back to a declared type: the quantization happens there.
    const ap_fixed<16, 6> p = a * b;
    ASSERT_TRUE(p.raw() == ap_ref::convert(ra * rb, 22, 16, 10, true, Q::trn, O::wrap));
    const ap_fixed<16, 6, AP_RND, AP_SAT> ps = a * b;
    ASSERT_TRUE(ps.raw() == ap_ref::convert(ra * rb, 22, 16, 10, true, Q::rnd, O::sat));
    A acc = a;
    acc += b;  // compound: exact sum then A's TRN/WRAP
    ASSERT_TRUE(acc.raw() == ap_ref::convert(ra + rb * 64, 14, 20, 14, true, Q::trn, O::wrap));
    acc = a;
    acc *= b;
    ASSERT_TRUE(acc.raw() == ap_ref::convert(ra * rb, 22, 20, 14, true, Q::trn, O::wrap));
  }
}

TEST(ApFixed, EdgeCases) {
  typedef ap_fixed<8, 4> T;  // LSB 1/16, range [-8, 7.9375]
  const T lsb = 0.0625, max = 7.9375, min = -8.0;
  EXPECT_EQ((max + lsb).to_double(), 8.0);       // the sum itself is exact (9 bits)
  EXPECT_EQ(T(max + lsb).to_double(), -8.0);     // AP_WRAP on assignment
  EXPECT_EQ((ap_fixed<8, 4, AP_TRN, AP_SAT>(max + lsb)).to_double(), 7.9375);
  EXPECT_EQ((ap_fixed<8, 4, AP_TRN, AP_SAT_ZERO>(max + lsb)).to_double(), 0.0);
  EXPECT_EQ((ap_fixed<8, 4, AP_TRN, AP_SAT>(min - lsb)).to_double(), -8.0);
  EXPECT_EQ((ap_fixed<8, 4, AP_TRN, AP_SAT_SYM>(min - lsb)).to_double(), -7.9375);
  EXPECT_EQ((ap_fixed<8, 4, AP_TRN, AP_SAT_SYM>(min)).to_double(), -7.9375);
  EXPECT_EQ(T(min - lsb).to_double(), 7.9375);   // wraps to max
  T m1 = max;
  ++m1;
  EXPECT_EQ(m1.to_double(), -7.0625);            // 8.9375 wraps by 16
  EXPECT_EQ((-T(min)).to_double(), 8.0);         // unary minus widens: exact
  EXPECT_EQ(T(-T(min)).to_double(), -8.0);
  // AP_TRN floors: negative values move toward -inf; AP_TRN_ZERO toward 0.
  EXPECT_EQ(T(-0.01).to_double(), -0.0625);
  EXPECT_EQ(T(0.01).to_double(), 0.0);
  EXPECT_EQ((ap_fixed<8, 4, AP_TRN_ZERO>(-0.01)).to_double(), 0.0);
  EXPECT_EQ(T(-1.0 - 1e-9).to_double(), -1.0625);
  // Ties (half an LSB = 1/32).
  EXPECT_EQ((ap_fixed<8, 4, AP_RND>(0.03125)).to_double(), 0.0625);
  EXPECT_EQ((ap_fixed<8, 4, AP_RND>(-0.03125)).to_double(), 0.0);
  EXPECT_EQ((ap_fixed<8, 4, AP_RND_ZERO>(0.03125)).to_double(), 0.0);
  EXPECT_EQ((ap_fixed<8, 4, AP_RND_ZERO>(-0.03125)).to_double(), 0.0);
  EXPECT_EQ((ap_fixed<8, 4, AP_RND_INF>(-0.03125)).to_double(), -0.0625);
  EXPECT_EQ((ap_fixed<8, 4, AP_RND_MIN_INF>(0.03125)).to_double(), 0.0);
  EXPECT_EQ((ap_fixed<8, 4, AP_RND_CONV>(0.03125)).to_double(), 0.0);
  EXPECT_EQ((ap_fixed<8, 4, AP_RND_CONV>(0.09375)).to_double(), 0.125);
  // Rounding up into overflow: 7.96875 rounds to 8, which saturates / wraps.
  EXPECT_EQ((ap_fixed<8, 4, AP_RND, AP_SAT>(7.96875)).to_double(), 7.9375);
  EXPECT_EQ((ap_fixed<8, 4, AP_RND, AP_WRAP>(7.96875)).to_double(), -8.0);
  // Unsigned: negatives wrap mod 2^W or saturate to 0.
  EXPECT_EQ((ap_ufixed<8, 4>(-0.0625)).to_double(), 15.9375);
  EXPECT_EQ((ap_ufixed<8, 4, AP_TRN, AP_SAT>(-3.0)).to_double(), 0.0);
  // Wide intermediates: a 64x64 product and sums of products stay exact.
  const ap_fixed<64, 32> big = -2147483648.0;
  EXPECT_TRUE((big * big).raw() == ap_ref::pow2(62) * ap_ref::pow2(64));
  EXPECT_EQ((ap_fixed<32, 10>(1.5) * ap_fixed<32, 10>(2.5) + ap_fixed<32, 10>(-1.0) *
             ap_fixed<32, 10>(0.25)).to_double(), 3.5);
}

typedef ap_fixed<8, 4> F8_4;
typedef ap_fixed<8, 4, AP_TRN, AP_SAT> F8_4sat;
typedef ap_fixed<12, 12> F12_12;
typedef ap_fixed<10, 14> F10_14;
typedef ap_fixed<32, 10> F32_10;
typedef ap_fixed<16, 16> F16_16;
typedef ap_ufixed<4, 4> U4_4;

TEST(ApFixed, Conversions) {
  EXPECT_EQ(F8_4(-7.5).to_int(), -7);  // toward zero, like a C cast
  EXPECT_EQ(F8_4(7.5).to_int(), 7);
  EXPECT_EQ(F8_4(-0.5).to_int(), 0);
  EXPECT_EQ(F12_12(-2048).to_int64(), -2048);
  EXPECT_EQ(F10_14(100).to_int(), 96);  // LSB is 16: floor
  EXPECT_EQ(F32_10(3).to_double(), 3.0);
  EXPECT_EQ(F32_10(1.25f).to_float(), 1.25f);
  EXPECT_EQ(F16_16(static_cast<short>(-5)).to_int(), -5);
  EXPECT_EQ(F8_4(std::numeric_limits<double>::quiet_NaN()).to_double(), 0.0);
  EXPECT_EQ((F8_4sat(HUGE_VAL)).to_double(), 7.9375);
  EXPECT_EQ((F8_4sat(-HUGE_VAL)).to_double(), -8.0);
  EXPECT_EQ(F8_4(HUGE_VAL).to_double(), 0.0);  // wraps: low bits are zero
  const double d = F32_10(0.1);  // implicit conversion to double
  EXPECT_EQ(d, std::ldexp(std::floor(0.1 * 4194304.0), -22));
  // to_double rounds to nearest even when W > 53: 2^60 + 1 -> 2^60; 2^60 + 2^8 -> ... exact
  const ap_fixed<62, 62> w = ap_fixed<62, 62>::from_raw(ap_ref::pow2(60) + 1);
  EXPECT_EQ(w.to_double(), std::ldexp(1.0, 60));
  // Random round trip: every 32-bit raw is exactly a double.
  std::mt19937_64 rng(4);
  for (int i = 0; i < 10000; ++i) {
    const i128 raw = ap_ref::random_raw(rng, 32, true);
    const F32_10 x = F32_10::from_raw(raw);
    ASSERT_EQ(x.to_double(), std::ldexp(static_cast<double>(static_cast<long long>(raw)), -22));
    ASSERT_TRUE(F32_10(x.to_double()).raw() == raw);
    const long long toward_zero = static_cast<long long>(raw) / (1 << 22);
    ASSERT_EQ(x.to_int(), toward_zero);
  }
}

TEST(ApFixed, Comparisons) {
  std::mt19937_64 rng(5);
  for (int i = 0; i < 20000; ++i) {
    const i128 ra = ap_ref::random_raw(rng, 12, true), ru = ap_ref::random_raw(rng, 10, false);
    const ap_fixed<12, 5> a = ap_fixed<12, 5>::from_raw(ra);    // ra / 128
    const ap_ufixed<10, 8> u = ap_ufixed<10, 8>::from_raw(ru);  // ru / 4
    const i128 x = ra, y = ru * 32;                               // both on 2^-7
    ASSERT_EQ(a < u, x < y);
    ASSERT_EQ(a <= u, x <= y);
    ASSERT_EQ(a > u, x > y);
    ASSERT_EQ(a >= u, x >= y);
    ASSERT_EQ(a == u, x == y);
    ASSERT_EQ(a != u, x != y);
    const int k = static_cast<int>(rng() % 40) - 20;
    ASSERT_EQ(a < k, x < static_cast<i128>(k) * 128);
    ASSERT_EQ(k >= a, static_cast<i128>(k) * 128 >= x);
    ASSERT_EQ(a == k, x == static_cast<i128>(k) * 128);
  }
  EXPECT_TRUE(F8_4(0.5) == 0.5);
  EXPECT_TRUE(F8_4(0.5) < 0.51);
  EXPECT_TRUE(0.49 < F8_4(0.5));
  EXPECT_TRUE(F8_4(-8) < U4_4(0));
}

TEST(ApFixed, RawBitsAccess) {
  ap_fixed<16, 8> x = -1.5;  // raw 0xFE80
  EXPECT_EQ(x.range(15, 0).to_uint64(), 0xFE80u);
  EXPECT_EQ(x.range(7, 4).to_uint(), 0x8u);
  EXPECT_TRUE(x[15]);
  EXPECT_FALSE(x[0]);
  x.range(15, 0) = 0x0180ull;  // 1.5
  EXPECT_EQ(x.to_double(), 1.5);
  x[15] = true;  // sign bit: 1.5 - 128
  EXPECT_EQ(x.to_double(), -126.5);
  const ap_uint<16> bits = x.range(15, 0);
  EXPECT_EQ(bits.to_uint(), 0x8180u);
  EXPECT_EQ((x >> 1).to_double(), -63.25);
  EXPECT_EQ((ap_fixed<16, 8>(1.5) << 2).to_double(), 6.0);
}

}  // namespace
