// Lowering an IR graph to a dataflow design (docs/dataflow.md §1).
#pragma once

#include <functional>

#include "dataflow/design.h"
#include "ir/graph.h"

namespace inrarch::dataflow {

// One process per live non-leaf node that depends on an input (a "kernel"), a source per
// live input, a sink per output, and copy processes after every value read by more than one
// consumer (options.fanout: one 1:N copy, or a chain of copies ordered by consumer lag, which
// costs one more lowering and an unbounded resolve of its event graph). Nodes that depend on no input (params,
// constants and subtrees of them, e.g. transpose(W)) are not lowered: the consuming kernel
// holds them (a splat becomes a scalar parameter, anything else a ROM). An output that is
// constant gets a source that plays it from ROM.
//
// Names: kernels "<op>_<k>" with k the node's number in print_text (live nodes numbered
// densely), sources "in_<input>", sinks "out_<output>", copies "copy_<producer>[_<i>]", streams
// "s_<producer>__<consumer>" (plus "_<slot>" when two streams join the same pair).
// Throws inrarch::Error for graphs it cannot lower (no outputs).
Design lower(const ir::Graph& g, const LowerOptions& options = {});

// The chain fan-outs' consumer order lower() would choose for g (one star lowering and an
// unbounded resolve); empty when the design has no chain of three or more consumers. The
// consumers' lags depend on the kernels' speed: `attrs`, when given, puts the design's
// attributes (a search's parallelism, attributes.h) on the star design before the resolve,
// so the order is the one for the design those attributes make; lower() then takes it
// through LowerOptions::chain_order.
ChainOrder chain_order(const ir::Graph& g, const LowerOptions& options = {},
                       const std::function<void(Design&)>& attrs = {});

// The per-stream block: the largest divisor of the last dim that is <= requested (so a beat
// never straddles a row of the last dim). With `rows` (the batch, LowerOptions::rows), the
// last dim of a rank-1 stream [rows*f] is f: a beat never straddles a sample either, so
// the design at any number of rows has the same blocks.
int64_t stream_block(const ir::Shape& shape, int64_t requested, int64_t rows = 0);

}  // namespace inrarch::dataflow
