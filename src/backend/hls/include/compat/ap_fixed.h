// INR-Arch compat ap_fixed.h: ap_fixed<W,I,Q,O,N> and ap_ufixed<W,I,Q,O,N> for C simulation
// without Vitis. W <= 64 is the supported range for declared types; results of arithmetic
// may be up to 128 bits wide (see ap_fixed_base.h and docs/hls.md).
#ifndef INRARCH_HLS_COMPAT_AP_FIXED_H
#define INRARCH_HLS_COMPAT_AP_FIXED_H

#include "ap_fixed_base.h"
#include "ap_int.h"

template <int W, int I, ap_q_mode Q, ap_o_mode O, int N>
struct ap_fixed : ap_fixed_base<W, I, true, Q, O, N> {
  typedef ap_fixed_base<W, I, true, Q, O, N> Base;
  using Base::Base;
  ap_fixed() {}
  // Inherited constructors skip the exact base type ([over.match.funcs]); restore it.
  ap_fixed(const Base& b) : Base(b) {}
  // Vitis's implicit conversion to double. Vitis also has implicit ones to float, int, etc.;
  // one is enough for C simulation and keeps overload resolution simple (so std::sin(x)
  // compiles here though it is ambiguous with Vitis's headers; x + 0.5 is an error in both).
  operator double() const { return this->to_double(); }
};

template <int W, int I, ap_q_mode Q, ap_o_mode O, int N>
struct ap_ufixed : ap_fixed_base<W, I, false, Q, O, N> {
  typedef ap_fixed_base<W, I, false, Q, O, N> Base;
  using Base::Base;
  ap_ufixed() {}
  ap_ufixed(const Base& b) : Base(b) {}
  operator double() const { return this->to_double(); }
};

#endif  // INRARCH_HLS_COMPAT_AP_FIXED_H
