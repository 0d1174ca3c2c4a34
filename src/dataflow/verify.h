// The design verifier: the invariants every back-half step (lower, the search's candidates,
// apply_parallelism, depth setting and FIFO sizing) must keep, checked in one pass over the
// processes and streams (docs/architecture.md, "The back half"). ir::verify is the same for
// the graph.
//
//   names      process and stream names are C identifiers (the emitters use them as such),
//              each unique
//   streams    producer and consumer in range and distinct; the producer lists the stream
//              among its outputs exactly once and the consumer among its inputs exactly
//              once; no process lists a stream it is not the end of
//   beats      shape dims >= 1; 1 <= block <= kMaxParallel, block divides the last dim
//              (lower.h's stream_block: a beat never straddles a row, nor a sample of a
//              rank-1 stream when options.rows is set); depth >= 1 (kUnbounded allowed);
//              elem_bits >= 1
//   processes  streams per kind (source: no input, one output; sink: one input, none out;
//              copy: one input, its outputs of the input's shape and block; a kernel: one
//              output); a kernel's kind is its op's (ops.def, kernels.def); its operands
//              match the op's arity, each streamed or constant (not both), the streamed ones
//              exactly its inputs, at their slot and of their stream's shape; elementwise
//              operands and output agree in shape and block; an mm is [M,K]·[K,N] -> [M,N]
//              with a streamed operand; a constant's ROM period divides its elements
//   attributes mm: 1 <= mm_par <= kMaxParallel and mm_lanes = min(mm_par, bC*K) (the lane
//              rule, attributes.h), so 1 <= mm_lanes <= the products of a beat, and
//              mm_depth = mm_pipeline_depth(mm_lanes, K, operand bits); other kinds leave MACs at 1, depth 0; dims, index, step and perm in range of the operand's rank;
//              custom steps have delay >= 1 and touch only their own streams
//
// Throws inrarch::Error whose message names the process or stream ("design verifier:
// stream s_mm_2__add_5: depth 0 is below 1").
#pragma once

#include <string>

#include "dataflow/design.h"

namespace inrarch::dataflow {

void verify(const Design& d);
// The same, the message saying which step produced the design ("after lower: ...").
void verify(const Design& d, const std::string& after);

// The back half's debug hook, as PipelineOptions::verify_each is the optimizer's: while it is
// on, every step verifies the design it leaves: lower(), apply_parallelism, each candidate of
// the parallelism search (dse.cpp) and Design::set_depths (FIFO sizing, a depth file). Off by
// default (a process-wide switch, as the steps are free functions); the test binary turns it
// on for every test (tests/dataflow/verify_test.cpp), `compile --verify-design` for one run.
void set_verify_each(bool on);
bool verify_each();
// verify(d, after) when the hook is on.
void verify_step(const Design& d, const std::string& after);

// Turns the hook on (or off) for a scope, restoring it after.
class ScopedVerifyEach {
 public:
  explicit ScopedVerifyEach(bool on = true) : was_(verify_each()) { set_verify_each(on); }
  ~ScopedVerifyEach() { set_verify_each(was_); }
  ScopedVerifyEach(const ScopedVerifyEach&) = delete;
  ScopedVerifyEach& operator=(const ScopedVerifyEach&) = delete;

 private:
  bool was_;
};

}  // namespace inrarch::dataflow
