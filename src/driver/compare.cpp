#include "driver/compare.h"

#include <cmath>

#include <fmt/format.h>

#include "ir/error.h"

namespace inrarch::driver {

namespace {

OutputError compare_one(const std::string& name, const ir::Tensor& got, const ir::Tensor& want) {
  if (got.shape != want.shape)
    throw Error(fmt::format("output \"{}\": computed shape {} but reference has {}", name,
                            shape_str(got.shape), shape_str(want.shape)));
  OutputError e{name};
  double scale = 0;
  for (int64_t i = 0; i < got.size(); ++i) {
    double d = std::abs(got.data[i] - want.data[i]);
    if (std::isnan(d)) d = INFINITY;
    e.max_abs = std::max(e.max_abs, d);
    scale = std::max(scale, std::abs(want.data[i]));
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
    c.outputs.push_back(std::move(e));
  }
  return c;
}

}  // namespace inrarch::driver
