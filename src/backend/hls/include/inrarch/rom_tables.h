// INR-Arch kernel library: the entries of the sin, exp and log tables, in one place for both
// back ends. The HLS operators (fixed_math.h, fixed_exp_log.h) build their ROMs from these
// functions at compile time; the SystemVerilog back end writes the same entries into its
// .hex files (docs/rtl.md §3), so the two agree bit for bit by construction. Plain C++ (no
// ap_ types), constexpr, with series far below the tables' rounding.
#ifndef INRARCH_HLS_ROM_TABLES_H
#define INRARCH_HLS_ROM_TABLES_H

#include <cstdint>

namespace inrarch_hls {

// sin(t) for 0 <= t <= π/2 by its Taylor series: 14 terms leave < 1e-20.
constexpr double taylor_sin(double t) {
  double term = t, sum = t;
  for (int k = 1; k < 14; ++k) {
    term *= -t * t / ((2.0 * k) * (2.0 * k + 1.0));
    sum += term;
  }
  return sum;
}

// exp(z) for |z| <= ln2 by its Taylor series: 28 terms leave < 1e-30.
constexpr double taylor_exp(double z) {
  double term = 1.0, sum = 1.0;
  for (int k = 1; k < 28; ++k) {
    term *= z / k;
    sum += term;
  }
  return sum;
}

// ln(1+u) = 2·atanh(u/(2+u)) for 0 <= u <= 1 (|s| <= 1/3: 40 terms leave < 1e-38).
constexpr double series_log1p(double u) {
  const double s = u / (2.0 + u);
  double p = s, sum = 0.0;
  for (int k = 0; k < 40; ++k) {
    sum += p / (2 * k + 1);
    p *= s * s;
  }
  return 2.0 * sum;
}

// Entry i of a table of `size` entries (size - 1 intervals):
// the quarter wave, round(sin(i · (π/2) / (size - 1)) · 2^31) (Q1.31);
constexpr std::uint32_t sin_rom_entry(int i, int size) {
  const double t = i * (3.14159265358979323846 / 2.0 / (size - 1));
  return static_cast<std::uint32_t>(taylor_sin(t) * 2147483648.0 + 0.5);
}
// round(2^(i / (size - 1)) · 2^32), in [2^32, 2^33];
constexpr std::uint64_t exp2_rom_entry(int i, int size) {
  return static_cast<std::uint64_t>(taylor_exp(0.69314718055994530942 * i / (size - 1)) * 4294967296.0 + 0.5);
}
// round(ln(1 + i / (size - 1)) · 2^32), in [0, ln2 · 2^32].
constexpr std::uint64_t log1p_rom_entry(int i, int size) {
  return static_cast<std::uint64_t>(series_log1p(static_cast<double>(i) / (size - 1)) * 4294967296.0 + 0.5);
}

}  // namespace inrarch_hls

#endif  // INRARCH_HLS_ROM_TABLES_H
