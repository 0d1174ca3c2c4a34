// Which dataflow kernel computes an ir::Op: the `kernel` column of ir/ops.def, whose values
// are the rows of dataflow/kernels.def. Lowering, the schedules, the HLS and RTL emitters and
// the resource model dispatch on the class, so a new op needs only its ops.def row when an
// existing class fits, and a new class fails to compile until every consumer handles it.
#pragma once

#include <cstdint>

#include "dataflow/design.h"
#include "ir/ops.h"

namespace inrarch::dataflow {

enum class KernelClass : uint8_t {
#define KERNEL(Name, ProcessKind) Name,
#include "dataflow/kernels.def"
};

#define KERNEL(...) +1
inline constexpr int kNumKernelClasses = 0
#include "dataflow/kernels.def"
    ;

KernelClass kernel_class(ir::Op op);
// The class of a lowered process: its op's, except an mm that lowering made a batch
// reduction (Kind::MmReduce, reduce_rows.h), which is mm_reduce.
KernelClass process_class(const Process& p);
const char* kernel_class_name(KernelClass k);
// The process kind of the class's kernels (elementwise: Binary; lowering makes it Unary
// when an operand is constant).
Kind process_kind(KernelClass k);
// True for the in-order data-movement classes (schedule_gather.cpp, movement.h).
inline bool is_gather(KernelClass k) { return process_kind(k) == Kind::Gather; }

}  // namespace inrarch::dataflow
