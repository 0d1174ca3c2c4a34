// Static value bounds by interval arithmetic: what every node can hold for any input in a
// box (docs/precision.md, "Static bounds").
//
// The sampled ranges that choose the fixed-point exponents (backend/hls/scaling.h) are
// maxima over the values the interpreter saw; an input between the samples may go further.
// Here each element of each node gets an interval [lo, hi] that holds for every input
// element within its own [lo, hi] and the params at their values: each op's rule maps its
// operands' intervals to an enclosure of every value the interpreter can produce from
// operands inside them. The rules (value_bounds.cpp, one per ops.def row):
//   - ops that do not decrease in any operand (data movement, add, sum, exp, tanh, relu,
//     step, log, sqrt) take the interpreter's own op on the lower and on the upper ends;
//     IEEE rounding to nearest is monotone, so the interpreter's value lies between them;
//   - neg and sub swap ends; mul and div take the extremes of the four end products (a
//     divisor whose interval holds 0 bounds nothing);
//   - sin and cos: the ends' values, and ±1 where a crest or trough lies inside;
//   - mm: the midpoint-radius product (Rump), widened by 4(K + 2) ulps of the ends'
//     magnitude product for the rounding of the midpoint product.
// An interval may be infinite (a log near 0, a quotient by an interval holding 0): such a
// node is unbounded. Interval arithmetic forgets that two operands are the same value (x - x
// is [lo - hi, hi - lo]), so deep derivative graphs can be bounded loosely, never wrongly.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "ir/interpreter.h"

namespace inrarch::passes {

struct Interval {
  Tensor lo, hi;  // per element, lo <= hi; either end may be infinite
};

// Per input name: the box its elements range over.
using InputBox = std::map<std::string, Interval>;

// Every element of every input of g within [lo, hi].
InputBox uniform_box(const ir::Graph& g, double lo, double hi);

// The interval of every element of each node in `nodes` (in that order). Throws
// inrarch::Error when an input is missing from the box or a param from `params`.
std::vector<Interval> value_bounds(const ir::Graph& g, const std::vector<ir::NodeId>& nodes, const InputBox& box,
                                   const ir::TensorMap& params);

// max |value| each node in `nodes` can hold (infinite where unbounded), keeping only the
// live frontier's intervals, as ir::evaluate_visit does.
std::vector<double> magnitude_bounds(const ir::Graph& g, const std::vector<ir::NodeId>& nodes,
                                     const InputBox& box, const ir::TensorMap& params);

}  // namespace inrarch::passes
