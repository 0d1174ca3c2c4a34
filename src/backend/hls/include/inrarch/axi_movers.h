// INR-Arch HLS kernel library: the memory-mapped kernel's data movers (kernel/kernel.cpp,
// docs/hls.md "Memory-mapped kernel"). A port's buffer in device memory holds its elements
// in stream order, one container each:
// - ap_fixed<W,I>: a C-bit two's complement integer (C = the smallest of 8, 16, 32, 64
//   that is >= W) holding the raw bits (value * 2^(W-I)), sign-extended from W to C bits;
// - float / double: the IEEE value itself (32 / 64 bits).
// The movers are pipelined loops over consecutive addresses, a beat an iteration, so
// Vitis infers one burst per call and port at the design's beat rate. Header-only, C++14.
#ifndef INRARCH_HLS_AXI_MOVERS_H
#define INRARCH_HLS_AXI_MOVERS_H

#include <stdint.h>

#include "array_stream.h"

namespace inrarch_hls {
namespace axi {

// The signed C integer of C bits.
template <int C>
struct int_of;
template <>
struct int_of<8> {
  typedef int8_t type;
};
template <>
struct int_of<16> {
  typedef int16_t type;
};
template <>
struct int_of<32> {
  typedef int32_t type;
};
template <>
struct int_of<64> {
  typedef int64_t type;
};

// A memory element of the number type T: its C type and the conversions both ways.
template <class T>
struct container {  // float, double: the value is its own container
  typedef T type;
  enum { bits = int(sizeof(T) * 8) };
  static T decode(type c) { return c; }
  static type encode(T x) { return x; }
};
template <int W, int I, ap_q_mode Q, ap_o_mode O, int N>
struct container<ap_fixed<W, I, Q, O, N> > {
  typedef ap_fixed<W, I, Q, O, N> value_type;
  enum { bits = W <= 8 ? 8 : W <= 16 ? 16 : W <= 32 ? 32 : 64 };
  typedef typename int_of<bits>::type type;
  // The low W bits are the raw value; the bits above them are not read.
  static value_type decode(type c) {
    value_type x;
    x.range(W - 1, 0) = (unsigned long long)(long long)c;
    return x;
  }
  // The raw W bits, sign-extended to C bits (the shift count stays below 64 for W = 64,
  // where there is nothing to extend).
  static type encode(const value_type& x) {
    unsigned long long u = x.range(W - 1, 0).to_uint64();
    if (W < 64 && ((u >> (W - 1)) & 1ULL)) u |= ~0ULL << (W < 64 ? W : 0);
    return type((long long)u);
  }
};

// Read mover: rows samples of port S from memory (rows * S::numel consecutive containers)
// into beats of S::block elements, each beat's ovf 0 (the host reports what it had to
// saturate when it encoded the inputs). A beat an iteration at II=1, its containers read
// by an unrolled loop at consecutive addresses: the design's beat rate, one incrementing
// address stream (a burst) that Vitis can widen to the beat's bits (m_axi port widening;
// not measured here, docs/deploy.md §6).
template <class S>
void read_port(const typename container<typename S::elem_type>::type* mem, int rows, S& s) {
  typedef typename S::elem_type T;
  const int beats = rows * S::numel / S::block;
  for (int i = 0; i < beats; ++i) {
#pragma HLS pipeline II = 1
    typename S::beat_type b;
    for (int k = 0; k < S::block; ++k) {
#pragma HLS unroll
      b.v[k] = container<T>::decode(mem[i * S::block + k]);
    }
    b.ovf = false;
    s.write(b);
  }
}

// Write mover: rows samples of port S from its beats into memory, a beat an iteration at
// II=1, its containers written by an unrolled loop at consecutive addresses (as read_port),
// each sign-extended. The beats' ovf bits are dropped: the port's sticky flag (a register)
// says the same for the call.
template <class S>
void write_port(S& s, int rows, typename container<typename S::elem_type>::type* mem) {
  typedef typename S::elem_type T;
  const int beats = rows * S::numel / S::block;
  for (int i = 0; i < beats; ++i) {
#pragma HLS pipeline II = 1
    const typename S::beat_type b = s.read();
    for (int k = 0; k < S::block; ++k) {
#pragma HLS unroll
      mem[i * S::block + k] = container<T>::encode(b.v[k]);
    }
  }
}

}  // namespace axi
}  // namespace inrarch_hls

#endif  // INRARCH_HLS_AXI_MOVERS_H
