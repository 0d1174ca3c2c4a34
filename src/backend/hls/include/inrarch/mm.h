// INR-Arch HLS kernel library: matrix product C[M,N] = A[M,K] · B[K,N] (dataflow kind `mm`).
//
// Loop nest (schedule.h): with B streamed, read all of B first (II=1, one beat a step) into
// an on-chip buffer; a constant B is a ROM. Read row 0 of A (II=1; a constant A is a ROM
// and nothing is read). Then for each row i write the N/bC beats of row i of C, the PAR
// MACs taking the row's products in order, PAR a cycle (mm_row: beat j at
// ceil((j+1)·bC·K/PAR) cycles into the row), while reading row i+1 of A into the other
// half of a double buffer: the row's C MAC cycles read S = min(K/bA, C) of its beats, spread
// evenly (beat r in MAC cycle ceil((r+1)·C/S), counted from 1), the beats left after its
// last MAC cycle at II=1. Beat j is written DEPTH cycles after its MAC cycle (Process::mm_depth, the RTL
// engine's pipeline; mm_pipe below), so a cycle's step may write an older beat and read; after
// the last row DEPTH cycles drain the pipeline. SHIFT (power-of-two scaling, scaled.h) moves
// the wide accumulator to the output's exponent before the one rounding to T.
//
// Memory layout. B is held column-major (element (k, n) at n*K + k: the streamed B buffer
// and the B ROM that weights.h emits transposed), A row-major, so the PAR operands one
// dot product reads in a cycle, B[k..k+PAR-1][n] and A[i][k..k+PAR-1], sit at PAR
// consecutive addresses. A cyclic partition by F puts consecutive addresses in distinct
// banks (at most ceil(PAR/F) per bank); row-major B would put all PAR reads, N apart, in
// one bank whenever F divides N. Partitions, as the resource model counts them: buffers
// (A rows, streamed B) cyclic by PAR (one read a bank a cycle); a constant A or B a ROM
// cyclic by ceil(PAR/2), each bank a dual-port ROM (rom_2p: two reads a cycle). PAR is the
// emitter's template argument, the design's stored lanes (Process::mm_lanes), so the
// partitions are the banks the resource model counts. The pragmas are not checked by
// Vitis in this project (docs/hls.md §4).
#ifndef INRARCH_HLS_MM_H
#define INRARCH_HLS_MM_H

#include "array_stream.h"

namespace inrarch_hls {

// Reads beat kb of a streamed A row into arow; ovf |= the beat's.
template <class AS, class T>
void mm_read_beat(AS& a, T* arow, int kb, bool& ovf) {
  typename AS::beat_type x = a.read();
  for (int e = 0; e < AS::block; ++e) arow[kb * AS::block + e] = x.v[e];
  ovf = ovf || x.ovf;
}

// The beats in flight: the one finished in cycle t leaves in cycle t + DEPTH (a delay line
// of DEPTH + 1 slots; DEPTH = 0 writes in the finishing cycle). The II=1 loops call cycle()
// once an iteration, so a beat finished in one loop can leave in the next.
template <class Beat, int DEPTH>
struct mm_pipe {
  Beat slot[DEPTH + 1];
  bool full[DEPTH + 1];
  int at;
  mm_pipe() : at(0) {
#pragma HLS array_partition variable = slot complete
#pragma HLS array_partition variable = full complete
    for (int i = 0; i <= DEPTH; ++i) full[i] = false;
  }
  // One cycle: `has` = beat `b` finished in it; writes the beat finished DEPTH cycles ago.
  template <class CS>
  void cycle(CS& c, bool has, const Beat& b) {
    slot[at] = b;
    full[at] = has;
    const int out = at == DEPTH ? 0 : at + 1;  // (t - DEPTH) mod (DEPTH + 1)
    if (full[out]) c.write(slot[out]);
    full[out] = false;
    at = out;
  }
  // The cycles after the last MAC cycle: write what is left.
  template <class CS>
  void drain(CS& c) {
    for (int d = 0; d < DEPTH; ++d) {
#pragma HLS pipeline II = 1
      INRARCH_STEP();
      cycle(c, false, slot[at]);
    }
  }
};

// What happens in each MAC cycle of a row: nothing (a constant A), or the next A row's
// reads, S = min(R, MACS) of its R beats spread over the row's MACS cycles: the cycle
// reads when `acc` (c·S mod MACS after cycle c) wraps, so beat r comes in cycle
// ceil((r+1)·MACS/S) and `kb` beats are read when the row ends.
struct mm_no_read {
  void operator()(bool&) {}
};
template <class AS, class T, int MACS>
struct mm_next_row {
  static const int R = AS::shape_type::dim(1) / AS::block, S = R < MACS ? R : MACS;
  AS& a;
  T* next;
  bool more;
  int acc = 0, kb = 0;
  void operator()(bool& ovf) {
    if (!more) return;
    acc += S;
    if (acc < MACS) return;
    acc -= MACS;
    mm_read_beat(a, next, kb++, ovf);
  }
};

// Row i of C. The PAR MACs take the row's N*K products in order (element n = jb*BC + e,
// then k = 0..K-1), PAR a cycle, across element and beat boundaries, so beat jb's last
// product is taken ceil((jb+1)*BC*K/PAR) cycles into the row (MmCadence in schedule.h) and
// it goes into `pipe` then, to be written DEPTH cycles later; no MAC idles at the end of a
// dot product when PAR does not divide K. The beat's flag is the sticky bit at its last
// fit: the reads before this cycle's and the fits so far. `on_cycle` runs after each MAC
// cycle's products. Each element still sums its K products in order, then rounds once; at most
// one beat completes a cycle: PAR is the design's stored lane count (Process::mm_lanes,
// at most BC*K by the lane rule of dataflow/attributes.h), so the kernel caps nothing. B is
// column-major: element n's products read bm[n*K + k], PAR consecutive addresses a cycle.
// ovf: the kernel's sticky bit.
template <int PAR, int SHIFT, class T, int K, int N, class TB, class CS, class Pipe, class OnCycle>
void mm_row(const T* arow, const TB* bm, CS& c, Pipe& pipe, OnCycle& on_cycle, bool& ovf) {
  typedef typename acc_type<T>::type acc_t;
  const int BC = CS::block;
  static_assert(PAR >= 1 && PAR <= CS::block * K,
                "mm: PAR is the working lanes, 1 to BC*K (dataflow::set_mm_par stores them so)");
  typename CS::beat_type out, done;
  acc_t acc = 0;
  int n = 0, k = 0;  // the next product: element n of the row, term k
  for (int t = 0; t < N * K; t += PAR) {
#pragma HLS pipeline II = 1
    bool has = false;
    for (int u = 0; u < PAR; ++u) {
#pragma HLS unroll
      if (t + u >= N * K) break;
      acc += arow[k] * bm[n * K + k];
      if (++k < K) continue;
      out.v[n % BC] = fit<T>(SHIFT == 0 ? acc : shift_pow2(acc, SHIFT), ovf);
      acc = 0;
      k = 0;
      if (++n % BC) continue;
      out.ovf = ovf;
      done = out;
      has = true;
    }
    INRARCH_STEP();
    pipe.cycle(c, has, done);
    on_cycle(ovf);
  }
}

// Writes row i of C from arow and, when `more`, reads row i+1 of A into next (the other
// half of the double buffer): its MAC cycles read beats spread evenly (mm_next_row); beats
// left over after the last MAC cycle are read at II=1.
template <int PAR, int SHIFT, class T, int K, int N, class TB, class CS, class Pipe, class AS>
void mm_write_row_reading(const T arow[K], const TB* bm, CS& c, Pipe& pipe, AS& a, T* next, bool more,
                          bool& ovf) {
  const int MACS = (N * K + PAR - 1) / PAR, R = K / AS::block;
  mm_next_row<AS, T, MACS> reads{a, next, more};
  mm_row<PAR, SHIFT, T, K, N>(arow, bm, c, pipe, reads, ovf);
  for (int kb = reads.kb; more && kb < R; ++kb) {
#pragma HLS pipeline II = 1
    INRARCH_STEP();
    pipe.cycle(c, false, pipe.slot[0]);
    mm_read_beat(a, next, kb, ovf);
  }
}

// Reads row i of a streamed A into arow.
template <class AS, class T>
void mm_read_row(AS& a, T* arow, bool& ovf) {
  for (int kb = 0; kb < AS::shape_type::dim(1) / AS::block; ++kb) {
#pragma HLS pipeline II = 1
    INRARCH_STEP();
    mm_read_beat(a, arow, kb, ovf);
  }
}

// Reads all of a streamed B (row-major beats) into bm column-major: element (r, c) at
// c*K + r. Row and column are running counters (a beat never straddles a row), so no
// divider; the BB writes of one beat are K apart (distinct banks unless PAR divides K).
template <class BS, class T>
void mm_read_b(BS& b, T* bm, bool& ovf) {
  const int K = BS::shape_type::dim(0), N = BS::shape_type::dim(1), BB = BS::block;
  int r = 0, c = 0;
  for (int i = 0; i < BS::beats; ++i) {
#pragma HLS pipeline II = 1
    INRARCH_STEP();
    typename BS::beat_type x = b.read();
    for (int e = 0; e < BB; ++e) bm[(c + e) * K + r] = x.v[e];
    ovf = ovf || x.ovf;
    c += BB;
    if (c == N) {
      c = 0;
      ++r;
    }
  }
}

// Each form has a twin without the trailing flag (elementwise.h: the top's flag of the
// output port the kernel writes).
// A and B streamed; bm column-major (mm_read_b).
template <int PAR, int SHIFT = 0, int DEPTH = 0, class T, int M, int K, int N, int BA, int BB, int BC>
void mm(array_stream<T, shape<M, K>, BA>& a, array_stream<T, shape<K, N>, BB>& b,
        array_stream<T, shape<M, N>, BC>& c, bool& flag) {
  T bm[K * N];
#pragma HLS array_partition variable = bm cyclic factor = PAR dim = 1
  T arow[2][K];
#pragma HLS array_partition variable = arow cyclic factor = PAR dim = 2
  bool ovf = false;
  mm_read_b(b, bm, ovf);
  mm_read_row(a, arow[0], ovf);
  mm_pipe<typename array_stream<T, shape<M, N>, BC>::beat_type, DEPTH> pipe;
  for (int i = 0; i < M; ++i)
    mm_write_row_reading<PAR, SHIFT, T, K, N>(arow[i % 2], bm, c, pipe, a, arow[(i + 1) % 2], i + 1 < M, ovf);
  pipe.drain(c);
  flag = ovf;
}
template <int PAR, int SHIFT = 0, int DEPTH = 0, class T, int M, int K, int N, int BA, int BB, int BC>
void mm(array_stream<T, shape<M, K>, BA>& a, array_stream<T, shape<K, N>, BB>& b,
        array_stream<T, shape<M, N>, BC>& c) {
  bool unused = false;
  mm<PAR, SHIFT, DEPTH>(a, b, c, unused);
}

// A streamed, B a constant ROM (column-major K x N, weights.h): the SIREN layers. The ROM's
// type TB is T's or a narrower ap_fixed with T's binary point (an mm's narrow weights,
// docs/hls.md "Narrow weights"): each product is exact in acc_type<T>, as at one type.
// ROM_BANKS is a const int because a pragma argument must be a constant; Vitis accepts
// const variables there (UG1399, "Using Constants with Pragmas"), not every expression.
// A has rows * M rows (M per sample); B is the same for every sample.
template <int PAR, int SHIFT = 0, int DEPTH = 0, class T, int M, int K, int N, int BA, int BC, class TB>
void mm_rom_b(int rows, array_stream<T, shape<M, K>, BA>& a, const TB b_rom[K * N],
              array_stream<T, shape<M, N>, BC>& c, bool& flag) {
  const int ROM_BANKS = (PAR + 1) / 2;
  (void)ROM_BANKS;  // read only by the pragmas
#pragma HLS array_partition variable = b_rom cyclic factor = ROM_BANKS dim = 1
#pragma HLS bind_storage variable = b_rom type = rom_2p impl = bram
  T arow[2][K];
#pragma HLS array_partition variable = arow cyclic factor = PAR dim = 2
  bool ovf = false;
  mm_read_row(a, arow[0], ovf);
  const int rows_of_a = rows * M;
  mm_pipe<typename array_stream<T, shape<M, N>, BC>::beat_type, DEPTH> pipe;
  for (int i = 0; i < rows_of_a; ++i)
    mm_write_row_reading<PAR, SHIFT, T, K, N>(arow[i % 2], b_rom, c, pipe, a, arow[(i + 1) % 2],
                                              i + 1 < rows_of_a, ovf);
  pipe.drain(c);
  flag = ovf;
}
template <int PAR, int SHIFT = 0, int DEPTH = 0, class T, int M, int K, int N, int BA, int BC, class TB>
void mm_rom_b(int rows, array_stream<T, shape<M, K>, BA>& a, const TB b_rom[K * N],
              array_stream<T, shape<M, N>, BC>& c) {
  bool unused = false;
  mm_rom_b<PAR, SHIFT, DEPTH>(rows, a, b_rom, c, unused);
}

// A a constant ROM (row-major M x K: row i's PAR reads are already consecutive), B streamed
// (the paper's Fig. 5: W · x).
template <int PAR, int SHIFT = 0, int DEPTH = 0, class T, int M, int K, int N, int BB, int BC>
void mm_rom_a(const T a_rom[M * K], array_stream<T, shape<K, N>, BB>& b,
              array_stream<T, shape<M, N>, BC>& c, bool& flag) {
  const int ROM_BANKS = (PAR + 1) / 2;
  (void)ROM_BANKS;  // read only by the pragmas
#pragma HLS array_partition variable = a_rom cyclic factor = ROM_BANKS dim = 1
#pragma HLS bind_storage variable = a_rom type = rom_2p impl = bram
  T bm[K * N];
#pragma HLS array_partition variable = bm cyclic factor = PAR dim = 1
  bool ovf = false;
  mm_read_b(b, bm, ovf);
  mm_pipe<typename array_stream<T, shape<M, N>, BC>::beat_type, DEPTH> pipe;
  mm_no_read none;
  for (int i = 0; i < M; ++i) mm_row<PAR, SHIFT, T, K, N>(a_rom + i * K, bm, c, pipe, none, ovf);
  pipe.drain(c);
  flag = ovf;
}
template <int PAR, int SHIFT = 0, int DEPTH = 0, class T, int M, int K, int N, int BB, int BC>
void mm_rom_a(const T a_rom[M * K], array_stream<T, shape<K, N>, BB>& b,
              array_stream<T, shape<M, N>, BC>& c) {
  bool unused = false;
  mm_rom_a<PAR, SHIFT, DEPTH>(a_rom, b, c, unused);
}

}  // namespace inrarch_hls

#endif  // INRARCH_HLS_MM_H
