// exp/tanh/log for ap_fixed (fixed_exp_log.h): the tables against the C library, the
// error bounds over dense sweeps, special values. FixedExpLog.ErrorTable prints the table of
// docs/hls.md. References are std:: functions evaluated at the quantized input.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <string>

#include "backend/hls/include/fixed_exp_log.h"

namespace {

using inrarch_hls::fx_exp;
using inrarch_hls::fx_log;
using inrarch_hls::fx_tanh;

const double kLsb22 = 1.0 / 4194304.0;                 // ap_fixed<32,10>
const double kH = 1.0 / 1024;                          // table step
const double kLn2 = 0.69314718055994530942;
const double kExpRel = kH * kH / 8 * kLn2 * kLn2 + 2.0 * kLn2 / 4294967296.0;  // 5.73e-8 + f
const double kTanhAbs = kExpRel / 2 + 2.0 / 4294967296.0;  // e's error · max|d tanh/de| + 2 truncations
const double kLogAbs = kH * kH / 8 + 2.0 / 4294967296.0;   // 1.19e-7 + m's truncation + table

TEST(FixedExpLog, TablesMatchTheCLibrary) {
  const int last = inrarch_hls::kExpLogRomSize - 1;
  for (int i = 0; i <= last; ++i) {
    const double e = std::exp2(static_cast<double>(i) / last) * 4294967296.0;
    const double l = std::log1p(static_cast<double>(i) / last) * 4294967296.0;
    ASSERT_LE(std::fabs(inrarch_hls::exp2_rom().v[i] - e), 0.5 + 1e-5) << i;
    ASSERT_LE(std::fabs(inrarch_hls::log1p_rom().v[i] - l), 0.5 + 1e-5) << i;
  }
  EXPECT_EQ(inrarch_hls::exp2_rom().v[0], 4294967296ull);     // 2^0
  EXPECT_EQ(inrarch_hls::exp2_rom().v[last], 8589934592ull);  // 2^1
  EXPECT_EQ(inrarch_hls::log1p_rom().v[0], 0ull);
}

TEST(FixedExpLog, TablesAreTheSameAtCompileAndRunTime) {
  static_assert(inrarch_hls::make_exp2_rom().v[512] == 6074001000ull, "sqrt(2)·2^32");
  volatile int n = inrarch_hls::kExpLogRomSize;  // defeat constant folding
  const inrarch_hls::explog_rom_t e = inrarch_hls::make_exp2_rom();
  const inrarch_hls::explog_rom_t l = inrarch_hls::make_log1p_rom();
  for (int i = 0; i < n; ++i) {
    ASSERT_EQ(e.v[i], inrarch_hls::exp2_rom().v[i]);
    ASSERT_EQ(l.v[i], inrarch_hls::log1p_rom().v[i]);
  }
}

// Max error over x = lo + k·step, divided by the allowed bound at each point, so a value
// ≤ 1 means "within the bound everywhere" and the raw maximum is reported alongside.
struct Err {
  double max = 0;    // max |got − want| (exp: relative to max(want, 1))
  double ratio = 0;  // max |got − want| / bound(want)
};

template <class T, class Fn, class Ref, class Bound>
Err sweep(double lo, double hi, double step, Fn fn, Ref ref, Bound bound, bool rel = false) {
  Err r;
  for (double x = lo; x < hi; x += step) {
    const T t = x;
    const double want = ref(t.to_double());
    const double err = std::fabs(fn(t).to_double() - want);
    r.max = std::fmax(r.max, rel ? err / std::fmax(std::fabs(want), 1.0) : err);
    r.ratio = std::fmax(r.ratio, err / bound(want));
  }
  return r;
}

template <class T>
Err exp_sweep(double lo, double hi, double step, double lsb) {
  return sweep<T>(lo, hi, step, [](const T& t) { return fx_exp(t); },
                  [](double v) { return std::exp(v); },
                  [=](double w) { return kExpRel * w + lsb + 1e-12; }, true);
}
template <class T>
Err tanh_sweep(double lo, double hi, double step, double lsb) {
  return sweep<T>(lo, hi, step, [](const T& t) { return fx_tanh(t); },
                  [](double v) { return std::tanh(v); },
                  [=](double) { return kTanhAbs + lsb + 1e-12; });
}
// log over x = lo·q^k (geometric: every binade is swept alike).
template <class T>
Err log_sweep(double lo, double hi, double q, double lsb) {
  Err r;
  for (double x = lo; x < hi; x *= q) {
    const T t = x;
    if (!(t > 0)) continue;
    const double err = std::fabs(fx_log(t).to_double() - std::log(t.to_double()));
    r.max = std::fmax(r.max, err);
    r.ratio = std::fmax(r.ratio, err / (kLogAbs + lsb + 1e-12));
  }
  return r;
}

TEST(FixedExpLog, ErrorBoundFixed32_10) {
  typedef ap_fixed<32, 10> T;
  // exp up to just below ln(512), where the result stops being representable.
  EXPECT_LE(exp_sweep<T>(-16.0, 6.2383, 0.000173, kLsb22).ratio, 1.0);
  EXPECT_LE(tanh_sweep<T>(-24.0, 24.0, 0.000377, kLsb22).ratio, 1.0);
  EXPECT_LE(tanh_sweep<T>(-0.002, 0.002, kLsb22, kLsb22).ratio, 1.0);  // every LSB near 0
  EXPECT_LE(log_sweep<T>(kLsb22, 512.0, 1.0001, kLsb22).ratio, 1.0);
}

// With 52 fraction bits the output LSB vanishes: the functions' own errors show, and the
// sweeps must find them close to the interpolation bounds (so the bounds are not slack).
TEST(FixedExpLog, ErrorBoundWide) {
  typedef ap_fixed<64, 12> T;
  const double lsb = std::ldexp(1.0, -52);
  const Err e = exp_sweep<T>(-30.0, 7.6, 0.000311, lsb);  // ln 2048 = 7.62
  const Err t = tanh_sweep<T>(-20.0, 20.0, 0.000311, lsb);
  const Err l = log_sweep<T>(1e-9, 2000.0, 1.0001, lsb);
  EXPECT_LE(e.ratio, 1.0);
  EXPECT_LE(t.ratio, 1.0);
  EXPECT_LE(l.ratio, 1.0);
  EXPECT_GT(e.max, 0.7 * kH * kH / 8 * kLn2 * kLn2);
  EXPECT_GT(l.max, 0.7 * kH * kH / 8);
}

TEST(FixedExpLog, SpecialValues) {
  typedef ap_fixed<32, 10> T;
  const double max = 512.0 - kLsb22;
  EXPECT_EQ(fx_exp(T(0)).to_double(), 1.0);
  EXPECT_EQ(fx_log(T(1)).to_double(), 0.0);
  EXPECT_EQ(fx_tanh(T(0)).to_double(), 0.0);
  EXPECT_EQ(fx_tanh(T(30)).to_double(), 1.0);
  EXPECT_EQ(fx_tanh(T(-30)).to_double(), -1.0);
  // exp past ln(512) saturates (AP_WRAP would have made it negative); far below, 0.
  EXPECT_EQ(fx_exp(T(6.2384)).to_double(), max);
  EXPECT_EQ(fx_exp(T(300)).to_double(), max);
  EXPECT_EQ(fx_exp(T(-300)).to_double(), 0.0);
  EXPECT_EQ(fx_exp(T(-16)).to_double(), 0.0);  // e^-16 = 1.1e-7 < 1 LSB, floored
  // log of x ≤ 0: the most negative value, the nearest to −inf.
  EXPECT_EQ(fx_log(T(0)).to_double(), -512.0);
  EXPECT_EQ(fx_log(T(-3)).to_double(), -512.0);
  EXPECT_NEAR(fx_log(T(max)).to_double(), std::log(max), kLogAbs + kLsb22);
  // tanh is odd by construction: exactly, bit for bit.
  for (double x = 0.0001; x < 12; x += 0.0371) {
    const T t = x;
    ASSERT_EQ(fx_tanh(T(-t)).to_double(), -fx_tanh(t).to_double()) << x;
  }
  // Saturating, rounding and narrow types go through the same code.
  typedef ap_fixed<16, 4, AP_RND, AP_SAT> Small;
  EXPECT_NEAR(fx_exp(Small(1.0)).to_double(), std::exp(1.0), 1.0 / 4096);
  EXPECT_NEAR(fx_log(Small(7.5)).to_double(), std::log(7.5), 1.0 / 4096);
  EXPECT_EQ(fx_exp(Small(3.0)).to_double(), 8.0 - 1.0 / 4096);  // e^3 > 8: saturated
}

TEST(FixedExpLog, FloatAndDoubleUseTheCLibrary) {
  for (double x = -5; x < 5; x += 0.73) {
    EXPECT_EQ(fx_exp(x), std::exp(x));
    EXPECT_EQ(fx_tanh(x), std::tanh(x));
    EXPECT_EQ(fx_exp(static_cast<float>(x)), std::exp(static_cast<float>(x)));
    if (x > 0) {
      EXPECT_EQ(fx_log(x), std::log(x));
      EXPECT_EQ(fx_log(static_cast<float>(x)), std::log(static_cast<float>(x)));
    }
  }
}

// Prints the table of docs/hls.md:  ./build/inrarch_tests --gtest_filter=FixedExpLog.ErrorTable
template <class T>
void print_row(const char* name, double lsb) {
  const double e = exp_sweep<T>(-16.0, 6.2383, 0.000173, lsb).max;
  const double t = tanh_sweep<T>(-24.0, 24.0, 0.000377, lsb).max;
  const double l = log_sweep<T>(lsb, 512.0, 1.0001, lsb).max;
  std::printf("| %s | %.3e | %.3e | %.3e |\n", name, e, t, l);
}

TEST(FixedExpLog, ErrorTable) {
  std::printf("max error at the quantized input: exp relative to max(|exp|, 1) over "
              "[-16, ln 512), tanh absolute over [-24, 24), log absolute over [2^-22, 512)\n");
  std::printf("| type | exp | tanh | log |\n|---|---|---|---|\n");
  print_row<ap_fixed<32, 10> >("ap_fixed<32,10>", kLsb22);
  print_row<ap_fixed<32, 10, AP_RND> >("ap_fixed<32,10,AP_RND>", kLsb22);
  print_row<ap_fixed<24, 10> >("ap_fixed<24,10>", std::ldexp(1.0, -14));
  print_row<ap_fixed<64, 12> >("ap_fixed<64,12>", std::ldexp(1.0, -52));
}

}  // namespace
