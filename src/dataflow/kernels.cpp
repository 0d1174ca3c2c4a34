#include "dataflow/kernels.h"

namespace inrarch::dataflow {

namespace {

constexpr Kind kKindOfOp[] = {
#define OP(Enum, mnemonic, arity, attrs, shape_rule, category, kernel) Kind::kernel,
#include "ir/ops.def"
};
static_assert(sizeof(kKindOfOp) / sizeof(kKindOfOp[0]) == ir::kNumOps, "every op of ops.def names a process kind");

}  // namespace

Kind kernel_kind(ir::Op op) { return kKindOfOp[static_cast<int>(op)]; }

}  // namespace inrarch::dataflow
