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

#include <type_traits>
#include <utility>

#include "array_stream.h"
#include "elementwise.h"  // from_rom

namespace inrarch_hls {

// Every kernel here keeps the sticky overflow bit of elementwise.h; the forms that may
// write an output port take its flag: a trailing one, or first where the streams are a
// pack (copy_stream_port, gather_port).
// A copy that writes several output ports (one value under several names, as Taylor
// mode's symmetric partials are): the pack holds the output streams, then one flag per
// port, told apart by type, so any number of names is one kernel.
template <class T, int B, class S2>
inline int put_beat(array_stream<T, S2, B>& s, const beat<T, B>& v) {
  s.write(v);
  return 0;
}
template <class T, int B>
inline int put_beat(bool&, const beat<T, B>&) { return 0; }
inline int put_flag(bool& f, bool v) {
  f = v;
  return 0;
}
template <class Stream>
inline int put_flag(Stream&, bool) { return 0; }

template <class T, class S, int B, class... OutsThenFlags>
void copy_stream_ports(int rows, array_stream<T, S, B>& in, OutsThenFlags&... args) {
  const int n = rows * (S::numel() / B);
  bool ovf = false;
  for (int i = 0; i < n; ++i) {
#pragma HLS pipeline II = 1
    INRARCH_STEP();
    beat<T, B> v = in.read();
    ovf = ovf || v.ovf;
    v.ovf = ovf;
    int order[] = {put_beat(args, v)...};  // braced list: left to right
    (void)order;
  }
  int flags[] = {put_flag(args, ovf)...};
  (void)flags;
}
template <class T, class S, int B, class... Outs>
void copy_stream_port(int rows, bool& flag, array_stream<T, S, B>& in, Outs&... outs) {
  copy_stream_ports(rows, in, outs..., flag);
}
template <class T, class S, int B, class... Outs>
void copy_stream(int rows, array_stream<T, S, B>& in, Outs&... outs) {
  bool unused = false;
  copy_stream_port(rows, unused, in, outs...);
}

// out[idx] = in[idx permuted]: output dim d is input dim P[d]. Transpose is <1, 0>.
template <int... P, class T, class SI, int BI, class SO, int BO>
void permute(array_stream<T, SI, BI>& in, array_stream<T, SO, BO>& out, bool& flag) {
  static_assert(sizeof...(P) == SI::rank && SI::rank == SO::rank, "permute: rank");
  static_assert(SI::numel() == SO::numel(), "permute: size");
  const int perm[] = {P..., 0};
  T buf[SI::numel()];
  bool ovf = false;
  for (int i = 0; i < SI::numel() / BI; ++i) {
#pragma HLS pipeline II = 1
    INRARCH_STEP();
    beat<T, BI> x = in.read();
    for (int e = 0; e < BI; ++e) buf[i * BI + e] = x.v[e];
    ovf = ovf || x.ovf;
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
    y.ovf = ovf;
    out.write(y);
  }
  flag = ovf;
}
template <int... P, class T, class SI, int BI, class SO, int BO>
void permute(array_stream<T, SI, BI>& in, array_stream<T, SO, BO>& out) {
  bool unused = false;
  permute<P...>(in, out, unused);
}

// A constant output played from ROM, one beat a step; P > 0: the ROM holds the P values a
// broadcast repeats, read with the wrapping index of from_rom (elementwise.h).
// Constants never saturate: ovf is 0 on every beat and the flag.
template <int P = 0, class T, class S, int B>
void rom_source(int rows, const T* rom, array_stream<T, S, B>& out, bool& flag) {
  from_rom<T, B, P> r(rom);
  const int n = rows * (S::numel() / B);
  for (int i = 0; i < n; ++i) {
#pragma HLS pipeline II = 1
    INRARCH_STEP();
    r.fetch();
    beat<T, B> y;
    for (int e = 0; e < B; ++e) y.v[e] = r.at(i, e);
    y.ovf = false;
    out.write(y);
  }
  flag = false;
}
template <int P = 0, class T, class S, int B>
void rom_source(int rows, const T* rom, array_stream<T, S, B>& out) {
  bool unused = false;
  rom_source<P>(rows, rom, out, unused);
}

// ---- gather maps: need(o, slot, elem) and value(o, buf, off) -----------------------------
// Input k's elements live in buf[off[k] ...] once read.
// value(o, buf, off, ovf): ovf |= whether the value saturated (only a sum can).
// lag: a beat is written at the earliest `lag` steps after the last read so far (a sum: 4,
// the schedule's kSumWriteLag, dataflow/schedule_gather.cpp), else in the step that reads
// its last needed beat.
template <class Self>
struct gather_copy {  // value = the needed element (every op but sum)
  static const int lag = 0;
  template <class T>
  static T value(int o, const T* buf, const int* off, bool&) {
    int slot = 0, elem = 0;
    Self::need(o, slot, elem);
    return buf[off[slot] + elem];
  }
};
template <class SI, class SO>
struct map_identity : gather_copy<map_identity<SI, SO> > {  // reshape, unsqueeze, squeeze
  static void need(int o, int& slot, int& elem) { slot = 0, elem = o; }
};
template <class SI, class SO>
struct map_expand : gather_copy<map_expand<SI, SO> > {
  static void need(int o, int& slot, int& elem) {
    int oi[kMaxRank], ii[kMaxRank];
    SO::unravel(o, oi);
    const int off = SO::rank - SI::rank;
    for (int d = 0; d < SI::rank; ++d) ii[d] = SI::dim(d) == 1 ? 0 : oi[d + off];
    slot = 0, elem = SI::ravel(ii);
  }
};
template <class SI, class SO, int DIM, int INDEX>
struct map_select : gather_copy<map_select<SI, SO, DIM, INDEX> > {
  static void need(int o, int& slot, int& elem) {
    int oi[kMaxRank], ii[kMaxRank];
    SO::unravel(o, oi);
    for (int d = 0, k = 0; d < SI::rank; ++d) ii[d] = d == DIM ? INDEX : oi[k++];
    slot = 0, elem = SI::ravel(ii);
  }
};
template <class SI, class SO, int DIM, int START, int STEP>
struct map_slice : gather_copy<map_slice<SI, SO, DIM, START, STEP> > {
  static void need(int o, int& slot, int& elem) {
    int idx[kMaxRank];
    SO::unravel(o, idx);
    idx[DIM] = START + idx[DIM] * STEP;
    slot = 0, elem = SI::ravel(idx);
  }
};
// SK...: the shapes of the inputs; cat along DIM.
template <class SO, int DIM, class... SK>
struct map_cat : gather_copy<map_cat<SO, DIM, SK...> > {
  static void need(int o, int& slot, int& elem) {
    int idx[kMaxRank];
    SO::unravel(o, idx);
    const int sizes[] = {SK::dim(DIM)...};
    slot = 0;
    while (idx[DIM] >= sizes[slot]) idx[DIM] -= sizes[slot++];
    int e = 0;  // row-major in input `slot`: SO's dims with sizes[slot] along DIM
    for (int d = 0; d < SO::rank; ++d) e = e * (d == DIM ? sizes[slot] : SO::dim(d)) + idx[d];
    elem = e;
  }
};
// MASK: bit d set when input dim d is reduced. The needed element is the last contributor.
template <class SI, class SO, int MASK, int KEEPDIM>
struct map_sum {
  static const int lag = 4;
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
  static T value(int o, const T* buf, const int*, bool& ovf) {
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
    return fit<T>(acc, ovf);
  }
};

// ---- the gather kernel --------------------------------------------------------------------
// Input k: its beats read so far (got[k]), needed so far (need[k]), and where they are kept.
// A constant operand of a gather (e.g. the zeros that slice/select backward concatenate
// around a gradient): a ROM or a splat, not a stream. It has no FIFO ops (the schedule
// gives it none): its elements are in the buffer before the first step.
template <class T, class S>
struct const_operand {
  typedef T elem_type;
  static constexpr int block = 1;
  static constexpr int numel = S::numel();
  const T* rom;  // numel elements, or null: every element is `value`
  T value;
  explicit const_operand(const T* r) : rom(r), value() {}
  explicit const_operand(T v) : rom(0), value(v) {}
};
template <class S>
int gather_beats(const S&) { return S::numel / S::block; }
template <class T, class S>
int gather_beats(const const_operand<T, S>&) { return 0; }
template <class S>
void gather_fill(const S&, int, typename S::elem_type*, const int*) {}
template <class T, class S>
void gather_fill(const_operand<T, S>& c, int k, T* buf, const int* off) {
  for (int e = 0; e < S::numel(); ++e) buf[off[k] + e] = c.rom ? c.rom[e] : c.value;
}
template <class T, class S>
bool gather_read_one(const_operand<T, S>&, int, int*, const int*, T*, const int*, bool&) {
  return true;
}

template <class S>
bool gather_read_one(S& in, int k, int* got, const int* need, typename S::elem_type* buf,
                     const int* off, bool& ovf) {
  if (got[k] >= need[k]) return true;
  typename S::beat_type x = in.read();
  for (int e = 0; e < S::block; ++e) buf[off[k] + got[k] * S::block + e] = x.v[e];
  ovf = ovf || x.ovf;
  ++got[k];
  return got[k] >= need[k];
}

template <class... S>
constexpr int sum_numel() {
  const int n[] = {S::numel..., 0};
  int t = 0;
  for (int i = 0; i < int(sizeof...(S)); ++i) t += n[i];
  return t;
}

// The beats a gather has computed but not yet written (Map::lag): written in order, one a
// step, each in the first step at or after its due step, whichever sample's it is.
template <class Beat, int N>
struct due_writes {
  Beat held[N];
  int due[N], head, count;
  due_writes() : head(0), count(0) {}
  bool empty() const { return count == 0; }
  // The step after which a beat computed at step `step` may be written, in order.
  int next_free(int step) const { return count ? due[(head + count - 1) % N] + 1 : step; }
  void push(const Beat& y, int at) {
    const int i = (head + count) % N;
    held[i] = y, due[i] = at, ++count;
  }
  template <class Out>
  bool write_due(int step, Out& out) {  // writes the oldest beat if it is due
    if (count == 0 || due[head] > step) return false;
    out.write(held[head]);
    head = (head + 1) % N, --count;
    return true;
  }
};

// out is first because the inputs are a pack (cat has any number).
// A constant input is passed as a const_operand temporary (hence Ins&&).
// Samples are independent: the map works within one sample's arrays, `rows` times; the
// beats one sample never needs are drained after its last write, which is where the
// whole-batch schedule reads them too (before the next sample's first needed beat).
// A beat read but never needed (a slice's, drained) still sets the sticky bit when it is
// read before the last write.
template <class Map, class T, class SO, int BO, class... Ins>
void gather_port(int rows, bool& flag, array_stream<T, SO, BO>& out, Ins&&... ins) {
  enum { K = sizeof...(Ins), TOTAL = sum_numel<typename std::decay<Ins>::type...>() };
  const int numel[] = {std::decay<Ins>::type::numel...};
  const int block[] = {std::decay<Ins>::type::block...};
  const int beats[] = {gather_beats(ins)...};
  int off[K], need[K], got[K];
  bool ovf = false;
  for (int k = 0, o = 0; k < K; o += numel[k], ++k) off[k] = o;
  // One sample's inputs are buffered in C simulation (simplest correct form); the
  // schedule's buffer model counts only the replay span (expand) and open sums.
  T buf[TOTAL];
  {
    int k = 0;
    int fill[] = {(gather_fill(ins, k++, buf, off), 0)...};
    (void)fill;
  }
  due_writes<beat<T, BO>, Map::lag + 1> queued;  // at most lag beats wait past a step
  int step = 0, last_read = -1;
  for (int r = 0; r < rows; ++r) {
    for (int k = 0; k < K; ++k) need[k] = 0, got[k] = 0;
    for (int ob = 0; ob < SO::numel() / BO; ++ob) {
      for (int e = 0; e < BO; ++e) {
        int slot = 0, elem = 0;
        Map::need(ob * BO + e, slot, elem);
        if (elem / block[slot] + 1 > need[slot]) need[slot] = elem / block[slot] + 1;
      }
      for (bool done = false; !done; ++step) {
#pragma HLS pipeline II = 1
        INRARCH_STEP();
        const bool wrote = queued.write_due(step, out);
        int before = 0, after = 0;
        for (int j = 0; j < K; ++j) before += got[j];
        int k = 0;
        bool all[] = {gather_read_one(ins, k++, got, need, buf, off, ovf)...};
        done = true;
        for (int j = 0; j < K; ++j) done = done && all[j], after += got[j];
        if (after > before) last_read = step;
        if (done) {
          beat<T, BO> y;
          for (int e = 0; e < BO; ++e) y.v[e] = Map::template value<T>(ob * BO + e, buf, off, ovf);
          y.ovf = ovf;
          int at = last_read + Map::lag;
          if (at < queued.next_free(step)) at = queued.next_free(step);
          if (at == step && !wrote) out.write(y);
          else queued.push(y, at > step ? at : step + 1);
        }
      }
    }
    for (int k = 0; k < K; ++k) need[k] = beats[k];
    for (;; ++step) {  // drain the beats no output of this sample needed
      bool any = false;
      for (int k = 0; k < K; ++k) any = any || got[k] < beats[k];
      if (!any) break;
      INRARCH_STEP();
      queued.write_due(step, out);
      int k = 0;
      bool all[] = {gather_read_one(ins, k++, got, need, buf, off, ovf)...};
      (void)all;
      last_read = step;
    }
  }
  for (; !queued.empty(); ++step) {  // the writes still waiting, in steps of their own
    INRARCH_STEP();
    queued.write_due(step, out);
  }
  flag = ovf;
}
template <class Map, class T, class SO, int BO, class... Ins>
void gather(int rows, array_stream<T, SO, BO>& out, Ins&&... ins) {
  bool unused = false;
  gather_port<Map>(rows, unused, out, std::forward<Ins>(ins)...);
}

}  // namespace inrarch_hls

#endif  // INRARCH_HLS_MOVEMENT_H
