#include "ir/ops.h"

#include <array>

namespace inrarch::ir {

namespace {

constexpr std::array<OpInfo, kNumOps> kOpTable = {{
#define OP(Enum, mnemonic, arity, attrs, shape_rule, category, kernel) \
  {mnemonic, arity, static_cast<uint32_t>(attrs), OpCategory::category},
#include "ir/ops.def"
}};

constexpr std::array<std::string_view, kNumAttrKinds> kAttrNames = {
    "name", "value", "dim", "index", "start", "end", "step", "perm", "dims", "keepdim"};

}  // namespace

std::string_view attr_name(Attr a) {
  for (int i = 0; i < kNumAttrKinds; ++i)
    if (a == (1u << i)) return kAttrNames[i];
  return "?";
}

const OpInfo& op_info(Op op) { return kOpTable[static_cast<int>(op)]; }

std::optional<Op> op_from_name(std::string_view mnemonic) {
  for (int i = 0; i < kNumOps; ++i)
    if (kOpTable[i].mnemonic == mnemonic) return static_cast<Op>(i);
  return std::nullopt;
}

}  // namespace inrarch::ir
