// INR-Arch compat: ap_fixed_base, the common base of ap_fixed, ap_ufixed, ap_int, ap_uint.
// Include ap_fixed.h or ap_int.h, not this file.
//
// Arithmetic is exact: + - * / return a wider type chosen by Vitis's result-type rules
// (RType in Vitis's ap_fixed_base.h, restated in result_type below), so no bits are lost
// until the value is assigned to a declared type, where that type's quantization and
// overflow modes apply. Division truncates toward zero at the dividend's LSB, as Vitis.
// Implicit conversions to C types live in the leaf classes (ap_fixed.h, ap_int.h) so that
// ap_int does not inherit a conversion to double that would make a[i] ambiguous.
#ifndef INRARCH_HLS_COMPAT_AP_FIXED_BASE_H
#define INRARCH_HLS_COMPAT_AP_FIXED_BASE_H

#include <ostream>

#include "ap_common.h"

template <int W, int I, bool S, ap_q_mode Q = AP_TRN, ap_o_mode O = AP_WRAP, int N = 0>
struct ap_fixed_base;
template <int W, int I, ap_q_mode Q = AP_TRN, ap_o_mode O = AP_WRAP, int N = 0>
struct ap_fixed;
template <int W, int I, ap_q_mode Q = AP_TRN, ap_o_mode O = AP_WRAP, int N = 0>
struct ap_ufixed;

namespace ap_compat {

// The public type for a (W, I, S) result: ap_fixed or ap_ufixed.
template <int W, int I, bool S, ap_q_mode Q = AP_TRN, ap_o_mode O = AP_WRAP>
struct fixed_t {
  typedef ap_fixed<W, I, Q, O> type;
};
template <int W, int I, ap_q_mode Q, ap_o_mode O>
struct fixed_t<W, I, false, Q, O> {
  typedef ap_ufixed<W, I, Q, O> type;
};

// Vitis's result-type rules for a (W1,I1,S1) op (W2,I2,S2).
template <int W1, int I1, bool S1, int W2, int I2, bool S2>
struct result_type {
  enum {
    F1 = W1 - I1,
    F2 = W2 - I2,
    // integer bits of the wider operand; an unsigned operand needs one more to sit in a
    // signed result
    AI = max_i(I1 + (S2 && !S1), I2 + (S1 && !S2)),
    plus_i = AI + 1,
    plus_w = AI + 1 + max_i(F1, F2),
    mult_w = W1 + W2,
    mult_i = I1 + I2,
    div_w = S2 + W1 + max_i(F2, 0),
    div_i = S2 + I1 + F2,
    logic_w = AI + max_i(F1, F2),
    logic_i = AI
  };
  static const bool sign = S1 || S2;
  typedef typename fixed_t<plus_w, plus_i, sign>::type plus;
  typedef typename fixed_t<plus_w, plus_i, true>::type minus;
  typedef typename fixed_t<mult_w, mult_i, sign>::type mult;
  typedef typename fixed_t<div_w, div_i, sign>::type div;
};

// Width and signedness of a C integer type seen as an ap type (bool is ap_uint<1>).
template <class T>
struct c_int {
  static const int width = std::is_same<T, bool>::value ? 1 : int(sizeof(T) * 8);
  static const bool sign = std::is_signed<T>::value;
};

// Bits hi..lo of a raw value, readable and writable; hi >= lo (no bit reversal).
struct range_ref {
  i128* raw;
  int w;
  bool s;
  int hi, lo;
  u128 get() const {
    const int n = hi - lo + 1;
    u128 u = static_cast<u128>(*raw) >> lo;
    return n >= 128 ? u : (u & ((static_cast<u128>(1) << n) - 1));
  }
  void set(u128 v) {
    const int n = hi - lo + 1;
    const u128 field = n >= 128 ? ~static_cast<u128>(0) : ((static_cast<u128>(1) << n) - 1);
    u128 u = static_cast<u128>(*raw) & ~(field << lo);
    u |= (v & field) << lo;
    *raw = wrap_bits(static_cast<i128>(u), w, s);
  }
  range_ref& operator=(unsigned long long v) {
    set(v);
    return *this;
  }
  template <class AP>
  range_ref& operator=(const AP& v) {
    set(static_cast<u128>(v.raw()));
    return *this;
  }
  int length() const { return hi - lo + 1; }
  unsigned to_uint() const { return static_cast<unsigned>(get()); }
  unsigned long long to_uint64() const { return static_cast<unsigned long long>(get()); }
  operator unsigned long long() const { return to_uint64(); }
};

struct bit_ref {
  i128* raw;
  int w;
  bool s;
  int pos;
  operator bool() const { return ((static_cast<u128>(*raw) >> pos) & 1) != 0; }
  bit_ref& operator=(bool b) {
    range_ref r = {raw, w, s, pos, pos};
    r.set(b ? 1 : 0);
    return *this;
  }
};

}  // namespace ap_compat

template <int W, int I, bool S, ap_q_mode Q, ap_o_mode O, int N>
struct ap_fixed_base {
  static_assert(ap_compat::width_ok<W, S>::value,
                "ap compat: width must be 1..128 (signed) or 1..127 (unsigned); "
                "assign wide intermediates to a declared type");
  static_assert(O != AP_WRAP_SM, "ap compat: AP_WRAP_SM is not supported");
  static_assert(N == 0, "ap compat: saturation bits N > 0 are not supported");
  static const int width = W;
  static const int iwidth = I;
  static const bool sign = S;
  static const ap_q_mode qmode = Q;
  static const ap_o_mode omode = O;
  enum { F = W - I };

  // Raw value, reduced to W bits and sign/zero extended. Zero-initialised (Vitis leaves it
  // undefined) so that simulations are reproducible.
  ap_compat::i128 raw_;

  ap_fixed_base() : raw_(0) {}
  template <int W2, int I2, bool S2, ap_q_mode Q2, ap_o_mode O2, int N2>
  ap_fixed_base(const ap_fixed_base<W2, I2, S2, Q2, O2, N2>& o)
      : raw_(ap_compat::convert_raw(o.raw_, W2 - I2, W, F, S, Q, O)) {}
  ap_fixed_base(double d) : raw_(from_double(d)) {}
  ap_fixed_base(float d) : raw_(from_double(d)) {}
  template <class T, typename std::enable_if<std::is_integral<T>::value, int>::type = 0>
  ap_fixed_base(T v)
      : raw_(ap_compat::convert_raw(static_cast<ap_compat::i128>(v), 0, W, F, S, Q, O)) {}

  // Compat-only: build from / read a raw value (Vitis code uses .range() instead).
  static ap_fixed_base from_raw(ap_compat::i128 r) {
    ap_fixed_base x;
    x.raw_ = ap_compat::wrap_bits(r, W, S);
    return x;
  }
  ap_compat::i128 raw() const { return raw_; }

  double to_double() const { return ap_compat::raw_to_double(raw_, F); }
  float to_float() const { return static_cast<float>(to_double()); }
  int to_int() const { return static_cast<int>(ap_compat::trunc_to_integer(raw_, F)); }
  unsigned to_uint() const {
    return static_cast<unsigned>(ap_compat::trunc_to_integer(raw_, F));
  }
  long long to_int64() const {
    return static_cast<long long>(ap_compat::trunc_to_integer(raw_, F));
  }
  unsigned long long to_uint64() const {
    return static_cast<unsigned long long>(ap_compat::trunc_to_integer(raw_, F));
  }
  int length() const { return W; }
  bool operator!() const { return raw_ == 0; }

  ap_compat::range_ref range(int hi, int lo) const {
    ap_compat::range_ref r = {const_cast<ap_compat::i128*>(&raw_), W, S, hi, lo};
    return r;
  }
  ap_compat::range_ref range() const { return range(W - 1, 0); }
  ap_compat::bit_ref operator[](int i) const {
    ap_compat::bit_ref b = {const_cast<ap_compat::i128*>(&raw_), W, S, i};
    return b;
  }
  bool bit(int i) const { return (*this)[i]; }

  // Shifts keep the type (Vitis): bits move, overflow wraps, right shift floors.
  typename ap_compat::fixed_t<W, I, S, Q, O>::type operator<<(int sh) const {
    if (sh < 0) return *this >> -sh;
    ap_compat::i128 r = sh >= 128 ? 0 : static_cast<ap_compat::i128>(
                                            static_cast<ap_compat::u128>(raw_) << sh);
    return shifted(r);
  }
  typename ap_compat::fixed_t<W, I, S, Q, O>::type operator>>(int sh) const {
    if (sh < 0) return *this << -sh;
    return shifted(sh >= 127 ? (raw_ < 0 ? -1 : 0) : (raw_ >> sh));
  }

  // Unary minus widens by one bit so that -min is exact (Vitis).
  typename ap_compat::fixed_t<W + 1, I + 1, true>::type operator-() const {
    typename ap_compat::fixed_t<W + 1, I + 1, true>::type r;
    r.raw_ = -raw_;
    return r;
  }
  typename ap_compat::fixed_t<W, I, S, Q, O>::type operator+() const { return shifted(raw_); }

  // Compound assignment: exact result, then this type's quantization/overflow.
  template <class R>
  ap_fixed_base& operator+=(const R& r) { return *this = ap_fixed_base(*this + r); }
  template <class R>
  ap_fixed_base& operator-=(const R& r) { return *this = ap_fixed_base(*this - r); }
  template <class R>
  ap_fixed_base& operator*=(const R& r) { return *this = ap_fixed_base(*this * r); }
  template <class R>
  ap_fixed_base& operator/=(const R& r) { return *this = ap_fixed_base(*this / r); }
  ap_fixed_base& operator<<=(int sh) { return *this = *this << sh; }
  ap_fixed_base& operator>>=(int sh) { return *this = *this >> sh; }
  ap_fixed_base& operator++() { return *this += 1; }
  ap_fixed_base& operator--() { return *this -= 1; }
  ap_fixed_base operator++(int) {
    ap_fixed_base old = *this;
    *this += 1;
    return old;
  }
  ap_fixed_base operator--(int) {
    ap_fixed_base old = *this;
    *this -= 1;
    return old;
  }

 private:
  static ap_compat::i128 from_double(double d) {
    const ap_compat::split_double sd = ap_compat::split(d);
    return ap_compat::convert_raw(sd.m, sd.f, W, F, S, Q, O);
  }
  typename ap_compat::fixed_t<W, I, S, Q, O>::type shifted(ap_compat::i128 r) const {
    typename ap_compat::fixed_t<W, I, S, Q, O>::type out;
    out.raw_ = ap_compat::wrap_bits(r, W, S);
    return out;
  }
};

// Definitions for the static members, so that binding them to a reference (EXPECT_EQ,
// std::max) links in C++14 too.
#define INRARCH_AP_TPL1 template <int W, int I, bool S, ap_q_mode Q, ap_o_mode O, int N>
INRARCH_AP_TPL1 const int ap_fixed_base<W, I, S, Q, O, N>::width;
INRARCH_AP_TPL1 const int ap_fixed_base<W, I, S, Q, O, N>::iwidth;
INRARCH_AP_TPL1 const bool ap_fixed_base<W, I, S, Q, O, N>::sign;
INRARCH_AP_TPL1 const ap_q_mode ap_fixed_base<W, I, S, Q, O, N>::qmode;
INRARCH_AP_TPL1 const ap_o_mode ap_fixed_base<W, I, S, Q, O, N>::omode;
#undef INRARCH_AP_TPL1

// ---- binary arithmetic between ap types -------------------------------------------------
#define INRARCH_AP_TPL2                                                               \
  template <int W1, int I1, bool S1, ap_q_mode Q1, ap_o_mode O1, int N1, int W2, int I2, \
            bool S2, ap_q_mode Q2, ap_o_mode O2, int N2>
#define INRARCH_AP_A ap_fixed_base<W1, I1, S1, Q1, O1, N1>
#define INRARCH_AP_B ap_fixed_base<W2, I2, S2, Q2, O2, N2>
#define INRARCH_AP_RT typename ap_compat::result_type<W1, I1, S1, W2, I2, S2>

namespace ap_compat {
template <class R>
inline R make(i128 raw) {
  R r;
  r.raw_ = wrap_bits(raw, R::width, R::sign);
  return r;
}
// a's raw moved onto the LSB 2^-f (f >= a's F); exact because callers size f to fit.
template <class A>
inline i128 lift(const A& a, int f) {
  return static_cast<i128>(static_cast<u128>(a.raw_) << (f - A::F));
}
template <class A, class B>
inline int compare(const A& a, const B& b) {
  static_assert(result_type<A::width, A::iwidth, A::sign, B::width, B::iwidth,
                            B::sign>::plus_w <= 128,
                "ap compat: operands too far apart to compare in 128 bits");
  const int f = max_i(A::F, B::F);
  const i128 x = lift(a, f), y = lift(b, f);
  return x < y ? -1 : (x > y ? 1 : 0);
}
}  // namespace ap_compat

INRARCH_AP_TPL2 inline INRARCH_AP_RT::plus operator+(const INRARCH_AP_A& a, const INRARCH_AP_B& b) {
  typedef INRARCH_AP_RT::plus R;
  return ap_compat::make<R>(ap_compat::lift(a, R::F) + ap_compat::lift(b, R::F));
}
INRARCH_AP_TPL2 inline INRARCH_AP_RT::minus operator-(const INRARCH_AP_A& a, const INRARCH_AP_B& b) {
  typedef INRARCH_AP_RT::minus R;
  return ap_compat::make<R>(ap_compat::lift(a, R::F) - ap_compat::lift(b, R::F));
}
INRARCH_AP_TPL2 inline INRARCH_AP_RT::mult operator*(const INRARCH_AP_A& a, const INRARCH_AP_B& b) {
  typedef INRARCH_AP_RT::mult R;
  return ap_compat::make<R>(a.raw_ * b.raw_);  // |product| < 2^126: no i128 overflow
}
// (a.raw << max(F2,0)) / b.raw, truncated toward zero, as Vitis; x / 0 gives 0 here (Vitis:
// undefined) so a bad divisor shows up as a numeric error instead of a crash.
INRARCH_AP_TPL2 inline INRARCH_AP_RT::div operator/(const INRARCH_AP_A& a, const INRARCH_AP_B& b) {
  typedef INRARCH_AP_RT::div R;
  if (b.raw_ == 0) return R();
  const ap_compat::i128 num = ap_compat::lift(a, W1 - I1 + ap_compat::max_i(W2 - I2, 0));
  return ap_compat::make<R>(num / b.raw_);
}

#define INRARCH_AP_CMP(OP)                                                             \
  INRARCH_AP_TPL2 inline bool operator OP(const INRARCH_AP_A& a, const INRARCH_AP_B& b) { \
    return ap_compat::compare(a, b) OP 0;                                              \
  }                                                                                    \
  template <int W1, int I1, bool S1, ap_q_mode Q1, ap_o_mode O1, int N1, class T,       \
            typename std::enable_if<std::is_integral<T>::value, int>::type = 0>         \
  inline bool operator OP(const INRARCH_AP_A& a, T b) {                                \
    typedef ap_compat::c_int<T> C;                                                     \
    return ap_compat::compare(a, ap_fixed_base<C::width, C::width, C::sign>(b)) OP 0;  \
  }                                                                                    \
  template <int W1, int I1, bool S1, ap_q_mode Q1, ap_o_mode O1, int N1, class T,       \
            typename std::enable_if<std::is_integral<T>::value, int>::type = 0>         \
  inline bool operator OP(T b, const INRARCH_AP_A& a) {                                \
    typedef ap_compat::c_int<T> C;                                                     \
    return ap_compat::compare(ap_fixed_base<C::width, C::width, C::sign>(b), a) OP 0;  \
  }                                                                                    \
  template <int W1, int I1, bool S1, ap_q_mode Q1, ap_o_mode O1, int N1>               \
  inline bool operator OP(const INRARCH_AP_A& a, double b) {                           \
    return a.to_double() OP b;                                                         \
  }                                                                                    \
  template <int W1, int I1, bool S1, ap_q_mode Q1, ap_o_mode O1, int N1>               \
  inline bool operator OP(double b, const INRARCH_AP_A& a) {                           \
    return b OP a.to_double();                                                         \
  }
INRARCH_AP_CMP(==)
INRARCH_AP_CMP(!=)
INRARCH_AP_CMP(<)
INRARCH_AP_CMP(<=)
INRARCH_AP_CMP(>)
INRARCH_AP_CMP(>=)
#undef INRARCH_AP_CMP

// C integers join arithmetic as ap_fixed<bits, bits> (Vitis). Floating-point operands are
// rejected, as Vitis's headers reject them (ambiguous there): convert explicitly.
#define INRARCH_AP_MIXED(OP)                                                            \
  template <int W1, int I1, bool S1, ap_q_mode Q1, ap_o_mode O1, int N1, class T,        \
            typename std::enable_if<std::is_integral<T>::value, int>::type = 0>          \
  inline auto operator OP(const INRARCH_AP_A& a, T b)                                   \
      -> decltype(a OP ap_fixed_base<ap_compat::c_int<T>::width,                        \
                                     ap_compat::c_int<T>::width, ap_compat::c_int<T>::sign>()) { \
    typedef ap_compat::c_int<T> C;                                                      \
    return a OP ap_fixed_base<C::width, C::width, C::sign>(b);                          \
  }                                                                                     \
  template <int W1, int I1, bool S1, ap_q_mode Q1, ap_o_mode O1, int N1, class T,        \
            typename std::enable_if<std::is_integral<T>::value, int>::type = 0>          \
  inline auto operator OP(T b, const INRARCH_AP_A& a)                                   \
      -> decltype(ap_fixed_base<ap_compat::c_int<T>::width, ap_compat::c_int<T>::width, \
                                ap_compat::c_int<T>::sign>() OP a) {                    \
    typedef ap_compat::c_int<T> C;                                                      \
    return ap_fixed_base<C::width, C::width, C::sign>(b) OP a;                          \
  }                                                                                     \
  template <int W1, int I1, bool S1, ap_q_mode Q1, ap_o_mode O1, int N1, class T,        \
            typename std::enable_if<std::is_floating_point<T>::value, int>::type = 0>    \
  void operator OP(const INRARCH_AP_A& a, T b) = delete;                                \
  template <int W1, int I1, bool S1, ap_q_mode Q1, ap_o_mode O1, int N1, class T,        \
            typename std::enable_if<std::is_floating_point<T>::value, int>::type = 0>    \
  void operator OP(T b, const INRARCH_AP_A& a) = delete;
INRARCH_AP_MIXED(+)
INRARCH_AP_MIXED(-)
INRARCH_AP_MIXED(*)
INRARCH_AP_MIXED(/)
#undef INRARCH_AP_MIXED

template <int W1, int I1, bool S1, ap_q_mode Q1, ap_o_mode O1, int N1>
inline std::ostream& operator<<(std::ostream& os, const INRARCH_AP_A& a) {
  return os << a.to_double();
}

#undef INRARCH_AP_TPL2
#undef INRARCH_AP_A
#undef INRARCH_AP_B
#undef INRARCH_AP_RT

#endif  // INRARCH_HLS_COMPAT_AP_FIXED_BASE_H
