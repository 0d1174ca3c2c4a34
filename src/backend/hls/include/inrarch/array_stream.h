// INR-Arch HLS kernel library: array streams.
//
// An array_stream<T, Shape, Block> is an hls::stream of beats (Block elements of T each)
// that carries `rows` arrays of shape Shape in row-major order, one after the other: Shape
// is one sample's part (its dim 0 the sample's share of the batch dimension), and `rows`,
// the number of samples, is a run-time argument of every kernel (1 for a design whose
// samples are not independent, whose Shape is then the whole array). Shape and block are
// compile-time metadata, so kernels check operand shapes with static_asserts and size
// their loops from the types alone; the generated top declares one per dataflow stream.
// Header-only, C++14 (what Vitis HLS compiles).
#ifndef INRARCH_HLS_ARRAY_STREAM_H
#define INRARCH_HLS_ARRAY_STREAM_H

#include <cmath>

#include "../inrarch_hls_types.h"

// The HLS pragmas are for Vitis; g++ builds for C simulation pass -Wno-unknown-pragmas
// (GCC's "#pragma GCC diagnostic" cannot silence that warning from inside a header).

// INRARCH_STEP() marks the start of one schedule step (one pipelined loop iteration) in a
// kernel. It compiles to nothing for synthesis and the plain testbench; the simulation
// driver (-DINRARCH_SIM) installs a hook so the trace check can compare the FIFO-op
// grouping with the dataflow schedule (src/dataflow/schedule.h).
#ifdef INRARCH_SIM
#define INRARCH_STEP() ::inrarch_hls::sim_step()
#else
#define INRARCH_STEP() ((void)0)
#endif

namespace inrarch_hls {

#ifdef INRARCH_SIM
typedef void (*step_hook_fn)();
inline step_hook_fn& step_hook() {
  static step_hook_fn h = 0;
  return h;
}
inline void sim_step() {
  if (step_hook()) step_hook()();
}
#endif

enum { kMaxRank = 8 };

// A compile-time array shape; rank 0 is a scalar (one element).
template <int... D>
struct shape {
  static constexpr int rank = sizeof...(D);
  static constexpr int dim(int i) {
    const int d[] = {D..., 0};
    return d[i];
  }
  static constexpr int numel() {
    const int d[] = {D..., 0};
    int n = 1;
    for (int i = 0; i < rank; ++i) n *= d[i];
    return n;
  }
  static constexpr int last() { return rank == 0 ? 1 : dim(rank - 1); }
  // Row-major multi-index of element o, and back.
  static void unravel(int o, int idx[kMaxRank]) {
    for (int i = rank - 1; i >= 0; --i) {
      idx[i] = o % dim(i);
      o /= dim(i);
    }
  }
  static int ravel(const int idx[kMaxRank]) {
    int e = 0;
    for (int i = 0; i < rank; ++i) e = e * dim(i) + idx[i];
    return e;
  }
  static_assert(rank <= kMaxRank, "inrarch_hls::shape: rank above kMaxRank");
};

// One beat: Block consecutive elements (row-major) of the array, and a 1-bit sideband (as
// AXI4-Stream's TUSER): set when this value or any value the writing kernel read or made
// before it saturated (docs/hls.md "Range safety"). Value-initialize (beat<T, B>()) or set
// ovf: a default-initialized bool is indeterminate.
template <class T, int B>
struct beat {
  T v[B];
  bool ovf;
};

template <class T, class S, int B>
class array_stream : public hls::stream<beat<T, B> > {
 public:
  typedef T elem_type;
  typedef S shape_type;
  typedef beat<T, B> beat_type;
  static constexpr int block = B;
  static constexpr int numel = S::numel();
  static constexpr int beats = S::numel() / B;
  static_assert(B >= 1, "array_stream: block must be >= 1");
  static_assert(S::last() % B == 0, "array_stream: a beat must not straddle a row");

  array_stream() : hls::stream<beat<T, B> >() {}
  explicit array_stream(const char* name) : hls::stream<beat<T, B> >(name) {}
};

// Accumulator of dot products and sums: exact enough that a K-term sum of T products
// loses nothing visible in T (ap_fixed: twice the integer bits plus 8 guard bits).
template <class T>
struct acc_type {
  typedef T type;
};
template <int W, int I, ap_q_mode Q, ap_o_mode O, int N>
struct acc_type<ap_fixed<W, I, Q, O, N> > {
  typedef ap_fixed<64, (2 * I + 8 < 60 ? 2 * I + 8 : 60)> type;
};

// x * 2^s in x's own type: a shift for ap_fixed (bits below the LSB drop), ldexp for
// floating point. Kernels realign power-of-two scaled values with it (scaled.h).
template <class A>
inline A shift_pow2(const A& x, int s) {
  return s >= 0 ? A(x << s) : A(x >> -s);
}
inline double shift_pow2(double x, int s) { return std::ldexp(x, s); }
inline float shift_pow2(float x, int s) { return std::ldexp(x, s); }

// C simulation's form of a ROM (weights.h): the values of type T converted once from
// double initializers, which compile far faster than ap_fixed initializers. Synthesis
// sees a plain const array instead.
template <class T, int N>
struct rom_table {
  T v[N];
  explicit rom_table(const double (&init)[N]) {
    for (int i = 0; i < N; ++i) v[i] = T(init[i]);
  }
};

inline double to_double(double x) { return x; }
inline double to_double(float x) { return x; }
template <int W, int I, ap_q_mode Q, ap_o_mode O, int N>
inline double to_double(const ap_fixed<W, I, Q, O, N>& x) {
  return x.to_double();
}
template <int W, int I, ap_q_mode Q, ap_o_mode O, int N>
inline double to_double(const ap_ufixed<W, I, Q, O, N>& x) {
  return x.to_double();
}

// ---- range safety (docs/hls.md "Range safety") ----------------------------------------
// A value that does not fit the number type saturates: fit() clamps it to the type's
// largest or smallest value (ap_fixed's default AP_WRAP would return garbage), in C
// simulation and in synthesis alike, and reports it in `ovf`, which the kernel carries on
// every beat it writes after it. C simulation also counts each one; the testbench and the
// simulation driver fail on any.
template <class T>
struct range_of {  // float, double: no overflow to speak of
  typedef T sat_type;
  static bool holds(double) { return true; }
  template <class V>
  static bool holds_fixed(const V&) { return true; }
};
template <int W, int I, ap_q_mode Q, ap_o_mode O, int N>
struct range_of<ap_fixed<W, I, Q, O, N> > {
  // The same type with AP_SAT: what a conversion goes through to clamp instead of wrap.
  typedef ap_fixed<W, I, Q, AP_SAT, N> sat_type;
  static bool holds(double v) {
    const double top = std::ldexp(1.0, I - 1);
    return v >= -top && v < top;  // below top truncates to the largest value; at top it saturates
  }
  // The same test on a fixed-point value, in logic: floor(v), clamped to I + 2 bits (the
  // fraction bits do not matter, since +-2^(I-1) are integers), compared with +-2^(I-1).
  // The narrow compare also keeps the compat headers within their 128 bits for any v.
  template <class V>
  static bool holds_fixed(const V& v) {
    typedef ap_fixed<I + 2, I + 2, AP_TRN, AP_SAT> floor_t;
    const floor_t f = v;
    const floor_t top = floor_t(1) << (I - 1);
    const floor_t bottom = -top;
    return !(f < bottom) && f < top;
  }
};
template <class T, class V>
struct fits {
  static bool test(const V& v) { return range_of<T>::holds_fixed(v); }
};
template <class T>
struct fits<T, double> {
  static bool test(double v) { return range_of<T>::holds(v); }
};
template <class T>
struct fits<T, float> {
  static bool test(float v) { return range_of<T>::holds(v); }
};

#ifndef __SYNTHESIS__
struct overflow_state {
  unsigned long long count;
  // Called at each overflow with the value that did not fit (the simulation driver names
  // the process and keeps the span its values out of range reached).
  void (*hook)(double);
};
inline overflow_state& overflows() {
  static overflow_state s = {0, 0};
  return s;
}
inline void count_overflow(double reached) {
  ++overflows().count;
  if (overflows().hook) overflows().hook(reached);
}
#endif

// v in T, saturated; ovf |= whether it had to be.
template <class T, class V>
inline T fit(const V& v, bool& ovf) {
  const bool in = fits<T, V>::test(v);
#ifndef __SYNTHESIS__
  if (!in) count_overflow(to_double(v));
#endif
  ovf = ovf || !in;
  return T(typename range_of<T>::sat_type(v));
}
template <class T, class V>
inline T fit(const V& v) {
  bool ovf = false;
  return fit<T>(v, ovf);
}

}  // namespace inrarch_hls

#endif  // INRARCH_HLS_ARRAY_STREAM_H
