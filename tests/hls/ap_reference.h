// Reference arithmetic for the ap_* compat tests, written from the definitions (floor,
// round-half-up, ..., wraparound mod 2^W, clamp) with integer division and remainder, not
// with the shifts and bit tests the headers use.
#pragma once

#include <cstdint>
#include <random>

namespace ap_ref {

__extension__ typedef __int128 i128;

inline i128 pow2(int k) { return static_cast<i128>(1) << k; }

// Mathematical floor(n / d) and n mod d (d > 0), from C's truncating division.
inline i128 floor_div(i128 n, i128 d) {
  i128 q = n / d;
  if (n % d != 0 && n < 0) q -= 1;
  return q;
}

enum class Q { trn, trn_zero, rnd, rnd_zero, rnd_min_inf, rnd_inf, rnd_conv };
enum class O { wrap, sat, sat_zero, sat_sym };

// n / 2^s rounded to an integer as mode q says (s >= 0).
inline i128 quantize(i128 n, int s, Q q) {
  if (s == 0) return n;
  const i128 d = pow2(s);
  const i128 fl = floor_div(n, d);
  const i128 rem = n - fl * d;  // 0 <= rem < d
  const bool exact = rem == 0, above = 2 * rem > d, tie = 2 * rem == d;
  switch (q) {
    case Q::trn: return fl;
    case Q::trn_zero: return (n < 0 && !exact) ? fl + 1 : fl;
    case Q::rnd: return (above || tie) ? fl + 1 : fl;
    case Q::rnd_zero: return (above || (tie && n < 0)) ? fl + 1 : fl;
    case Q::rnd_min_inf: return above ? fl + 1 : fl;
    case Q::rnd_inf: return (above || (tie && n > 0)) ? fl + 1 : fl;
    case Q::rnd_conv: return (above || (tie && fl % 2 != 0)) ? fl + 1 : fl;
  }
  return fl;
}

// Integer v put into a W-bit (signed s) register as overflow mode o says.
inline i128 overflow(i128 v, int w, bool s, O o) {
  const i128 lo = s ? -pow2(w - 1) : 0, hi = s ? pow2(w - 1) - 1 : pow2(w) - 1;
  if (v >= lo && v <= hi) return (o == O::sat_sym && s && v == lo) ? lo + 1 : v;
  switch (o) {
    case O::wrap: {
      i128 m = v % pow2(w);
      if (m < 0) m += pow2(w);
      if (s && m > hi) m -= pow2(w);
      return m;
    }
    case O::sat: return v < lo ? lo : hi;
    case O::sat_zero: return 0;
    case O::sat_sym: return v < lo ? (s ? lo + 1 : 0) : hi;
  }
  return v;
}

// Value n·2^-src_f into a (w, s) type with f fraction bits.
inline i128 convert(i128 n, int src_f, int w, int f, bool s, Q q, O o) {
  i128 v = f >= src_f ? n * pow2(f - src_f) : quantize(n, src_f - f, q);
  return overflow(v, w, s, o);
}

// Uniform raw value of a (w, s) register.
inline i128 random_raw(std::mt19937_64& rng, int w, bool s) {
  const std::uint64_t bits = rng() & ((w >= 64) ? ~0ull : ((1ull << w) - 1));
  i128 v = bits;
  if (s && w < 128 && v >= pow2(w - 1)) v -= pow2(w);
  return v;
}

}  // namespace ap_ref
