#include "dataflow/kernels.h"

namespace inrarch::dataflow {

namespace {

constexpr KernelClass kClassOfOp[] = {
#define OP(Enum, mnemonic, arity, attrs, shape_rule, category, kernel) KernelClass::kernel,
#include "ir/ops.def"
};
static_assert(sizeof(kClassOfOp) / sizeof(kClassOfOp[0]) == ir::kNumOps,
              "every op of ops.def names a kernel class");

struct ClassInfo {
  const char* name;
  Kind kind;
};
constexpr ClassInfo kClasses[] = {
#define KERNEL(Name, ProcessKind) {#Name, Kind::ProcessKind},
#include "dataflow/kernels.def"
};
static_assert(sizeof(kClasses) / sizeof(kClasses[0]) == kNumKernelClasses);

}  // namespace

KernelClass kernel_class(ir::Op op) { return kClassOfOp[static_cast<int>(op)]; }
KernelClass process_class(const Process& p) {
  return p.kind == Kind::MmReduce ? KernelClass::mm_reduce : kernel_class(p.op);
}
const char* kernel_class_name(KernelClass k) { return kClasses[static_cast<int>(k)].name; }
Kind process_kind(KernelClass k) { return kClasses[static_cast<int>(k)].kind; }

}  // namespace inrarch::dataflow
