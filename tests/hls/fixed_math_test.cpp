// ROM sin/cos: the table against std::sin, compile-time = run-time evaluation, and the
// error bounds over dense sweeps (FixedMath.ErrorTable prints the table in docs/hls.md).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <string>

#include "backend/hls/include/fixed_math.h"

namespace {

const double kPi = 3.14159265358979323846;

TEST(FixedMath, TableMatchesStdSin) {
  const inrarch_hls::sin_rom_t& rom = inrarch_hls::sin_rom();
  const int last = inrarch_hls::kSinRomSize - 1;  // 1024 entries + 1 for π/2
  for (int i = 0; i <= last; ++i) {
    const double want = std::sin(i * kPi / (2.0 * last)) * 2147483648.0;
    ASSERT_LE(std::fabs(rom.v[i] - want), 0.5 + 1e-6) << "entry " << i;
  }
  EXPECT_EQ(rom.v[0], 0u);
  EXPECT_EQ(rom.v[last], 2147483648u);  // sin(π/2) = 1 exactly
}

// The table is a constant expression; the same function run now gives the same bits, so a
// C simulation and anything else built from this header share one ROM.
TEST(FixedMath, TableIsTheSameAtCompileAndRunTime) {
  static_assert(inrarch_hls::make_sin_rom().v[(inrarch_hls::kSinRomSize - 1) / 2] ==
                    1518500250u,
                "sin(π/4)·2^31");
  volatile int n = inrarch_hls::kSinRomSize;  // defeat constant folding
  const inrarch_hls::sin_rom_t runtime = inrarch_hls::make_sin_rom();
  for (int i = 0; i < n; ++i) ASSERT_EQ(runtime.v[i], inrarch_hls::sin_rom().v[i]);
}

struct Err {
  double sin = 0, cos = 0;
};

// Max |rom - std| over x = lo + k·step; the reference takes the input the ROM saw (after
// quantizing x to T), so only the function's own error is measured.
template <class T>
Err sweep_fixed(double lo, double hi, double step) {
  Err e;
  for (double x = lo; x < hi; x += step) {
    const T t = x;
    const double xr = t.to_double();
    e.sin = std::fmax(e.sin, std::fabs(inrarch_hls::rom_sin(t).to_double() - std::sin(xr)));
    e.cos = std::fmax(e.cos, std::fabs(inrarch_hls::rom_cos(t).to_double() - std::cos(xr)));
  }
  return e;
}
template <class T>
Err sweep_float(double lo, double hi, double step) {
  Err e;
  for (double x = lo; x < hi; x += step) {
    const T t = static_cast<T>(x);
    const double xr = t;
    e.sin = std::fmax(e.sin, std::fabs(double(inrarch_hls::rom_sin(t)) - std::sin(xr)));
    e.cos = std::fmax(e.cos, std::fabs(double(inrarch_hls::rom_cos(t)) - std::cos(xr)));
  }
  return e;
}

// h²/8 for the table step h = π/2048 (interpolation) + the 32-bit phase (2π·2^-32) + table rounding.
const double kStep = kPi / 2 / (inrarch_hls::kSinRomSize - 1);
const double kRomBound = kStep * kStep / 8 + 2 * kPi / 4294967296.0 + 1e-9;

TEST(FixedMath, ErrorBoundFixed32_10) {
  // INSP arguments: 30·x for x in [-1, 1] and beyond; every LSB-ish step near 0 too.
  const Err wide = sweep_fixed<ap_fixed<32, 10>>(-511.0, 511.0, 0.000731);
  const Err fine = sweep_fixed<ap_fixed<32, 10>>(-0.01, 0.01, 1.0 / 4194304.0);
  const double lsb = 1.0 / 4194304.0;  // AP_TRN output: less than one LSB more
  EXPECT_LE(wide.sin, kRomBound + lsb);
  EXPECT_LE(wide.cos, kRomBound + lsb);
  EXPECT_LE(fine.sin, kRomBound + lsb);
  EXPECT_GT(wide.sin, 0.3 * kStep * kStep / 8);  // the sweep really sees the error
}

TEST(FixedMath, ErrorBoundDouble) {
  const Err e = sweep_float<double>(-1000.0, 1000.0, 0.000917);
  EXPECT_LE(e.sin, kRomBound);
  EXPECT_LE(e.cos, kRomBound);
  EXPECT_GT(e.sin, 0.8 * kStep * kStep / 8);  // the sweep finds the interpolation error
}

TEST(FixedMath, SpecialValues) {
  typedef ap_fixed<32, 10> T;
  EXPECT_EQ(inrarch_hls::rom_sin(T(0)).to_double(), 0.0);
  EXPECT_EQ(inrarch_hls::rom_cos(T(0)).to_double(), 1.0);
  EXPECT_EQ(inrarch_hls::rom_sin(0.0), 0.0);
  EXPECT_EQ(inrarch_hls::rom_cos(0.0), 1.0);
  // Odd symmetry, on exactly negated inputs, within the two results' error bounds.
  for (double x = 0.001; x < 20; x += 0.37) {
    const T t = x;
    const double s = inrarch_hls::rom_sin(t).to_double();
    const double m = inrarch_hls::rom_sin(T(-t)).to_double();
    ASSERT_LE(std::fabs(s + m), 2 * (1.0 / 4194304.0 + kRomBound)) << x;
  }
  // Saturating types keep sin(π/2) = 1 representable in ap_fixed<16,2>.
  typedef ap_fixed<16, 2, AP_RND, AP_SAT> Small;
  const Small one = inrarch_hls::rom_sin(Small(1.5707963));
  EXPECT_NEAR(one.to_double(), 1.0, 1e-4);
}

// Prints the table of docs/hls.md:  ./build-hls/inrarch_tests --gtest_filter=FixedMath.ErrorTable
TEST(FixedMath, ErrorTable) {
  struct Row {
    std::string type;
    Err e;
  };
  const double lo = -100.0, hi = 100.0, step = 0.000613;
  const Row rows[] = {
      {"ap_fixed<32,10>", sweep_fixed<ap_fixed<32, 10>>(lo, hi, step)},
      {"ap_fixed<32,10,AP_RND>", sweep_fixed<ap_fixed<32, 10, AP_RND>>(lo, hi, step)},
      {"ap_fixed<24,8>", sweep_fixed<ap_fixed<24, 8>>(lo, hi, step)},
      {"ap_fixed<18,8>", sweep_fixed<ap_fixed<18, 8>>(lo, hi, step)},
      {"double", sweep_float<double>(lo, hi, step)},
      {"float", sweep_float<float>(lo, hi, step)},
  };
  std::printf("sweep x in [%g, %g) step %g; max |rom - std::sin/cos| at the quantized input\n",
              lo, hi, step);
  std::printf("| type | max sin error | max cos error |\n|---|---|---|\n");
  for (const Row& r : rows) std::printf("| %s | %.3e | %.3e |\n", r.type.c_str(), r.e.sin, r.e.cos);
  EXPECT_LE(rows[0].e.sin, kRomBound + 1.0 / 4194304.0);
}

}  // namespace
