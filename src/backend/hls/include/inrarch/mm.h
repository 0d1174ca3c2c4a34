// INR-Arch HLS kernel library: matrix product C[M,N] = A[M,K] · B[K,N] (dataflow kind `mm`).
//
// Loop nest (schedule.h): with B streamed, read all of B first (II=1, one beat a step) into
// an on-chip buffer; a constant B is a ROM. Read row 0 of A (II=1; a constant A is a ROM
// and nothing is read). Then for each row i write the N/bC beats of row i of C, each
// beat's bC dot products computed by PAR parallel MACs (ceil(bC·K/PAR) cycles a beat),
// while reading row i+1 of A into the other half of a double buffer: write step j also
// reads beat j, the rest follow at II=1. The B buffer and the A rows are partitioned
// cyclically by PAR so the PAR MACs read in parallel. SHIFT (power-of-two scaling, scaled.h) moves the
// wide accumulator to the output's exponent before the one rounding to T.
#ifndef INRARCH_HLS_MM_H
#define INRARCH_HLS_MM_H

#include "array_stream.h"

namespace inrarch_hls {

// Beat jb of row i of C from the A row and B (row-major K x N): BC dot products.
template <int PAR, int SHIFT, class T, int K, int N, class CS>
typename CS::beat_type mm_beat(const T arow[K], const T* bm, int jb) {
  typedef typename acc_type<T>::type acc_t;
  const int BC = CS::block;
  typename CS::beat_type out;
  for (int e = 0; e < BC; ++e) {
    acc_t acc = 0;
    for (int k = 0; k < K; ++k) {
#pragma HLS pipeline II = 1
#pragma HLS unroll factor = PAR
      acc += arow[k] * bm[k * N + jb * BC + e];
    }
    out.v[e] = T(SHIFT == 0 ? acc : shift_pow2(acc, SHIFT));
  }
  return out;
}

// Reads beat kb of a streamed A row into arow.
template <class AS, class T>
void mm_read_beat(AS& a, T* arow, int kb) {
  typename AS::beat_type x = a.read();
  for (int e = 0; e < AS::block; ++e) arow[kb * AS::block + e] = x.v[e];
}

// Writes row i of C (A constant: nothing else to do meanwhile).
template <int PAR, int SHIFT, class T, int K, int N, class CS>
void mm_write_row(const T arow[K], const T* bm, CS& c) {
  for (int jb = 0; jb < N / CS::block; ++jb) {
    INRARCH_STEP();
    c.write(mm_beat<PAR, SHIFT, T, K, N, CS>(arow, bm, jb));
  }
}

// Writes row i of C from arow and, when `more`, reads row i+1 of A into next (the other
// half of the double buffer): write step jb also reads beat jb; beats left over after the
// last write are read at II=1.
template <int PAR, int SHIFT, class T, int K, int N, class CS, class AS>
void mm_write_row_reading(const T arow[K], const T* bm, CS& c, AS& a, T* next, bool more) {
  const int W = N / CS::block, R = K / AS::block;
  for (int jb = 0; jb < W; ++jb) {
    INRARCH_STEP();
    c.write(mm_beat<PAR, SHIFT, T, K, N, CS>(arow, bm, jb));
    if (more && jb < R) mm_read_beat(a, next, jb);
  }
  for (int kb = W; more && kb < R; ++kb) {
#pragma HLS pipeline II = 1
    INRARCH_STEP();
    mm_read_beat(a, next, kb);
  }
}

// Reads row i of a streamed A into arow.
template <class AS, class T>
void mm_read_row(AS& a, T* arow) {
  for (int kb = 0; kb < AS::shape_type::dim(1) / AS::block; ++kb) {
#pragma HLS pipeline II = 1
    INRARCH_STEP();
    mm_read_beat(a, arow, kb);
  }
}

// Reads all of a streamed B into bm (row-major).
template <class BS, class T>
void mm_read_b(BS& b, T* bm) {
  const int BB = BS::block;
  for (int i = 0; i < BS::beats; ++i) {
#pragma HLS pipeline II = 1
    INRARCH_STEP();
    typename BS::beat_type x = b.read();
    for (int e = 0; e < BB; ++e) bm[i * BB + e] = x.v[e];
  }
}

// A and B streamed.
template <int PAR, int SHIFT = 0, class T, int M, int K, int N, int BA, int BB, int BC>
void mm(array_stream<T, shape<M, K>, BA>& a, array_stream<T, shape<K, N>, BB>& b,
        array_stream<T, shape<M, N>, BC>& c) {
  T bm[K * N];
#pragma HLS array_partition variable = bm cyclic factor = PAR dim = 1
  T arow[2][K];
#pragma HLS array_partition variable = arow cyclic factor = PAR dim = 2
  mm_read_b(b, bm);
  mm_read_row(a, arow[0]);
  for (int i = 0; i < M; ++i)
    mm_write_row_reading<PAR, SHIFT, T, K, N>(arow[i % 2], bm, c, a, arow[(i + 1) % 2], i + 1 < M);
}

// A streamed, B a constant ROM (row-major K x N): the SIREN layers.
template <int PAR, int SHIFT = 0, class T, int M, int K, int N, int BA, int BC>
void mm_rom_b(array_stream<T, shape<M, K>, BA>& a, const T b_rom[K * N],
              array_stream<T, shape<M, N>, BC>& c) {
  T arow[2][K];
#pragma HLS array_partition variable = arow cyclic factor = PAR dim = 2
  mm_read_row(a, arow[0]);
  for (int i = 0; i < M; ++i)
    mm_write_row_reading<PAR, SHIFT, T, K, N>(arow[i % 2], b_rom, c, a, arow[(i + 1) % 2], i + 1 < M);
}

// A a constant ROM (row-major M x K), B streamed (the paper's Fig. 5: W · x).
template <int PAR, int SHIFT = 0, class T, int M, int K, int N, int BB, int BC>
void mm_rom_a(const T a_rom[M * K], array_stream<T, shape<K, N>, BB>& b,
              array_stream<T, shape<M, N>, BC>& c) {
  T bm[K * N];
#pragma HLS array_partition variable = bm cyclic factor = PAR dim = 1
  mm_read_b(b, bm);
  for (int i = 0; i < M; ++i) mm_write_row<PAR, SHIFT, T, K, N>(a_rom + i * K, bm, c);
}

}  // namespace inrarch_hls

#endif  // INRARCH_HLS_MM_H
