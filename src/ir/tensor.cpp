#include "ir/tensor.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "support/error.h"

namespace inrarch {

int64_t numel(const Shape& shape) {
  int64_t n = 1;
  for (int64_t d : shape) n *= d;
  return n;
}

std::string shape_str(const Shape& shape) { return fmt::format("[{}]", fmt::join(shape, ",")); }

Tensor::Tensor(Shape s, double fill) : shape(std::move(s)), data(numel(shape), fill) {}

Tensor::Tensor(Shape s, std::vector<double> d) : shape(std::move(s)), data(std::move(d)) {
  INRARCH_ASSERT(static_cast<int64_t>(data.size()) == numel(shape), "tensor data/shape mismatch");
}

std::vector<int64_t> strides_of(const Shape& shape) {
  std::vector<int64_t> strides(shape.size(), 1);
  for (int i = static_cast<int>(shape.size()) - 2; i >= 0; --i)
    strides[i] = strides[i + 1] * shape[i + 1];
  return strides;
}

}  // namespace inrarch
