// Comparison of computed tensors with reference values, shared by `eval --check`, the
// compile flow's checks and tests.
#pragma once

#include <string>
#include <vector>

#include "ir/bundle.h"

namespace inrarch::driver {

struct OutputError {
  std::string name;
  double max_abs = 0;  // max |got - want|
  double rel = 0;      // max |got - want| / max |want|  (normwise: robust near zeros)
};

struct Comparison {
  std::vector<OutputError> outputs;
  double worst_rel = 0;
  double worst_abs = 0;
  std::string worst_name;
};

// Compares every output of `g` (values in output order) with `reference` by output name.
// Throws inrarch::Error when a reference is missing or has another shape.
Comparison compare_outputs(const ir::Graph& g, const std::vector<ir::Tensor>& got,
                           const ir::TensorMap& reference);

}  // namespace inrarch::driver
