// INR-Arch HLS kernel library: square root for ap_fixed (and float/double).
//
// x = r · 2^-F (r the raw value, F = W − I fraction bits). Its root with F fraction bits is
//   floor(sqrt(x) · 2^F) = floor(sqrt(r · 2^F)),
// the integer square root of the radicand D = r << F: exactly the truncated (AP_TRN) root,
// with no table and no error beyond T's own LSB. D has W − 1 + F bits; where that is over
// 64 (2W − I > 65, wide types only) D is r << s with the largest s ≤ F, s ≡ F (mod 2), that
// fits, and the root is shifted left by (F − s)/2: its last (F − s)/2 bits are zero.
// x ≤ 0 gives 0 (x < 0 is outside the domain; a variance that rounded below zero is 0).
//
// The integer root is a non-restoring digit recurrence (docs/hls.md "Square root"): one
// root bit per iteration, NQ = ceil(NB/2) iterations for an NB-bit radicand, each one
// add or subtract of (NQ + 2)-bit numbers chosen by the sign of the partial remainder (no
// restoring step). The loop has constant bounds, so inside a pipelined kernel loop Vitis
// unrolls it into NQ adder stages. src/backend/rtl/sv/inrarch_lane_sqrt.sv
// is the same recurrence on the same bits.
#ifndef INRARCH_HLS_FIXED_SQRT_H
#define INRARCH_HLS_FIXED_SQRT_H

#include <cmath>
#include <cstdint>

#include "fixed_exp_log.h"  // raw_of, from_raw_scaled

namespace inrarch_hls {

// floor(sqrt(d)) for d < 2^NB, NB ≤ 64. Invariant after step i: r = D_i − q², with D_i the
// radicand's top 2(NQ − i) bits, kept in the non-restoring form (a negative r is not
// restored; the next step adds instead of subtracting).
template <int NB>
inline std::uint64_t isqrt_nonrestoring(std::uint64_t d) {
  static_assert(NB >= 1 && NB <= 64, "isqrt: 1 <= NB <= 64");
  const int NQ = (NB + 1) / 2;
  std::uint64_t q = 0;
  std::int64_t r = 0;  // |r| < 2^(NQ + 2)
  for (int i = NQ - 1; i >= 0; --i) {
#pragma HLS unroll
    const std::int64_t pair = static_cast<std::int64_t>((d >> (2 * i)) & 3);
    const std::int64_t t = static_cast<std::int64_t>(q << 2);
    r = r >= 0 ? r * 4 + pair - (t | 1) : r * 4 + pair + (t | 3);
    q = (q << 1) | (r >= 0 ? 1u : 0u);
  }
  return q;
}

// The radicand's shift s (see above): F if W − 1 + F ≤ 64, else the largest s ≤ F of F's
// parity with W − 1 + s ≤ 64.
template <int W, int F>
struct sqrt_shift {
  enum { room = 65 - W, value = F <= room ? F : F - ((F - room + 1) / 2) * 2 };
};

template <int W, int I, ap_q_mode Q, ap_o_mode O, int N>
inline ap_fixed<W, I, Q, O, N> fx_sqrt(const ap_fixed<W, I, Q, O, N>& x) {
  typedef ap_fixed<W, I, Q, O, N> T;
  static_assert(I >= 1 && I <= W, "sqrt: 1 <= I <= W");
  const int F = W - I, S = sqrt_shift<W, F>::value;
  const std::int64_t r = raw_of(x);
  if (r <= 0) return T(0);
  const std::uint64_t root = isqrt_nonrestoring<W - 1 + S>(static_cast<std::uint64_t>(r) << S);
  return from_raw_scaled<T, F>(static_cast<std::int64_t>(root << ((F - S) / 2)));
}

inline double fx_sqrt(double x) { return std::sqrt(x); }
inline float fx_sqrt(float x) { return std::sqrt(x); }

}  // namespace inrarch_hls

#endif  // INRARCH_HLS_FIXED_SQRT_H
