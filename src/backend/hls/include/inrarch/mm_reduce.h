// INR-Arch HLS kernel library: the batch-reduction matrix product C[K,N] = Σ_r A[r,:]ᵀ B[r,:]
// (dataflow kind `mm_reduce`; A [R,K] and B [R,N] streamed by rows, the inner dimension
// being the rows: a weight gradient δᵀ·h).
//
// Loop nest (schedule.h, "mm_reduce"): read row 0 of A and B (S = max(K/BA, N/BB) steps,
// step j reading beat j of each row that has one). Then per row r, T = max(W, S) cycles,
// W = ceil(K*N/PAR): the PAR MACs take the row pair's K*N products in order (p = k*N + n),
// PAR a cycle, each into its own accumulator acc[p]; the first S cycles also read row r+1
// into the other half of the double buffers. After the last row, C's K*N/BC beats are
// written (II=1), each element rounded once from its accumulator (SHIFT realigns it to the
// output's exponent, scaled.h). The PAR products of a cycle update PAR consecutive
// accumulators: a cyclic partition by PAR gives each its own bank.
#ifndef INRARCH_HLS_MM_REDUCE_H
#define INRARCH_HLS_MM_REDUCE_H

#include "array_stream.h"

namespace inrarch_hls {

// Step j of a row's reads: beat j of the A row and of the B row, each while it has one.
template <class AS, class BS, class T>
void mm_reduce_read(AS& a, BS& b, T* arow, T* brow, int j, bool& ovf) {
  if (j < AS::shape_type::dim(1) / AS::block) {
    typename AS::beat_type x = a.read();
    for (int e = 0; e < AS::block; ++e) arow[j * AS::block + e] = x.v[e];
    ovf = ovf || x.ovf;
  }
  if (j < BS::shape_type::dim(1) / BS::block) {
    typename BS::beat_type y = b.read();
    for (int e = 0; e < BS::block; ++e) brow[j * BS::block + e] = y.v[e];
    ovf = ovf || y.ovf;
  }
}

template <int PAR, int SHIFT = 0, class T, int R, int K, int N, int BA, int BB, int BC>
void mm_reduce(array_stream<T, shape<R, K>, BA>& a, array_stream<T, shape<R, N>, BB>& b,
               array_stream<T, shape<K, N>, BC>& c, bool& flag) {
  typedef typename acc_type<T>::type acc_t;
  static_assert(PAR >= 1 && PAR <= K * N,
                "mm_reduce: PAR is the working lanes, 1 to K*N (dataflow::set_mm_par stores them so)");
  const int S = K / BA > N / BB ? K / BA : N / BB, W = (K * N + PAR - 1) / PAR, T_ROW = W > S ? W : S;
  acc_t acc[K * N];
#pragma HLS array_partition variable = acc cyclic factor = PAR dim = 1
  T arow[2][K], brow[2][N];
#pragma HLS array_partition variable = arow complete dim = 0
#pragma HLS array_partition variable = brow complete dim = 0
  for (int p = 0; p < K * N; ++p) acc[p] = 0;
  bool ovf = false;
  for (int j = 0; j < S; ++j) {
#pragma HLS pipeline II = 1
    INRARCH_STEP();
    mm_reduce_read(a, b, arow[0], brow[0], j, ovf);
  }
  for (int r = 0; r < R; ++r) {
    const T* ar = arow[r % 2];
    const T* br = brow[r % 2];
    int k = 0, n = 0;  // the next product: acc[k*N + n] += A[r][k] * B[r][n]
    for (int t = 0; t < T_ROW; ++t) {
#pragma HLS pipeline II = 1
      INRARCH_STEP();
      if (r + 1 < R && t < S) mm_reduce_read(a, b, arow[(r + 1) % 2], brow[(r + 1) % 2], t, ovf);
      for (int u = 0; u < PAR; ++u) {
#pragma HLS unroll
        if (t * PAR + u >= K * N) break;
        acc[k * N + n] += ar[k] * br[n];
        if (++n == N) n = 0, ++k;
      }
    }
  }
  typename array_stream<T, shape<K, N>, BC>::beat_type out;
  for (int q = 0; q < K * N / BC; ++q) {
#pragma HLS pipeline II = 1
    INRARCH_STEP();
    for (int e = 0; e < BC; ++e) {
      const acc_t v = acc[q * BC + e];
      out.v[e] = fit<T>(SHIFT == 0 ? v : shift_pow2(v, SHIFT), ovf);
    }
    out.ovf = ovf;
    c.write(out);
  }
  flag = ovf;
}
template <int PAR, int SHIFT = 0, class T, int R, int K, int N, int BA, int BB, int BC>
void mm_reduce(array_stream<T, shape<R, K>, BA>& a, array_stream<T, shape<R, N>, BB>& b,
               array_stream<T, shape<K, N>, BC>& c) {
  bool unused = false;
  mm_reduce<PAR, SHIFT>(a, b, c, unused);
}

}  // namespace inrarch_hls

#endif  // INRARCH_HLS_MM_REDUCE_H
