// The multi-indices α ∈ ℕ^d with |α| ≤ K that index a truncated Taylor polynomial in d
// variables (docs/taylor.md). Index 0 is α = 0; the rest follow in graded lexicographic
// order, so every α comes after each β < α: a sweep in index order has the lower
// coefficients a recurrence needs.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace inrarch::autodiff {

using MultiIndex = std::vector<int>;

class MultiIndexSet {
 public:
  // Throws inrarch::Error unless 1 <= d <= 8 and 0 <= K <= 8 and C(K+d, d) <= 4096.
  MultiIndexSet(int variables, int order);

  int variables() const { return d_; }
  int order() const { return k_; }
  size_t size() const { return alphas_.size(); }
  const MultiIndex& operator[](size_t i) const { return alphas_[i]; }
  int degree(size_t i) const { return degree_[i]; }
  // Index of α, or -1 when |α| > K or α has the wrong length or a negative entry.
  int find(const MultiIndex& alpha) const;
  // Pairs (β, α − β) by index for every β ≤ α (componentwise), β = 0 first and β = α last.
  const std::vector<std::pair<int, int>>& splits(size_t alpha) const { return splits_[alpha]; }
  // α! = Π α_i!: the factor between a normalized coefficient and the derivative ∂^α.
  double factorial(size_t i) const;

 private:
  int d_, k_;
  std::vector<MultiIndex> alphas_;
  std::vector<int> degree_;
  std::vector<std::vector<std::pair<int, int>>> splits_;
};

// "[1,0]"-style text of α for messages and output names.
std::string multi_index_str(const MultiIndex& alpha);

}  // namespace inrarch::autodiff
