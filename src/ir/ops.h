// The op enum and per-op facts, all expanded from ops.def.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

namespace inrarch::ir {

// Attribute kinds. The order here is the order they are printed and parsed in.
enum Attr : uint32_t {
  ATTR_NAME = 1u << 0,     // string: input/param name
  ATTR_VALUE = 1u << 1,    // const: scalar splat or dense tensor
  ATTR_DIM = 1u << 2,      // int
  ATTR_INDEX = 1u << 3,    // int
  ATTR_START = 1u << 4,    // int
  ATTR_END = 1u << 5,      // int
  ATTR_STEP = 1u << 6,     // int
  ATTR_PERM = 1u << 7,     // int list
  ATTR_DIMS = 1u << 8,     // int list
  ATTR_KEEPDIM = 1u << 9,  // bool
};
inline constexpr int kNumAttrKinds = 10;
// Attribute name as it appears in text and JSON ("dim", "perm", ...).
std::string_view attr_name(Attr a);

enum class OpCategory : uint8_t { Leaf, Unary, Binary, Compute, Shape };

enum class Op : uint8_t {
#define OP(Enum, mnemonic, arity, attrs, shape_rule, category, kernel) Enum,
#include "ir/ops.def"
};

#define OP(...) +1
inline constexpr int kNumOps = 0
#include "ir/ops.def"
    ;

struct OpInfo {
  std::string_view mnemonic;
  int arity;  // -1: variadic
  uint32_t attrs;
  OpCategory category;
};

const OpInfo& op_info(Op op);
inline std::string_view op_name(Op op) { return op_info(op).mnemonic; }
std::optional<Op> op_from_name(std::string_view mnemonic);

inline bool is_leaf(Op op) { return op_info(op).category == OpCategory::Leaf; }
inline bool is_elementwise(Op op) {
  auto c = op_info(op).category;
  return c == OpCategory::Unary || c == OpCategory::Binary;
}
inline bool is_commutative(Op op) { return op == Op::Add || op == Op::Mul; }

}  // namespace inrarch::ir
