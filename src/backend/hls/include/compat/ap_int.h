// INR-Arch compat ap_int.h: ap_int<W> / ap_uint<W> for C simulation without Vitis.
//
// ap_int_base<W,S> is an ap_fixed_base<W,W,S> (an integer is a fixed-point number with no
// fraction bits), so mixed ap_int/ap_fixed arithmetic reuses the fixed-point operators;
// ap_int op ap_int gets the integer result types of Vitis (same widths as the fixed rules
// with F = 0, but the result is an ap_int/ap_uint), plus %, bitwise ops and shifts.
// Conversions into an ap_int truncate toward zero (C's double->int rule; Vitis does the
// same from ap_fixed) and wrap to W bits.
#ifndef INRARCH_HLS_COMPAT_AP_INT_H
#define INRARCH_HLS_COMPAT_AP_INT_H

#include "ap_fixed_base.h"

template <int W, bool S>
struct ap_int_base;
template <int W>
struct ap_int;
template <int W>
struct ap_uint;

namespace ap_compat {
template <int W, bool S>
struct int_t {
  typedef ap_int<W> type;
};
template <int W>
struct int_t<W, false> {
  typedef ap_uint<W> type;
};
template <int W1, bool S1, int W2, bool S2>
struct int_result {
  enum {
    AW = max_i(W1 + (S2 && !S1), W2 + (S1 && !S2)),
    plus_w = AW + 1,
    mult_w = W1 + W2,
    div_w = W1 + S2,
    mod_w = min_i(W1, W2 + (!S2 && S1)),
    logic_w = AW
  };
  static const bool sign = S1 || S2;
  typedef typename int_t<plus_w, sign>::type plus;
  typedef typename int_t<plus_w, true>::type minus;
  typedef typename int_t<mult_w, sign>::type mult;
  typedef typename int_t<div_w, sign>::type div;
  typedef typename int_t<mod_w, S1>::type mod;
  typedef typename int_t<logic_w, sign>::type logic;
};
}  // namespace ap_compat

template <int W, bool S>
struct ap_int_base : ap_fixed_base<W, W, S> {
  typedef ap_fixed_base<W, W, S> Fixed;
  typedef typename ap_compat::int_t<W, S>::type Leaf;

  ap_int_base() {}
  template <int W2, int I2, bool S2, ap_q_mode Q2, ap_o_mode O2, int N2>
  ap_int_base(const ap_fixed_base<W2, I2, S2, Q2, O2, N2>& o) {
    this->raw_ = ap_compat::wrap_bits(ap_compat::trunc_to_integer(o.raw_, W2 - I2), W, S);
  }
  ap_int_base(double d) { set_trunc(d); }
  ap_int_base(float d) { set_trunc(d); }
  template <class T, typename std::enable_if<std::is_integral<T>::value, int>::type = 0>
  ap_int_base(T v) {
    this->raw_ = ap_compat::wrap_bits(static_cast<ap_compat::i128>(v), W, S);
  }
  ap_int_base(const ap_compat::range_ref& r) {
    this->raw_ = ap_compat::wrap_bits(static_cast<ap_compat::i128>(r.get()), W, S);
  }

  // Shifts keep the type; right shift is arithmetic for ap_int, logical for ap_uint.
  Leaf operator<<(int sh) const {
    if (sh < 0) return *this >> -sh;
    return make(sh >= 128 ? 0 : static_cast<ap_compat::i128>(
                                    static_cast<ap_compat::u128>(this->raw_) << sh));
  }
  Leaf operator>>(int sh) const {
    if (sh < 0) return *this << -sh;
    return make(sh >= 127 ? (this->raw_ < 0 ? -1 : 0) : (this->raw_ >> sh));
  }
  Leaf operator~() const { return make(~this->raw_); }
  typename ap_compat::int_t<W + 1, true>::type operator-() const {
    typename ap_compat::int_t<W + 1, true>::type r;
    r.raw_ = -this->raw_;
    return r;
  }
  Leaf operator+() const { return make(this->raw_); }

  template <class R>
  ap_int_base& operator+=(const R& r) { return *this = ap_int_base(*this + r); }
  template <class R>
  ap_int_base& operator-=(const R& r) { return *this = ap_int_base(*this - r); }
  template <class R>
  ap_int_base& operator*=(const R& r) { return *this = ap_int_base(*this * r); }
  template <class R>
  ap_int_base& operator/=(const R& r) { return *this = ap_int_base(*this / r); }
  template <class R>
  ap_int_base& operator%=(const R& r) { return *this = ap_int_base(*this % r); }
  template <class R>
  ap_int_base& operator&=(const R& r) { return *this = ap_int_base(*this & r); }
  template <class R>
  ap_int_base& operator|=(const R& r) { return *this = ap_int_base(*this | r); }
  template <class R>
  ap_int_base& operator^=(const R& r) { return *this = ap_int_base(*this ^ r); }
  ap_int_base& operator<<=(int sh) { return *this = *this << sh; }
  ap_int_base& operator>>=(int sh) { return *this = *this >> sh; }
  ap_int_base& operator++() { return *this += 1; }
  ap_int_base& operator--() { return *this -= 1; }
  Leaf operator++(int) {
    Leaf old = make(this->raw_);
    *this += 1;
    return old;
  }
  Leaf operator--(int) {
    Leaf old = make(this->raw_);
    *this -= 1;
    return old;
  }

 private:
  static Leaf make(ap_compat::i128 r) { return ap_compat::make<Leaf>(r); }
  void set_trunc(double d) {
    // C semantics: toward zero; out-of-range values wrap via the split form
    const double t = std::trunc(d);
    const ap_compat::split_double sd = ap_compat::split(t);
    this->raw_ = ap_compat::convert_raw(sd.m, sd.f, W, 0, S, AP_TRN, AP_WRAP);
  }
};

template <int W>
struct ap_int : ap_int_base<W, true> {
  typedef ap_int_base<W, true> Base;
  using Base::Base;
  ap_int() {}
  ap_int(const Base& b) : Base(b) {}
  operator long long() const { return static_cast<long long>(this->raw_); }
};

template <int W>
struct ap_uint : ap_int_base<W, false> {
  typedef ap_int_base<W, false> Base;
  using Base::Base;
  ap_uint() {}
  ap_uint(const Base& b) : Base(b) {}
  operator unsigned long long() const { return static_cast<unsigned long long>(this->raw_); }
};

// ---- ap_int op ap_int: integer result types ------------------------------------------
#define INRARCH_AI_TPL template <int W1, bool S1, int W2, bool S2>
#define INRARCH_AI_RT typename ap_compat::int_result<W1, S1, W2, S2>
#define INRARCH_AI_BIN(OP, RTY, EXPR)                                                 \
  INRARCH_AI_TPL inline INRARCH_AI_RT::RTY operator OP(const ap_int_base<W1, S1>& a,  \
                                                       const ap_int_base<W2, S2>& b) { \
    const ap_compat::i128 x = a.raw_, y = b.raw_;                                     \
    return ap_compat::make<INRARCH_AI_RT::RTY>(EXPR);                                 \
  }
INRARCH_AI_BIN(+, plus, x + y)
INRARCH_AI_BIN(-, minus, x - y)
INRARCH_AI_BIN(*, mult, x * y)
INRARCH_AI_BIN(/, div, y == 0 ? 0 : x / y)  // x / 0 -> 0, as for ap_fixed
INRARCH_AI_BIN(%, mod, y == 0 ? 0 : x % y)  // C remainder: sign of the dividend
INRARCH_AI_BIN(&, logic, x & y)
INRARCH_AI_BIN(|, logic, x | y)
INRARCH_AI_BIN(^, logic, x ^ y)
#undef INRARCH_AI_BIN

// C integers join as ap_int<bits> / ap_uint<bits>.
#define INRARCH_AI_MIXED(OP)                                                         \
  template <int W1, bool S1, class T,                                                \
            typename std::enable_if<std::is_integral<T>::value, int>::type = 0>      \
  inline auto operator OP(const ap_int_base<W1, S1>& a, T b)                         \
      -> decltype(a OP ap_int_base<ap_compat::c_int<T>::width, ap_compat::c_int<T>::sign>()) { \
    return a OP ap_int_base<ap_compat::c_int<T>::width, ap_compat::c_int<T>::sign>(b); \
  }                                                                                  \
  template <int W1, bool S1, class T,                                                \
            typename std::enable_if<std::is_integral<T>::value, int>::type = 0>      \
  inline auto operator OP(T b, const ap_int_base<W1, S1>& a)                         \
      -> decltype(ap_int_base<ap_compat::c_int<T>::width, ap_compat::c_int<T>::sign>() OP a) { \
    return ap_int_base<ap_compat::c_int<T>::width, ap_compat::c_int<T>::sign>(b) OP a; \
  }
INRARCH_AI_MIXED(+)
INRARCH_AI_MIXED(-)
INRARCH_AI_MIXED(*)
INRARCH_AI_MIXED(/)
INRARCH_AI_MIXED(%)
INRARCH_AI_MIXED(&)
INRARCH_AI_MIXED(|)
INRARCH_AI_MIXED(^)
#undef INRARCH_AI_MIXED
#undef INRARCH_AI_TPL
#undef INRARCH_AI_RT

template <int W, bool S>
inline std::ostream& operator<<(std::ostream& os, const ap_int_base<W, S>& a) {
  return S ? (os << a.to_int64()) : (os << a.to_uint64());
}

// Vitis's ap_int.h brings ap_fixed too; code relying on that compiles here as well.
#include "ap_fixed.h"

#endif  // INRARCH_HLS_COMPAT_AP_INT_H
