#include "dataflow/elementwise.h"

#include <fmt/format.h>

#include <string_view>

#include "support/error.h"

namespace inrarch::dataflow {

namespace {

// Every op whose kind in ops.def is Unary or Binary (the elementwise ops) has a row of
// elementwise.def, and every row is such an op: checked when this file compiles.
constexpr bool has_row(ir::Op op) {
#define ELEMENTWISE(Name, code, lane, functor, dsp, lut, ff, table_words, table_width, depth) \
  if (op == ir::Op::Name) return true;
#include "dataflow/elementwise.def"
  return false;
}
#define OP(Enum, mnemonic, arity, attrs, shape_rule, category, kernel) \
  static_assert((std::string_view(#kernel) == "Unary" || std::string_view(#kernel) == "Binary") ==  \
                    has_row(ir::Op::Enum),                                                           \
                "ops.def's elementwise ops and the rows of dataflow/elementwise.def differ: " #Enum);
#include "ir/ops.def"

}  // namespace

const std::vector<ElementwiseRow>& elementwise_rows() {
  static const std::vector<ElementwiseRow> rows = {
#define ELEMENTWISE(Name, code, lane, functor, dsp, lut, ff, table_words, table_width, depth) \
  {ir::Op::Name, code, #lane, #functor},
#include "dataflow/elementwise.def"
  };
  return rows;
}

const ElementwiseRow* elementwise_row(ir::Op op) {
  for (const ElementwiseRow& r : elementwise_rows())
    if (r.op == op) return &r;
  return nullptr;
}

const ElementwiseRow& elementwise_row(const Design& d, const Process& p) {
  const ElementwiseRow* row = elementwise_row(p.op);
  if (!row)
    throw Error(fmt::format("process {}: op {} is not elementwise (no row of dataflow/elementwise.def)", p.name,
                            ir::op_name(p.op)));
  if (p.op == ir::Op::Mul && d.options.fabric_elementwise_mul) return kMulInFabric;
  return *row;
}

int64_t elementwise_depth(ir::Op op, int64_t bits) {
  [[maybe_unused]] const int64_t w = bits;
#define ELEMENTWISE(Name, code, lane, functor, dsp, lut, ff, table_words, table_width, depth) \
  if (op == ir::Op::Name) return depth;
#include "dataflow/elementwise.def"
  throw Error(fmt::format("op {} is not elementwise (no row of dataflow/elementwise.def)", ir::op_name(op)));
}

int64_t elementwise_depth(const Design& d, const Process& p) {
  if (&elementwise_row(d, p) == &kMulInFabric) return mul_fabric_depth(d.options.elem_bits);
  return elementwise_depth(p.op, d.options.elem_bits);
}

int64_t elementwise_steps(const Design& d, const Process& p) {
  return folded_steps(elementwise_depth(d, p), p.ew_fold);
}

}  // namespace inrarch::dataflow
