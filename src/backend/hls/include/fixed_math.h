// INR-Arch HLS kernel library: sin/cos for ap_fixed (and float/double) from a ROM.
//
// Method (as INR-Arch's kernels): reduce x to a phase p = frac(x / 2π) in turns, held as a
// 32-bit fraction (ap_ufixed<32,0>, so the reduction is exact multiply-then-wrap and works
// for any |x|, e.g. INSP's 30·x); the top 2 bits pick the quadrant, the next 10 (by default)
// index a 1025-entry quarter-wave table of sin on [0, π/2] in Q1.31, the low 20 bits
// interpolate linearly. The table is computed at compile time (constexpr Taylor series in double) and
// all the rest is integer/ap arithmetic, so every simulation mode (and synthesis) gets the
// same bits. Only Vitis-portable ap_* API is used (range(), conversions, + - *).
//
// Error (measured by FixedMath.ErrorTable, see docs/hls.md): linear interpolation on a step
// h = π/2048 is bounded by h²/8 ≈ 2.94e-7; the table adds ≤ 2^-32, the 32-bit phase
// ≤ 2π·2^-32 ≈ 1.5e-9 times |cos|; the result type adds its own quantization (AP_TRN: < 1 LSB).
#ifndef INRARCH_HLS_FIXED_MATH_H
#define INRARCH_HLS_FIXED_MATH_H

#include <cmath>
#include <cstdint>

#include "inrarch_hls_types.h"
#include "inrarch/rom_tables.h"

namespace inrarch_hls {

// 2^kSinRomBits intervals per quarter wave (INR-Arch: 10, a 1025-entry ROM); the phase bits
// below the index interpolate. Each extra bit quarters the interpolation error and doubles
// the ROM. Override only for a whole build: every simulation mode must see the same table.
#ifndef INRARCH_SIN_ROM_BITS
#define INRARCH_SIN_ROM_BITS 10
#endif
enum {
  kSinRomBits = INRARCH_SIN_ROM_BITS,
  kSinRomSize = (1 << kSinRomBits) + 1,
  kInterpBits = 30 - kSinRomBits,   // phase: 2 quadrant + kSinRomBits index + these
  kRomOutFrac = 31 + kInterpBits    // Q1.31 entries times the interpolation fraction
};

struct sin_rom_t {
  std::uint32_t v[kSinRomSize];
};

constexpr sin_rom_t make_sin_rom() {
  sin_rom_t r{};
  for (int i = 0; i < kSinRomSize; ++i) r.v[i] = sin_rom_entry(i, kSinRomSize);  // Q1.31
  return r;
}

// Quarter-wave ROM: entry i = round(sin(i · (π/2) / 2^kSinRomBits) · 2^31).
inline const sin_rom_t& sin_rom() {
  static constexpr sin_rom_t rom = make_sin_rom();
  return rom;
}

typedef ap_ufixed<32, 0> phase_t;   // turns in [0, 1)
typedef ap_fixed<3 + kRomOutFrac, 3> rom_out_t;  // interpolated sin, exact

// sin(2π·p) from the ROM: quadrant symmetry, then linear interpolation between entries.
inline rom_out_t sin_turns(const phase_t& p) {
  ap_uint<32> bits = p.range(31, 0);
  const std::uint32_t b = static_cast<std::uint32_t>(bits.to_uint());
  const unsigned quadrant = b >> 30;
  std::uint32_t u = b & 0x3FFFFFFFu;  // position in the quadrant, 30 bits
  if (quadrant & 1u) u = 0x40000000u - u;  // mirrored quadrants read the table backwards
  const std::uint32_t idx = u >> kInterpBits;  // 0 .. 2^kSinRomBits
  const std::int64_t frac = u & ((1u << kInterpBits) - 1);
  const std::int64_t y0 = sin_rom().v[idx];
  const std::int64_t y1 = sin_rom().v[idx < kSinRomSize - 1 ? idx + 1 : idx];
  std::int64_t raw = (y0 << kInterpBits) + (y1 - y0) * frac;  // scale 2^-kRomOutFrac
  if (quadrant & 2u) raw = -raw;
  const ap_fixed<3 + kRomOutFrac, 3 + kRomOutFrac> as_int = static_cast<long long>(raw);
  const ap_ufixed<1, 1 - kRomOutFrac> lsb = std::ldexp(1.0, -kRomOutFrac);  // exact
  return rom_out_t(as_int * lsb);
}

// frac(x / 2π) in turns, exact up to the 64-bit constant: x · round(2^66/2π)·2^-66, then
// wrap to [0, 1) and truncate to 32 bits by assigning to an ap_ufixed<32,0>.
template <class Fixed>
inline phase_t phase_of_fixed(const Fixed& x) {
  const ap_uint<64> k = 0xA2F9836E4E44152AULL;         // round(2^65 / π)
  const ap_ufixed<1, -65> scale = std::ldexp(1.0, -66);  // exactly 2^-66
  const ap_ufixed<64, -2> inv_2pi = k * scale;
  return phase_t(x * inv_2pi);
}

inline phase_t phase_of_double(double x) {
  double t = x * 0.15915494309189535;  // 1/(2π)
  t -= std::floor(t);                  // [0, 1]; 1.0 wraps to 0 below
  return phase_t(t);
}

inline phase_t quarter_turn() { return phase_t(0.25); }

template <int W, int I, ap_q_mode Q, ap_o_mode O, int N>
inline ap_fixed<W, I, Q, O, N> rom_sin(const ap_fixed<W, I, Q, O, N>& x) {
  return ap_fixed<W, I, Q, O, N>(sin_turns(phase_of_fixed(x)));
}
template <int W, int I, ap_q_mode Q, ap_o_mode O, int N>
inline ap_fixed<W, I, Q, O, N> rom_cos(const ap_fixed<W, I, Q, O, N>& x) {
  phase_t p = phase_of_fixed(x);
  p += quarter_turn();  // cos(θ) = sin(θ + π/2); the add wraps mod 1 turn
  return ap_fixed<W, I, Q, O, N>(sin_turns(p));
}
inline double rom_sin(double x) { return sin_turns(phase_of_double(x)).to_double(); }
inline double rom_cos(double x) {
  phase_t p = phase_of_double(x);
  p += quarter_turn();
  return sin_turns(p).to_double();
}
inline float rom_sin(float x) { return static_cast<float>(rom_sin(static_cast<double>(x))); }
inline float rom_cos(float x) { return static_cast<float>(rom_cos(static_cast<double>(x))); }

}  // namespace inrarch_hls

#endif  // INRARCH_HLS_FIXED_MATH_H
