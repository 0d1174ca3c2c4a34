// INR-Arch HLS kernel library: power-of-two scaled operators (compiler side:
// src/backend/hls/scaling.h). A stream or constant with exponent k holds value * 2^k.
// scaled1<Op, EA, EO> and scaled2<Op, EA, EB, EO> wrap an operator of elementwise.h: they
// realign operands and result in the wide accumulator type (acc_type), where the shifts
// are exact and, in hardware, wiring. Header-only, C++14.
#ifndef INRARCH_HLS_SCALED_H
#define INRARCH_HLS_SCALED_H

#include "array_stream.h"
#include "elementwise.h"

namespace inrarch_hls {

// How an operator's result scales with its operands.
enum scale_rule {
  kOnTrueValues,  // nonlinear: compute on the true value, scale the result
  kHomogeneous,   // f(2^k x) = 2^k f(x): neg, relu
  kInvariant,     // f(2^k x) = f(x): step
  kSum,           // add, sub: align both operands to the result's exponent
  kProduct,       // mul: exponents add
  kQuotient       // div: exponents subtract
};
template <class Op> struct rule_of { static const scale_rule value = kOnTrueValues; };
template <> struct rule_of<op_neg> { static const scale_rule value = kHomogeneous; };
template <> struct rule_of<op_relu> { static const scale_rule value = kHomogeneous; };
template <> struct rule_of<op_step> { static const scale_rule value = kInvariant; };
template <> struct rule_of<op_add> { static const scale_rule value = kSum; };
template <> struct rule_of<op_sub> { static const scale_rule value = kSum; };
template <> struct rule_of<op_mul> { static const scale_rule value = kProduct; };
template <> struct rule_of<op_mul_fabric> { static const scale_rule value = kProduct; };

// The exact product in the accumulator type; op_mul_fabric's binds it to LUTs.
template <class Op>
struct multiplier {
  template <class T>
  static typename acc_type<T>::type product(const T& a, const T& b) {
    return typename acc_type<T>::type(a * b);
  }
};
template <>
struct multiplier<op_mul_fabric> {
  template <class T>
  static typename acc_type<T>::type product(const T& a, const T& b) {
    typename acc_type<T>::type r = a * b;
#pragma HLS bind_op variable = r op = mul impl = fabric
    return r;
  }
};
template <> struct rule_of<op_div> { static const scale_rule value = kQuotient; };

// ovf |= any conversion into T that saturated (array_stream.h fit).
template <class Op, int EA, int EO>
struct scaled1 {
  template <class T>
  static T apply(const T& a, bool& o) {
    typedef typename acc_type<T>::type A;
    const scale_rule r = rule_of<Op>::value;
    if (r == kHomogeneous) return fit<T>(shift_pow2(A(Op::apply(a, o)), EO - EA), o);
    if (r == kInvariant) return fit<T>(shift_pow2(A(Op::apply(a, o)), EO), o);
    T x = EA == 0 ? a : fit<T>(shift_pow2(A(a), -EA), o);
    return EO == 0 ? Op::apply(x, o) : fit<T>(shift_pow2(A(Op::apply(x, o)), EO), o);
  }
};

template <class Op, int EA, int EB, int EO>
struct scaled2 {
  template <class T>
  static T apply(const T& a, const T& b, bool& o) {
    typedef typename acc_type<T>::type A;
    const scale_rule r = rule_of<Op>::value;
    if (r == kSum) return fit<T>(Op::apply(shift_pow2(A(a), EO - EA), shift_pow2(A(b), EO - EB), o), o);
    if (r == kProduct) return fit<T>(shift_pow2(multiplier<Op>::product(a, b), EO - EA - EB), o);
    if (r == kQuotient) return fit<T>(shift_pow2(A(Op::apply(a, b, o)), EO - EA + EB), o);
    T x = EA == 0 ? a : fit<T>(shift_pow2(A(a), -EA), o);
    T y = EB == 0 ? b : fit<T>(shift_pow2(A(b), -EB), o);
    return EO == 0 ? Op::apply(x, y, o) : fit<T>(shift_pow2(A(Op::apply(x, y, o)), EO), o);
  }
};

}  // namespace inrarch_hls

#endif  // INRARCH_HLS_SCALED_H
