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

// One beat: Block consecutive elements (row-major) of the array.
template <class T, int B>
struct beat {
  T v[B];
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
// A value that does not fit the number type wraps (ap_fixed's default) and the design then
// returns wrong numbers with no sign of it. In C simulation every conversion of a result
// into the number type goes through fit(), which counts the values out of range; the
// testbench and the simulation driver fail on any. Synthesis sees the plain conversion.
template <class T>
struct range_of {  // float, double: no overflow to speak of
  static bool holds(double) { return true; }
};
template <int W, int I, ap_q_mode Q, ap_o_mode O, int N>
struct range_of<ap_fixed<W, I, Q, O, N> > {
  static bool holds(double v) {
    const double top = std::ldexp(1.0, I - 1);
    return v >= -top && v < top;  // below top truncates to the largest value; at top it wraps
  }
};

#ifndef __SYNTHESIS__
struct overflow_state {
  unsigned long long count;
  void (*hook)();  // called at each overflow (the simulation driver names the process)
};
inline overflow_state& overflows() {
  static overflow_state s = {0, 0};
  return s;
}
inline void count_overflow() {
  ++overflows().count;
  if (overflows().hook) overflows().hook();
}
#endif

template <class T, class V>
inline T fit(const V& v) {
#ifndef __SYNTHESIS__
  if (!range_of<T>::holds(to_double(v))) count_overflow();
#endif
  return T(v);
}

}  // namespace inrarch_hls

#endif  // INRARCH_HLS_ARRAY_STREAM_H
