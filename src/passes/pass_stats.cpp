#include "passes/pass.h"

namespace inrarch::passes {

void PassStats::count(std::string_view rule, int64_t n) {
  if (n == 0) return;
  auto it = rewrites.find(rule);
  if (it == rewrites.end()) it = rewrites.emplace(std::string(rule), 0).first;
  it->second += n;
}

int64_t PassStats::total() const {
  int64_t t = 0;
  for (const auto& [name, n] : rewrites) t += n;
  return t;
}

int64_t PassStats::get(std::string_view rule) const {
  auto it = rewrites.find(rule);
  return it == rewrites.end() ? 0 : it->second;
}

}  // namespace inrarch::passes
