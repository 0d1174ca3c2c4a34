// Enumeration is by degree, then lexicographically descending in the first variable, so the
// order for d = 2 is 00, 10, 01, 20, 11, 02, ...: the first-order block is ∂x0, ∂x1 as a
// user reads a gradient.
#include "autodiff/multi_index.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <map>

#include "support/error.h"

namespace inrarch::autodiff {

namespace {

constexpr int kMaxVariables = 8;
constexpr int kMaxOrder = 8;
constexpr size_t kMaxCoefficients = 4096;

// Every α of degree exactly `left` over variables [v, d), appended to `out`.
void degree_block(int d, int v, int left, MultiIndex& cur, std::vector<MultiIndex>& out) {
  if (v == d - 1) {
    cur[v] = left;
    out.push_back(cur);
    return;
  }
  for (int a = left; a >= 0; --a) {
    cur[v] = a;
    degree_block(d, v + 1, left - a, cur, out);
  }
  cur[v] = 0;
}

bool leq(const MultiIndex& b, const MultiIndex& a) {
  for (size_t i = 0; i < a.size(); ++i)
    if (b[i] > a[i]) return false;
  return true;
}

}  // namespace

MultiIndexSet::MultiIndexSet(int variables, int order) : d_(variables), k_(order) {
  if (d_ < 1 || d_ > kMaxVariables)
    throw Error(fmt::format("taylor: {} variables out of range 1..{}", d_, kMaxVariables));
  if (k_ < 0 || k_ > kMaxOrder)
    throw Error(fmt::format("taylor: order {} out of range 0..{}", k_, kMaxOrder));
  for (int deg = 0; deg <= k_; ++deg) {
    MultiIndex cur(d_, 0);
    degree_block(d_, 0, deg, cur, alphas_);
    degree_.resize(alphas_.size(), deg);
    if (alphas_.size() > kMaxCoefficients)
      throw Error(fmt::format("taylor: order {} in {} variables has more than {} coefficients",
                              k_, d_, kMaxCoefficients));
  }
  splits_.resize(alphas_.size());
  for (size_t a = 0; a < alphas_.size(); ++a) {
    for (size_t b = 0; b <= a; ++b) {
      if (!leq(alphas_[b], alphas_[a])) continue;
      MultiIndex rest = alphas_[a];
      for (int i = 0; i < d_; ++i) rest[i] -= alphas_[b][i];
      splits_[a].emplace_back(static_cast<int>(b), find(rest));
    }
  }
}

int MultiIndexSet::find(const MultiIndex& alpha) const {
  if (alpha.size() != static_cast<size_t>(d_)) return -1;
  int deg = 0;
  for (int a : alpha) {
    if (a < 0) return -1;
    deg += a;
  }
  if (deg > k_) return -1;
  // Graded blocks are small (C(K+d, d) <= 4096): a scan of α's degree block is enough.
  for (size_t i = 0; i < alphas_.size(); ++i)
    if (degree_[i] == deg && alphas_[i] == alpha) return static_cast<int>(i);
  return -1;
}

double MultiIndexSet::factorial(size_t i) const {
  double f = 1;
  for (int a : alphas_[i])
    for (int k = 2; k <= a; ++k) f *= k;
  return f;
}

std::string multi_index_str(const MultiIndex& alpha) { return fmt::format("[{}]", fmt::join(alpha, ",")); }

}  // namespace inrarch::autodiff
