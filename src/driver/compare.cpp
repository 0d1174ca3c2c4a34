#include "driver/compare.h"

#include <algorithm>
#include <cmath>
#include <vector>

#include <fmt/format.h>

#include "support/error.h"

namespace inrarch::driver {

namespace {

OutputError compare_one(const std::string& name, const ir::Tensor& got, const ir::Tensor& want) {
  if (got.shape != want.shape)
    throw Error(fmt::format("output \"{}\": computed shape {} but reference has {}", name,
                            shape_str(got.shape), shape_str(want.shape)));
  const int64_t columns = got.shape.empty() ? 1 : std::max<int64_t>(got.shape.back(), 1);
  std::vector<double> col_abs(columns, 0.0), col_scale(columns, 0.0);
  for (int64_t i = 0; i < got.size(); ++i) {
    double d = std::abs(got.data[i] - want.data[i]);
    if (std::isnan(d)) d = INFINITY;
    col_abs[i % columns] = std::max(col_abs[i % columns], d);
    col_scale[i % columns] = std::max(col_scale[i % columns], std::abs(want.data[i]));
  }
  OutputError e{name};
  double scale = 0;
  for (int64_t c = 0; c < columns; ++c) {
    e.max_abs = std::max(e.max_abs, col_abs[c]);
    scale = std::max(scale, col_scale[c]);
    double rel = col_scale[c] > 0 ? col_abs[c] / col_scale[c] : col_abs[c];
    if (c == 0 || rel > e.column_rel) e.column_rel = rel, e.worst_column = c;
  }
  e.rel = scale > 0 ? e.max_abs / scale : e.max_abs;
  return e;
}

}  // namespace

Comparison compare_outputs(const ir::Graph& g, const std::vector<ir::Tensor>& got,
                           const ir::TensorMap& reference) {
  Comparison c;
  for (size_t i = 0; i < g.outputs().size(); ++i) {
    const std::string& name = g.outputs()[i].name;
    auto it = reference.find(name);
    if (it == reference.end())
      throw Error(fmt::format("no reference value for output \"{}\" (reference/{}.npy)", name, name));
    OutputError e = compare_one(name, got.at(i), it->second);
    if (c.outputs.empty() || e.rel > c.worst_rel) {
      c.worst_rel = e.rel;
      c.worst_name = name;
    }
    c.worst_abs = std::max(c.worst_abs, e.max_abs);
    if (c.outputs.empty() || e.column_rel > c.worst_column_rel) {
      c.worst_column_rel = e.column_rel;
      c.worst_column_name = name;
      c.worst_column = e.worst_column;
    }
    c.outputs.push_back(std::move(e));
  }
  return c;
}

}  // namespace inrarch::driver
