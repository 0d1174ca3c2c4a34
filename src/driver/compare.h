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
  // The same per column (elements sharing the last index: one quantity of a stacked
  // [rows, k] output), whose worst is reported: a small column's error would hide behind
  // a large column's max |want| in `rel`.
  int64_t worst_column = 0;
  double column_rel = 0;
};

struct Comparison {
  std::vector<OutputError> outputs;
  double worst_rel = 0;
  double worst_abs = 0;
  std::string worst_name;
  double worst_column_rel = 0;  // over every output's columns (reported, not judged)
  std::string worst_column_name;
  int64_t worst_column = 0;
};

// Compares every output of `g` (values in output order) with `reference` by output name.
// Throws inrarch::Error when a reference is missing or has another shape.
Comparison compare_outputs(const ir::Graph& g, const std::vector<ir::Tensor>& got,
                           const ir::TensorMap& reference);

}  // namespace inrarch::driver
