// Shape inference: one rule per ops.def row (the shape_rule column).
#pragma once

#include <vector>

#include "ir/graph.h"

namespace inrarch::ir {

// The result shape of `op` applied to operands of the given shapes. `given` is the shape the
// caller states (text `: [..]`, JSON "shape"): required for leaves, reshape and expand,
// checked for equality otherwise when non-null. Normalizes negative dims in `attrs`.
// Throws inrarch::Error with a message that names the op and the mismatch.
Shape infer_shape(Op op, const std::vector<const Shape*>& operands, Attrs& attrs,
                  const Shape* given);

}  // namespace inrarch::ir
