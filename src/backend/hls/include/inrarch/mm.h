// INR-Arch HLS kernel library: matrix product C[M,N] = A[M,K] · B[K,N] (dataflow kind `mm`).
//
// Loop nest (schedule.h): with B streamed, read all of B first (II=1, one beat a step) into
// an on-chip buffer; a constant B is a ROM. Then for each row i: read the K/bA beats of
// row i of A (II=1; a constant A is a ROM and nothing is read), then write the N/bC beats
// of row i of C, each beat's bC dot products computed by PAR parallel MACs
// (ceil(bC·K/PAR) cycles a beat). The B buffer and the A row are partitioned cyclically
// by PAR so the PAR MACs read in parallel. SHIFT (power-of-two scaling, scaled.h) moves the
// wide accumulator to the output's exponent before the one rounding to T.
#ifndef INRARCH_HLS_MM_H
#define INRARCH_HLS_MM_H

#include "array_stream.h"

namespace inrarch_hls {

// Writes row i of C from the A row and B (row-major K x N).
template <int PAR, int SHIFT, class T, int K, int N, class CS>
void mm_write_row(const T arow[K], const T* bm, CS& c) {
  typedef typename acc_type<T>::type acc_t;
  const int BC = CS::block;
  for (int jb = 0; jb < N / BC; ++jb) {
    INRARCH_STEP();
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
    c.write(out);
  }
}

// Reads row i of a streamed A into arow.
template <class AS, class T>
void mm_read_row(AS& a, T* arow) {
  const int K = AS::shape_type::dim(1), BA = AS::block;
  for (int kb = 0; kb < K / BA; ++kb) {
#pragma HLS pipeline II = 1
    INRARCH_STEP();
    typename AS::beat_type x = a.read();
    for (int e = 0; e < BA; ++e) arow[kb * BA + e] = x.v[e];
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
  T arow[K];
#pragma HLS array_partition variable = arow cyclic factor = PAR dim = 1
  mm_read_b(b, bm);
  for (int i = 0; i < M; ++i) {
    mm_read_row(a, arow);
    mm_write_row<PAR, SHIFT, T, K, N>(arow, bm, c);
  }
}

// A streamed, B a constant ROM (row-major K x N): the SIREN layers.
template <int PAR, int SHIFT = 0, class T, int M, int K, int N, int BA, int BC>
void mm_rom_b(array_stream<T, shape<M, K>, BA>& a, const T b_rom[K * N],
              array_stream<T, shape<M, N>, BC>& c) {
  T arow[K];
#pragma HLS array_partition variable = arow cyclic factor = PAR dim = 1
  for (int i = 0; i < M; ++i) {
    mm_read_row(a, arow);
    mm_write_row<PAR, SHIFT, T, K, N>(arow, b_rom, c);
  }
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
