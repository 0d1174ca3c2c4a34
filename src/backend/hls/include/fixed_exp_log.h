// INR-Arch HLS kernel library: exp, tanh and log for ap_fixed (and float/double).
//
// Same style as the ROM sin/cos of fixed_math.h: range reduction, a compile-time table and
// linear interpolation, all in integer / ap arithmetic (so every simulation mode and
// synthesis get the same bits; only range(), conversions, + - * and one ap_fixed `/`).
//
//   exp(x)  = 2^k · 2^f with k + f = x·log2(e) (k integer, f in [0, 1) as 32 bits); 2^f from
//             a 1025-entry table of 2^(i/1024) (Q.32) interpolated with the low 22 bits.
//             Relative error ≤ h²/8·ln²2 = 5.73e-8 (h = 2^-10), plus 2^-32·ln2 from f.
//             A result ≥ 2^(I-1) (x ≥ (I-1)·ln2) saturates to the type's max (wrapping
//             would turn it negative); tiny results flush to 0.
//   tanh(x) = sign(x)·(1 − e)/(1 + e), e = exp(−2|x|) from the same table (32 fraction
//             bits), one 34-bit/34-bit division: error ≤ 0.5·5.73e-8 + 2^-31.
//   log(x)  = (p − F)·ln2 + ln(m), x = 2^(p−F)·m, m in [1, 2) (p from a priority encoder);
//             ln(m) from a 1025-entry table of ln(1 + i/1024) interpolated: error
//             ≤ h²/8 = 1.19e-7 plus 2^-32 for m's truncation. x ≤ 0 gives the type's min
//             (the nearest to −∞; std::log gives −inf or NaN).
// The result is built with extra fraction bits and then stored in the caller's type, whose
// quantization applies (AP_TRN: < 1 LSB more). Measured in tests/hls/fixed_exp_log_test.cpp.
#ifndef INRARCH_HLS_FIXED_EXP_LOG_H
#define INRARCH_HLS_FIXED_EXP_LOG_H

#include <cmath>
#include <cstdint>

#include "inrarch_hls_types.h"
#include "inrarch/array_stream.h"  // count_overflow
#include "inrarch/rom_tables.h"

namespace inrarch_hls {

enum {
  kExpLogRomBits = 10,                         // 2^10 intervals, as the sin ROM
  kExpLogRomSize = (1 << kExpLogRomBits) + 1,  // + the right end of the last interval
  kExpLogLoBits = 32 - kExpLogRomBits,         // argument bits below the index: interpolate
  kExpLogFrac = 32 + kExpLogLoBits             // scale of an interpolated value: 2^-54
};

struct explog_rom_t {
  std::uint64_t v[kExpLogRomSize];
};

// entry i = round(2^(i/1024) · 2^32), in [2^32, 2^33] (rom_tables.h).
constexpr explog_rom_t make_exp2_rom() {
  explog_rom_t r{};
  for (int i = 0; i < kExpLogRomSize; ++i) r.v[i] = exp2_rom_entry(i, kExpLogRomSize);
  return r;
}
// entry i = round(ln(1 + i/1024) · 2^32), in [0, ln2·2^32].
constexpr explog_rom_t make_log1p_rom() {
  explog_rom_t r{};
  for (int i = 0; i < kExpLogRomSize; ++i) r.v[i] = log1p_rom_entry(i, kExpLogRomSize);
  return r;
}
inline const explog_rom_t& exp2_rom() {
  static constexpr explog_rom_t rom = make_exp2_rom();
  return rom;
}
inline const explog_rom_t& log1p_rom() {
  static constexpr explog_rom_t rom = make_log1p_rom();
  return rom;
}

// Table value at a 32-bit fraction u (in [0, 1)), interpolated; scale 2^-kExpLogFrac.
inline std::int64_t rom_interp(const explog_rom_t& rom, std::uint32_t u) {
  const std::uint32_t idx = u >> kExpLogLoBits;
  const std::int64_t lo = u & ((1u << kExpLogLoBits) - 1);
  const std::int64_t y0 = static_cast<std::int64_t>(rom.v[idx]);
  const std::int64_t y1 = static_cast<std::int64_t>(rom.v[idx + 1]);
  return (y0 << kExpLogLoBits) + (y1 - y0) * lo;
}

// The two's-complement raw value of x (W ≤ 64), sign-extended: x = raw · 2^-(W-I).
template <int W, int I, ap_q_mode Q, ap_o_mode O, int N>
inline std::int64_t raw_of(const ap_fixed<W, I, Q, O, N>& x) {
  static_assert(W <= 64, "exp/tanh/log: W <= 64");
  const std::uint64_t u = x.range(W - 1, 0).to_uint64();
  return static_cast<std::int64_t>(u << (64 - W)) >> (64 - W);
}

// raw · 2^-FR stored in T: exact product, then T's quantization and overflow.
template <class T, int FR>
inline T from_raw_scaled(std::int64_t raw) {
  const ap_fixed<64, 64> as_int = static_cast<long long>(raw);
  const ap_ufixed<1, 1 - FR> lsb = std::ldexp(1.0, -FR);  // exact
  return T(as_int * lsb);
}

// The largest value of T (a conversion from a double could round up to 2^(I-1) and wrap).
template <int W, int I, ap_q_mode Q, ap_o_mode O, int N>
inline ap_fixed<W, I, Q, O, N> max_of(const ap_fixed<W, I, Q, O, N>&) {
  return from_raw_scaled<ap_fixed<W, I, Q, O, N>, W - I>(
      static_cast<std::int64_t>((~0ULL) >> (65 - W)));
}
template <int W, int I, ap_q_mode Q, ap_o_mode O, int N>
inline ap_fixed<W, I, Q, O, N> min_of(const ap_fixed<W, I, Q, O, N>& x) {
  return from_raw_scaled<ap_fixed<W, I, Q, O, N>, W - I>(-raw_of(max_of(x)) - 1);
}

// 2^t = 2^k · y: t in Q32.32, saturated (|t| ≥ 2^31 is overflow or 0 anyway); k = floor(t),
// y = 2^frac(t) with scale 2^-kExpLogFrac.
struct exp2_parts {
  std::int64_t k;
  std::int64_t y;
};
typedef ap_fixed<64, 32, AP_TRN, AP_SAT> exp2_arg_t;
inline exp2_parts exp2_split(const exp2_arg_t& t) {
  const std::int64_t raw = raw_of(t);
  exp2_parts p;
  p.k = raw >> 32;  // arithmetic shift: floor
  p.y = rom_interp(exp2_rom(), static_cast<std::uint32_t>(raw & 0xFFFFFFFFLL));
  return p;
}

// round(log2(e) · 2^63) · 2^-63 and round(ln2 · 2^54).
inline ap_ufixed<64, 1> log2e() {
  const ap_uint<64> k = 0xB8AA3B295C17F0BCULL;
  const ap_ufixed<1, -62> scale = std::ldexp(1.0, -63);
  return ap_ufixed<64, 1>(k * scale);
}
const std::int64_t kLn2Q54 = 12486629536330718LL;

template <int W, int I, ap_q_mode Q, ap_o_mode O, int N>
inline ap_fixed<W, I, Q, O, N> fx_exp(const ap_fixed<W, I, Q, O, N>& x, bool& ovf) {
  typedef ap_fixed<W, I, Q, O, N> T;
  // FR: fraction bits of the result before T's quantization: 8 guard bits, and small
  // enough that y · 2^k · 2^FR fits 63 bits for every non-overflowing k (k ≤ I - 2).
  const int F = W - I, FR = F + 8 < 63 - I ? F + 8 : 63 - I;
  const exp2_parts p = exp2_split(exp2_arg_t(x * log2e()));
  if (p.k >= I - 1) {  // ≥ 2^(I-1): not representable; saturated, and counted as an overflow
#ifndef __SYNTHESIS__
    count_overflow(std::exp(x.to_double()));
#endif
    ovf = true;
    return max_of(x);
  }
  const std::int64_t sh = int(kExpLogFrac) - FR - p.k;
  std::int64_t raw = 0;
  if (sh < 0) raw = p.y << -sh;
  else if (sh < 63) raw = p.y >> sh;
  return from_raw_scaled<T, FR>(raw);
}

template <int W, int I, ap_q_mode Q, ap_o_mode O, int N>
inline ap_fixed<W, I, Q, O, N> fx_tanh(const ap_fixed<W, I, Q, O, N>& x) {
  typedef ap_fixed<W, I, Q, O, N> T;
  const bool neg = x < 0;
  const T nabs = neg ? x : T(-x);  // −|x|: representable even for x = min
  const ap_ufixed<64, 2> two_log2e = log2e() * ap_uint<2>(2);
  const exp2_parts p = exp2_split(exp2_arg_t(nabs * two_log2e));  // t ≤ 0: k ≤ 0
  const std::int64_t sh = kExpLogFrac - 32 - p.k;                  // e with 32 fraction bits
  const std::int64_t e_raw = sh < 63 ? (p.y >> sh) : 0;
  ap_ufixed<34, 2> e = 0;
  e.range(33, 0) = static_cast<unsigned long long>(e_raw);
  const ap_ufixed<34, 2> one = 1;
  const ap_ufixed<33, 1> q = (one - e) / (one + e);  // in [0, 1): (1 − e)/(1 + e)
  const T m = q;  // quantize |tanh| first: the negation is exact, so tanh is exactly odd
  return neg ? T(-m) : m;
}

template <int W, int I, ap_q_mode Q, ap_o_mode O, int N>
inline ap_fixed<W, I, Q, O, N> fx_log(const ap_fixed<W, I, Q, O, N>& x) {
  typedef ap_fixed<W, I, Q, O, N> T;
  const std::int64_t r = raw_of(x);
  if (r <= 0) return min_of(x);
  // Position of the leading one: a priority encoder (the kernels call this inside a
  // pipelined loop, where Vitis unrolls constant-bound loops fully).
  int p = 0;
  for (int b = 0; b < W - 1; ++b)
    if ((r >> b) & 1) p = b;
  // m − 1 as a 32-bit fraction: the 32 bits below the leading one (zero-filled).
  const std::uint64_t n = static_cast<std::uint64_t>(r) << (63 - p);  // leading one at 63
  const std::uint32_t u = static_cast<std::uint32_t>(n >> 31);       // bits 62..31
  const std::int64_t ln_m = rom_interp(log1p_rom(), u);
  const std::int64_t raw = (p - (W - I)) * kLn2Q54 + ln_m;  // scale 2^-54
  return from_raw_scaled<T, kExpLogFrac>(raw);
}

template <int W, int I, ap_q_mode Q, ap_o_mode O, int N>
inline ap_fixed<W, I, Q, O, N> fx_exp(const ap_fixed<W, I, Q, O, N>& x) {
  bool ovf = false;
  return fx_exp(x, ovf);
}

// float and double keep the C library (floating-point cores in synthesis).
inline double fx_exp(double x, bool&) { return std::exp(x); }
inline float fx_exp(float x, bool&) { return std::exp(x); }
inline double fx_exp(double x) { return std::exp(x); }
inline double fx_tanh(double x) { return std::tanh(x); }
inline double fx_log(double x) { return std::log(x); }
inline float fx_exp(float x) { return std::exp(x); }
inline float fx_tanh(float x) { return std::tanh(x); }
inline float fx_log(float x) { return std::log(x); }

}  // namespace inrarch_hls

#endif  // INRARCH_HLS_FIXED_EXP_LOG_H
