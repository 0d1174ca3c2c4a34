// Which process kind computes an ir::Op: the `kernel` column of ir/ops.def, whose values are
// rows of dataflow/kernels.def (dataflow::Kind). Lowering, the schedules, the HLS and RTL
// emitters, the resource model and the verifier dispatch on the kind, so a new op needs only
// its ops.def row when an existing kind fits, and a new kind fails to compile until every
// consumer handles it.
#pragma once

#include "dataflow/design.h"
#include "ir/ops.h"

namespace inrarch::dataflow {

// The kind ops.def names for op: Source for leaves (sources or constants, never kernels),
// Unary or Binary for an elementwise op by its arity (lowering makes a binary op with a
// constant operand Unary), Mm for mm (lowering makes a batch reduction MmReduce,
// reduce_rows.h), else the op's own kernel.
Kind kernel_kind(ir::Op op);

}  // namespace inrarch::dataflow
