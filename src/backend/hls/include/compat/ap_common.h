// INR-Arch compat: shared pieces of ap_int.h / ap_fixed.h for C simulation without Vitis.
//
// Every ap_* value is held as a 128-bit two's-complement integer `raw`, already reduced to
// the type's W bits (sign- or zero-extended), worth raw * 2^-F with F = W - I. One routine,
// convert_raw(), implements every quantization and overflow mode for every conversion
// (fixed->fixed, int->fixed, double->fixed), so the modes are written down exactly once.
// Own code; the semantics follow the Vitis HLS user guide (UG1399, "Arbitrary Precision
// Fixed-Point Data Types") and the behaviour of Vitis's headers.
#ifndef INRARCH_HLS_COMPAT_AP_COMMON_H
#define INRARCH_HLS_COMPAT_AP_COMMON_H

#include <cmath>
#include <cstdint>
#include <type_traits>

// Quantization (Q) and overflow (O) modes, spelled as in Vitis.
enum ap_q_mode {
  AP_RND,          // round to nearest, ties toward +inf
  AP_RND_ZERO,     // round to nearest, ties toward zero
  AP_RND_MIN_INF,  // round to nearest, ties toward -inf
  AP_RND_INF,      // round to nearest, ties away from zero
  AP_RND_CONV,     // round to nearest, ties to even
  AP_TRN,          // truncate toward -inf (drop the bits; the default)
  AP_TRN_ZERO      // truncate toward zero
};
enum ap_o_mode {
  AP_SAT,       // clamp to [min, max]
  AP_SAT_ZERO,  // out of range -> 0
  AP_SAT_SYM,   // clamp to [-max, max] (signed); also maps min itself to -max, as Vitis does
  AP_WRAP,      // keep the low W bits (the default)
  AP_WRAP_SM    // sign-magnitude wrap: not supported here (static_assert)
};

namespace ap_compat {

__extension__ typedef __int128 i128;           // __extension__: no -Wpedantic warning
__extension__ typedef unsigned __int128 u128;

// Widest type we can hold: every value of a legal type fits a signed i128, so unsigned
// types stop at 127 bits. Vitis goes to 1024+; see docs/hls.md.
template <int W, bool S>
struct width_ok {
  static const bool value = W >= 1 && (S ? W <= 128 : W <= 127);
};

constexpr int max_i(int a, int b) { return a > b ? a : b; }
constexpr int min_i(int a, int b) { return a < b ? a : b; }

// Reduce v to W bits: two's complement wraparound (mod 2^W), then sign/zero extend.
inline i128 wrap_bits(i128 v, int w, bool s) {
  if (w >= 128) return v;
  const int sh = 128 - w;
  const u128 u = static_cast<u128>(v) << sh;
  if (s) return static_cast<i128>(u) >> sh;  // arithmetic shift restores the sign
  return static_cast<i128>(u >> sh);
}

inline i128 min_raw(int w, bool s) { return s ? -(static_cast<i128>(1) << (w - 1)) : 0; }
inline i128 max_raw(int w, bool s) {
  const int top = s ? w - 1 : w;  // top <= 127 by width_ok
  return static_cast<i128>((static_cast<u128>(1) << top) - 1);
}

// Bit k of v, with v sign-extended to infinite width.
inline bool bit_at(i128 v, int k) { return k >= 127 ? v < 0 : ((v >> k) & 1) != 0; }

// floor(v / 2^s) plus the rounding increment that mode q asks for (s >= 1).
// qb = first dropped bit (worth half an LSB), r = any lower dropped bit set.
inline i128 shift_right_quantized(i128 v, int s, ap_q_mode q) {
  const i128 fl = s >= 127 ? (v < 0 ? -1 : 0) : (v >> s);
  const bool neg = v < 0;
  const bool qb = bit_at(v, s - 1);
  bool r = false;
  if (s >= 2) {
    // bits 0 .. s-2; past bit 127 they include the sign extension, so "any set" is v != 0
    r = s - 1 > 127 ? v != 0
                    : (static_cast<u128>(v) & ((static_cast<u128>(1) << (s - 1)) - 1)) != 0;
  }
  bool inc = false;
  switch (q) {
    case AP_TRN: inc = false; break;
    case AP_TRN_ZERO: inc = neg && (qb || r); break;
    case AP_RND: inc = qb; break;
    case AP_RND_ZERO: inc = qb && (r || neg); break;
    case AP_RND_MIN_INF: inc = qb && r; break;
    case AP_RND_INF: inc = qb && (r || !neg); break;
    case AP_RND_CONV: inc = qb && (r || (fl & 1) != 0); break;
  }
  return fl + (inc ? 1 : 0);
}

// Value src_raw * 2^-src_f converted to a (w, s) type with f fractional bits:
// first quantize (mode q) to the destination LSB, then handle overflow (mode o).
inline i128 convert_raw(i128 src_raw, int src_f, int w, int f, bool s, ap_q_mode q,
                        ap_o_mode o) {
  i128 v;
  bool out = false;  // value does not even fit i128: certainly out of range
  const bool neg = src_raw < 0;
  if (f >= src_f) {
    const int sh = f - src_f;
    if (sh >= 128) {
      v = 0;
      out = src_raw != 0;
    } else {
      v = static_cast<i128>(static_cast<u128>(src_raw) << sh);
      out = (v >> sh) != src_raw;
    }
  } else {
    v = shift_right_quantized(src_raw, src_f - f, q);
  }
  const i128 lo = min_raw(w, s), hi = max_raw(w, s);
  const bool in_range = !out && v >= lo && v <= hi;
  if (in_range) {
    if (o == AP_SAT_SYM && s && v == lo) return lo + 1;
    return v;
  }
  switch (o) {
    case AP_WRAP: return wrap_bits(v, w, s);
    case AP_SAT_ZERO: return 0;
    case AP_SAT_SYM:
      if (neg) return s ? lo + 1 : 0;
      return hi;
    default:  // AP_SAT (AP_WRAP_SM is rejected at compile time)
      return neg ? lo : hi;
  }
}

// A finite double as m * 2^-e with |m| < 2^53 (exact); NaN -> 0, +-inf -> +-2^1023 * 2
// which overflows every destination (saturates, or wraps to 0).
struct split_double {
  i128 m;
  int f;
};
inline split_double split(double d) {
  if (std::isnan(d) || d == 0.0) return {0, 0};
  if (std::isinf(d)) return {d > 0 ? 1 : -1, -1024};
  int e = 0;
  const double fr = std::frexp(d, &e);         // d = fr * 2^e, 0.5 <= |fr| < 1
  const double mant = std::ldexp(fr, 53);      // exact integer, |mant| < 2^53
  return {static_cast<i128>(static_cast<long long>(mant)), 53 - e};
}

// raw * 2^-f rounded to nearest double (ties to even), as Vitis's to_double().
inline double raw_to_double(i128 raw, int f) {
  // A 128-bit integer converts with one correct rounding (libgcc __floattidf).
  return std::ldexp(static_cast<double>(raw), -f);
}

// Integer part toward zero (C's double->int rule, which Vitis's to_int() follows).
inline i128 trunc_to_integer(i128 raw, int f) {
  if (f <= 0) return f <= -128 ? 0 : static_cast<i128>(static_cast<u128>(raw) << -f);
  if (f >= 127) return 0;
  const i128 fl = raw >> f;
  const bool frac = (raw & ((static_cast<i128>(1) << f) - 1)) != 0;
  return (raw < 0 && frac) ? fl + 1 : fl;
}

}  // namespace ap_compat

#endif  // INRARCH_HLS_COMPAT_AP_COMMON_H
