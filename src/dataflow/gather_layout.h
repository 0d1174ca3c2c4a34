// Where a gather kernel (select, slice, cat, expand, a reshape that changes the beat: not a
// sum, not a pass-through) finds each element it writes, as the RTL's inrarch_gather holds
// them (docs/rtl.md §2, "Gathers"): in the input beats of the step that writes it (fresh),
// in a ring of each streamed input's recent beats kept in registers (the buffer), or among
// the constant operands' words. The RTL emitter writes its tables from this layout, and the
// resource model prices the same ring and multiplexers, so the two cannot drift apart.
#pragma once

#include <cstdint>
#include <vector>

#include "dataflow/design.h"

namespace inrarch::dataflow {

// An element of a written beat: fresh (word q of the step's input words) or at `addr` of the
// operands' address space (the streamed operands in operand order, then the constants, a
// splat as one word).
struct GatherLocated {
  bool fresh = false;
  int64_t q = 0, addr = 0;
};

// A candidate that is a constant word (its index among the constants' words), or a word of
// the writing step's input beats (its index among them), rather than a buffer word.
inline constexpr int64_t kGatherConstCandidate = int64_t{1} << 31;
inline constexpr int64_t kGatherFreshCandidate = int64_t{1} << 30;

struct GatherLayout {
  // Per operand: its first address; the streamed operands' elements, then the constants'.
  std::vector<int64_t> operand_base;
  int64_t streamed_words = 0, const_words = 0;
  // Per streamed input, in input order: elements a beat, first address, first of the step's
  // input words, elements, the ring (whole beats kept, a power of two or every beat; 0 when
  // none is read from the buffer) and its first buffer word.
  std::vector<int64_t> block, base, word, elems, ring, ring_base;
  int64_t in_words = 0;  // the step's input words, all inputs together
  int64_t buffer = 0;    // buffer words: the rings together
  // Per step walked, its line of inrarch_gather's step table: bit k reads input k, bit
  // `inputs` writes a beat.
  std::vector<uint64_t> steps;
  // Per written beat, where each of its elements is.
  std::vector<std::vector<GatherLocated>> beats;
  // Per output position, the words it is ever taken from, in the order first taken: the
  // step's input words (kGatherFreshCandidate | index), buffer words and constants
  // (kGatherConstCandidate | index). Its multiplexer spans these alone.
  std::vector<std::vector<int64_t>> candidates;

  int64_t ring_words(size_t k) const { return ring[k] * block[k]; }
  // The streamed input whose operand holds address addr, or -1 (a constant).
  int input_at(int64_t addr) const;
  // The candidate an element is read as: kGatherFreshCandidate | its word among the step's
  // input words, its buffer word (its beat's slot in its input's ring), or
  // kGatherConstCandidate | its index among the constants' words.
  int64_t candidate(const GatherLocated& l) const;
  // The most candidates of any position (at least 1), the bits of an index below it (at
  // least 1), and whether any candidate is a buffer word.
  int64_t picks() const;
  int pick_bits() const;
  bool held() const;
  // Per written beat, each output position's entry: the index of its candidate.
  std::vector<std::vector<uint64_t>> entries() const;
  // Per output position, the words its multiplexer spans: its candidates.
  std::vector<int64_t> sources() const;
};

// The layout of gather p, walked over its whole schedule, or over its first max_writes
// written beats (the resource model's estimate: the rings, candidates and fresh words that
// prefix shows). Throws inrarch::Error when p is not such a gather.
GatherLayout gather_layout(const Design& d, ProcessId p, int64_t max_writes = INT64_MAX);

// The gather schedule's steps up to its max_beats-th write, without the steps after it (the
// whole schedule is schedule(d, p)'s): what gather_layout walks for a prefix.
struct Program;
Program schedule_gather_prefix(const Design& d, ProcessId p, int64_t max_beats);

// The written beats the resource model walks: the output's first 2 lcm(row, block) elements
// (every row of dim 0 reads alike, and a beat's positions meet a row's elements again after
// lcm(row, block)), at most 65,536, in whole beats.
int64_t gather_model_beats(const Design& d, ProcessId p);

// For each position of gather p's output beat, the distinct words it is ever taken from
// (the width of its multiplexer): its fresh input words and its candidates, over
// gather_model_beats.
std::vector<int64_t> gather_sources(const Design& d, ProcessId p);

}  // namespace inrarch::dataflow
