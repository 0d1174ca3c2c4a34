// INR-Arch HLS kernel library: data movement (dataflow kinds `copy`, `transpose`,
// `permute`, `gather`) and the ROM source of a constant output.
//
//   copy_stream  II=1: read beat i, write it to every output in argument order (the
//                round-robin order of the design), all in one step.
//   permute      full buffer: read every input beat (II=1), then write every output beat.
//   gather       reshape/unsqueeze/squeeze/expand/select/slice/cat/sum, demand-driven as
//                schedule_gather.cpp: for each output beat, read (one beat per input per
//                step) the input beats it needs so far; the step with the last read also
//                writes; input beats never needed are drained at the end. The Map type says
//                which input element each output element needs and how its value is made.
#ifndef INRARCH_HLS_MOVEMENT_H
#define INRARCH_HLS_MOVEMENT_H

#include "array_stream.h"

namespace inrarch_hls {

template <class T, class S, int B, class... Outs>
void copy_stream(array_stream<T, S, B>& in, Outs&... outs) {
  for (int i = 0; i < S::numel() / B; ++i) {
#pragma HLS pipeline II = 1
    INRARCH_STEP();
    beat<T, B> v = in.read();
    int order[] = {(outs.write(v), 0)...};  // braced list: left to right
    (void)order;
  }
}

// out[idx] = in[idx permuted]: output dim d is input dim P[d]. Transpose is <1, 0>.
template <int... P, class T, class SI, int BI, class SO, int BO>
void permute(array_stream<T, SI, BI>& in, array_stream<T, SO, BO>& out) {
  static_assert(sizeof...(P) == SI::rank && SI::rank == SO::rank, "permute: rank");
  static_assert(SI::numel() == SO::numel(), "permute: size");
  const int perm[] = {P..., 0};
  T buf[SI::numel()];
  for (int i = 0; i < SI::numel() / BI; ++i) {
#pragma HLS pipeline II = 1
    INRARCH_STEP();
    beat<T, BI> x = in.read();
    for (int e = 0; e < BI; ++e) buf[i * BI + e] = x.v[e];
  }
  for (int o = 0; o < SO::numel() / BO; ++o) {
#pragma HLS pipeline II = 1
    INRARCH_STEP();
    beat<T, BO> y;
    for (int e = 0; e < BO; ++e) {
      int oi[kMaxRank], ii[kMaxRank];
      SO::unravel(o * BO + e, oi);
      for (int d = 0; d < SO::rank; ++d) ii[perm[d]] = oi[d];
      y.v[e] = buf[SI::ravel(ii)];
    }
    out.write(y);
  }
}

// A constant output played from ROM, one beat a step.
template <class T, class S, int B>
void rom_source(const T* rom, array_stream<T, S, B>& out) {
  for (int i = 0; i < S::numel() / B; ++i) {
#pragma HLS pipeline II = 1
    INRARCH_STEP();
    beat<T, B> y;
    for (int e = 0; e < B; ++e) y.v[e] = rom[i * B + e];
    out.write(y);
  }
}

// ---- gather maps: need(o, slot, elem) and value(o, buf, off) -----------------------------
// Input k's elements live in buf[off[k] ...] once read.
struct gather_copy {  // value = the needed element (every op but sum)
  template <class T>
  static T value_of(int slot, int elem, const T* buf, const int* off) {
    return buf[off[slot] + elem];
  }
};
template <class SI, class SO>
struct map_identity : gather_copy {  // reshape, unsqueeze, squeeze
  static void need(int o, int& slot, int& elem) { slot = 0, elem = o; }
};
template <class SI, class SO>
struct map_expand : gather_copy {
  static void need(int o, int& slot, int& elem) {
    int oi[kMaxRank], ii[kMaxRank];
    SO::unravel(o, oi);
    const int off = SO::rank - SI::rank;
    for (int d = 0; d < SI::rank; ++d) ii[d] = SI::dim(d) == 1 ? 0 : oi[d + off];
    slot = 0, elem = SI::ravel(ii);
  }
};
template <class SI, class SO, int DIM, int INDEX>
struct map_select : gather_copy {
  static void need(int o, int& slot, int& elem) {
    int oi[kMaxRank], ii[kMaxRank];
    SO::unravel(o, oi);
    for (int d = 0, k = 0; d < SI::rank; ++d) ii[d] = d == DIM ? INDEX : oi[k++];
    slot = 0, elem = SI::ravel(ii);
  }
};
template <class SI, class SO, int DIM, int START, int STEP>
struct map_slice : gather_copy {
  static void need(int o, int& slot, int& elem) {
    int idx[kMaxRank];
    SO::unravel(o, idx);
    idx[DIM] = START + idx[DIM] * STEP;
    slot = 0, elem = SI::ravel(idx);
  }
};
// SK...: the shapes of the inputs; cat along DIM.
template <class SO, int DIM, class... SK>
struct map_cat : gather_copy {
  static void need(int o, int& slot, int& elem) {
    int idx[kMaxRank];
    SO::unravel(o, idx);
    const int sizes[] = {SK::dim(DIM)...};
    const int n[] = {SK::numel()...};
    (void)n;
    slot = 0;
    while (idx[DIM] >= sizes[slot]) idx[DIM] -= sizes[slot++];
    elem = SO::ravel(idx);  // same row-major order in the input: recompute with its dims
    int e = 0;
    const int dims_of_slot = slot;
    int k = 0;
    const int ranks[] = {SK::rank...};
    (void)ranks;
    int di[] = {SK::dim(0)...};
    (void)di;
    (void)k;
    (void)dims_of_slot;
    // ravel in input `slot`'s shape: like SO but with sizes[slot] along DIM
    for (int d = 0; d < SO::rank; ++d) e = e * (d == DIM ? sizes[slot] : SO::dim(d)) + idx[d];
    elem = e;
  }
};
// MASK: bit d set when input dim d is reduced. The needed element is the last contributor.
template <class SI, class SO, int MASK, int KEEPDIM>
struct map_sum {
  static void out_to_in(int o, int ii[kMaxRank]) {
    int oi[kMaxRank];
    SO::unravel(o, oi);
    for (int d = 0, k = 0; d < SI::rank; ++d) {
      if (MASK >> d & 1) {
        ii[d] = SI::dim(d) - 1;
        if (KEEPDIM) ++k;
      } else {
        ii[d] = oi[k++];
      }
    }
  }
  static void need(int o, int& slot, int& elem) {
    int ii[kMaxRank];
    out_to_in(o, ii);
    slot = 0, elem = SI::ravel(ii);
  }
  // The sum over the reduced dims (odometer over them), accumulated exactly.
  template <class T>
  static T value(int o, const T* buf, const int*) {
    typedef typename acc_type<T>::type acc_t;
    int ii[kMaxRank];
    out_to_in(o, ii);
    for (int d = 0; d < SI::rank; ++d)
      if (MASK >> d & 1) ii[d] = 0;
    acc_t acc = 0;
    for (;;) {
      acc += buf[SI::ravel(ii)];
      int d = SI::rank - 1;
      for (; d >= 0; --d) {
        if (!(MASK >> d & 1)) continue;
        if (++ii[d] < SI::dim(d)) break;
        ii[d] = 0;
      }
      if (d < 0) break;
    }
    return T(acc);
  }
};

}  // namespace inrarch_hls

#endif  // INRARCH_HLS_MOVEMENT_H
