// A dense row-major tensor of doubles: the value type of the interpreter, of .npy files and
// of dense constants in the IR.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace inrarch {

using Shape = std::vector<int64_t>;

int64_t numel(const Shape& shape);
std::string shape_str(const Shape& shape);  // "[64,256]"

struct Tensor {
  Shape shape;
  std::vector<double> data;  // row-major, numel(shape) values

  Tensor() = default;
  Tensor(Shape s, double fill = 0.0);
  Tensor(Shape s, std::vector<double> d);

  int64_t size() const { return static_cast<int64_t>(data.size()); }
  bool operator==(const Tensor&) const = default;
};

// Row-major strides of a shape (in elements).
std::vector<int64_t> strides_of(const Shape& shape);

namespace ir {
using inrarch::numel;
using inrarch::Shape;
using inrarch::shape_str;
using inrarch::strides_of;
using inrarch::Tensor;
}  // namespace ir

}  // namespace inrarch
