// INR-Arch HLS kernel library: elementwise kernels (dataflow kinds `unary` and `binary`).
//
// Loop nest (schedule.h, II=1, L = D, the op's pipeline depth, elementwise.def: 1, or a
// digit recurrence's stages for div and sqrt): step i reads beat i of every streamed operand
// (in operand order) and writes the result of beat i-D, so n beats take n+D steps; a result
// waits D iterations in a delay line (pipe), which is what a pipeline of depth D does. A constant
// operand is not a stream: a scalar (splat) or a ROM array, the size of the operand or, for
// a broadcast that repeats P values (a bias [1,N] over a batch), of those P values.
// A folded kernel (FOLD = the design's ew_fold > 1: B / FOLD lanes take a beat in FOLD
// chunks) starts an iteration every FOLD cycles (II = FOLD, so Vitis shares each operator
// across FOLD elements), and D is its depth in those steps (elementwise_steps).
#ifndef INRARCH_HLS_ELEMENTWISE_H
#define INRARCH_HLS_ELEMENTWISE_H

#include "../fixed_exp_log.h"
#include "../fixed_math.h"
#include "../fixed_sqrt.h"
#include "array_stream.h"

namespace inrarch_hls {

// ---- operators (one per elementwise op of ops.def) -----------------------------------
// apply(operands..., ovf): the result in T, saturated; ovf |= whether it had to be.
struct op_neg { template <class T> static T apply(const T& a, bool& o) { return fit<T>(-a, o); } };
struct op_sin { template <class T> static T apply(const T& a, bool&) { return rom_sin(a); } };
struct op_cos { template <class T> static T apply(const T& a, bool&) { return rom_cos(a); } };
// exp/tanh/log: table + interpolation for ap_fixed, the C library for float/double
// (fixed_exp_log.h). exp saturates (and says so) above the type's max.
struct op_exp { template <class T> static T apply(const T& a, bool& o) { return fx_exp(a, o); } };
struct op_tanh { template <class T> static T apply(const T& a, bool&) { return fx_tanh(a); } };
struct op_log { template <class T> static T apply(const T& a, bool&) { return fx_log(a); } };
// sqrt: a digit-recurrence integer root of the raw bits for ap_fixed (fixed_sqrt.h), 0 for
// x <= 0; std::sqrt for float/double.
struct op_sqrt { template <class T> static T apply(const T& a, bool&) { return fx_sqrt(a); } };
struct op_relu { template <class T> static T apply(const T& a, bool&) { return a > T(0) ? a : T(0); } };
struct op_step { template <class T> static T apply(const T& a, bool&) { return a > T(0) ? T(1) : T(0); } };
struct op_add { template <class T> static T apply(const T& a, const T& b, bool& o) { return fit<T>(a + b, o); } };
struct op_sub { template <class T> static T apply(const T& a, const T& b, bool& o) { return fit<T>(a - b, o); } };
struct op_mul { template <class T> static T apply(const T& a, const T& b, bool& o) { return fit<T>(a * b, o); } };
// The same multiply in LUTs instead of DSP48E2s: the search picks it when DSPs are the
// scarce resource (a kernel streaming one beat a cycle keeps its multiplier busy a few
// percent of the time, and the DSPs do more in an mm); resources.h prices it.
struct op_mul_fabric {
  template <class T>
  static T apply(const T& a, const T& b, bool& o) {
    T r = fit<T>(a * b, o);
#pragma HLS bind_op variable = r op = mul impl = fabric
    return r;
  }
};
struct op_div { template <class T> static T apply(const T& a, const T& b, bool& o) { return fit<T>(a / b, o); } };

// ---- operand sources: fetch() once per beat, at(i, e) = element e of beat i -------------
// (A ROM of a whole operand is only used with rows = 1; a row design's ROMs hold one
// sample, P > 0.)
template <class S>
struct from_stream {
  S& s;
  typename S::beat_type b;
  explicit from_stream(S& st) : s(st), b() {}
  void fetch() { b = s.read(); }
  typename S::elem_type at(int, int e) const { return b.v[e]; }
  bool ovf() const { return b.ovf; }
};
template <class T>
struct from_splat {
  T c;
  explicit from_splat(T v) : c(v) {}
  void fetch() {}
  T at(int, int) const { return c; }
  bool ovf() const { return false; }
};
// A ROM operand. P = 0: the ROM holds the whole operand, element e of beat i is
// rom[i*B + e]. P > 0: it holds the P values a leading broadcast repeats, element e of beat
// i is rom[(i*B + e) mod P]. No divider: the beat's first index `base` is a running count
// that wraps at P, which is exact because B divides P (lowering only peels a broadcast
// whose P is a multiple of the last dim, which B divides) unless P = 1 (one value).
template <class T, int B, int P = 0>
struct from_rom {
  static_assert(P >= 0 && (P <= 1 || P % B == 0), "a ROM period is 1 or a multiple of the block");
  const T* rom;
  int base, next;  // P > 0: first index of the current beat, of the next one
  explicit from_rom(const T* r) : rom(r), base(0), next(0) {}
  void fetch() {
    if (P == 0) return;
    base = next;
    next = next + B >= P ? 0 : next + B;
  }
  T at(int i, int e) const { return P == 0 ? rom[i * B + e] : P == 1 ? rom[0] : rom[base + e]; }
  bool ovf() const { return false; }
};

template <class S> from_stream<S> streamed(S& s) { return from_stream<S>(s); }
template <class T> from_splat<T> splat(T v) { return from_splat<T>(v); }
template <int B, int P = 0, class T> from_rom<T, B, P> rom(const T* r) { return from_rom<T, B, P>(r); }

// Every kernel keeps a sticky bit: the OR of the ovf of each beat it has read and of its
// own saturations. Each beat it writes carries it. The kernel that writes an output port
// takes the top's flag of that port (bool&, one writer per scalar as a dataflow region
// requires) and sets it to the bit after its last beat; the form without a flag is for
// kernels inside the design.

// The results in flight: step i stores the result of beat i, and beat i - D leaves first.
// A ring of D registers (partitioned: every slot a register), indexed by a wrapping count,
// not i % D, which would be a divider in the loop.
template <class T, int B, int D>
struct pipe {
  static_assert(D >= 1, "a pipeline of depth >= 1");
  beat<T, B> line[D];
  int at;  // step i's slot: i mod D
  pipe() : line(), at(0) {
#pragma HLS array_partition variable = line complete
  }
  // One step: the result of beat i - D (to write when i >= D), then the result of beat i held.
  beat<T, B> shift(const beat<T, B>& cur) {
#pragma HLS inline
    beat<T, B> out = line[at];
    line[at] = cur;
    at = at + 1 == D ? 0 : at + 1;
    return out;
  }
};

// out = Op(a): the only operand is streamed.
template <class Op, int D = 1, int FOLD = 1, class T, class S, int B>
void unary(int rows, array_stream<T, S, B>& in, array_stream<T, S, B>& out, bool& flag) {
  const int n = rows * (S::numel() / B);
  pipe<T, B, D> line;
  bool ovf = false;
  for (int i = 0; i < n + D; ++i) {
#pragma HLS pipeline II = FOLD
    INRARCH_STEP();
    beat<T, B> cur = beat<T, B>();
    if (i < n) {
      beat<T, B> x = in.read();
      for (int e = 0; e < B; ++e) {
#pragma HLS unroll
        cur.v[e] = Op::apply(x.v[e], ovf);
      }
      ovf = ovf || x.ovf;
      cur.ovf = ovf;
    }
    beat<T, B> done = line.shift(cur);
    if (i >= D) out.write(done);
  }
  flag = ovf;
}
template <class Op, int D = 1, int FOLD = 1, class T, class S, int B>
void unary(int rows, array_stream<T, S, B>& in, array_stream<T, S, B>& out) {
  bool unused = false;
  unary<Op, D, FOLD>(rows, in, out, unused);
}

// out = Op(a, b) with each operand streamed, a splat or a ROM (at least one streamed).
// Streamed operands are read in operand order, as the schedule lists them.
template <class Op, int D = 1, int FOLD = 1, class A, class Bsrc, class T, class S, int B>
void binary(int rows, A a, Bsrc b, array_stream<T, S, B>& out, bool& flag) {
  const int n = rows * (S::numel() / B);
  pipe<T, B, D> line;
  bool ovf = false;
  for (int i = 0; i < n + D; ++i) {
#pragma HLS pipeline II = FOLD
    INRARCH_STEP();
    beat<T, B> cur = beat<T, B>();
    if (i < n) {
      a.fetch();
      b.fetch();
      for (int e = 0; e < B; ++e) {
#pragma HLS unroll
        cur.v[e] = Op::apply(T(a.at(i, e)), T(b.at(i, e)), ovf);
      }
      ovf = ovf || a.ovf() || b.ovf();
      cur.ovf = ovf;
    }
    beat<T, B> done = line.shift(cur);
    if (i >= D) out.write(done);
  }
  flag = ovf;
}
template <class Op, int D = 1, int FOLD = 1, class A, class Bsrc, class T, class S, int B>
void binary(int rows, A a, Bsrc b, array_stream<T, S, B>& out) {
  bool unused = false;
  binary<Op, D, FOLD>(rows, a, b, out, unused);
}

}  // namespace inrarch_hls

#endif  // INRARCH_HLS_ELEMENTWISE_H
