// Taylor-mode derivatives (docs/taylor.md): every partial ∂^α f / ∂x^α with |α| ≤ K of a
// graph's outputs, in one forward sweep that carries a truncated multivariate Taylor
// polynomial (a "jet") per node.
//
// x is an input of shape [rows, d] whose rows are independent samples; f's rows must depend
// only on x's same row (as in an INR), so the derivative of row r is that row's own. A jet
// holds the normalized coefficients v_α = ∂^α v / α! for every α of the MultiIndexSet,
// each a node shaped like v (coefficient 0 is v itself); a coefficient that is identically
// zero is no node at all, so zeros never reach the graph (the second derivatives of a first
// linear layer, any coefficient of a node x does not reach). Mixed partials exist once by
// construction: α is a multi-index, not a sequence of directions.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "autodiff/multi_index.h"
#include "ir/bundle.h"

namespace inrarch::autodiff {

// One term of a request: weight · ∂^alpha.
struct Term {
  MultiIndex alpha;
  double weight = 1.0;
};

// One output of the derived graph: scale · Σ_i w_i ∂^(α_i) of primal output `of` over the
// terms α, plus..., optionally only element `index` of its last dimension (INSP's y[..., c]).
// `plus` makes sums of partials one output (a Laplacian: α = [2,0], plus = {[0,2]});
// `weights` (one per term, empty: all 1) signed, scaled ones (a heat residual u_t − κ u_xx:
// α = [0,1], plus = {[2,0]}, weights = {1, −κ}).
struct DerivativeRequest {
  std::string name;
  std::string of;
  MultiIndex alpha;
  std::optional<int64_t> index;
  double scale = 1.0;
  std::vector<MultiIndex> plus;
  std::vector<double> weights;

  std::vector<Term> terms() const {
    std::vector<Term> t{{alpha, weights.empty() ? 1.0 : weights[0]}};
    for (size_t i = 0; i < plus.size(); ++i) t.push_back({plus[i], weights.empty() ? 1.0 : weights.at(i + 1)});
    return t;
  }
};

struct TaylorSpec {
  std::string wrt = "x";
  int order = 1;
  std::vector<DerivativeRequest> requests;  // empty: default_requests()
};

// Every α with |α| <= K of every output of g, named "<output>_d<α_0>_<α_1>..." (α = 0 keeps
// the output's own name).
std::vector<DerivativeRequest> default_requests(const ir::Graph& g, const MultiIndexSet& mi);

// spec's requests on g (default_requests when empty), checked: throws inrarch::Error naming
// the problem (see taylor()).
std::vector<DerivativeRequest> resolve_requests(const ir::Graph& g, const TaylorSpec& spec);

// g with the jets appended and the requested derivatives as its only outputs, in request
// order. Throws inrarch::Error naming the problem: no input `wrt`, x not of rank 2, an
// unknown output, a multi-index of the wrong length or above the order, an index out of
// range, a duplicate output name.
ir::Graph taylor(const ir::Graph& g, const TaylorSpec& spec);

// The same requests computed by nested reverse mode (grad() once per direction of α, on
// each scalar-per-row component): an independent construction the Taylor graph is checked
// against. Slow for high orders: it redoes the backward passes Taylor mode avoids.
ir::Graph nested_reverse(const ir::Graph& g, const TaylorSpec& spec);

// A bundle's derivative bundle: taylor() of its graph with its inputs and params, and
// reference outputs evaluated on nested_reverse() (not on the Taylor graph itself).
ir::Bundle derive_bundle(const ir::Bundle& primal, const TaylorSpec& spec, bool with_reference);

// Requests from JSON: {"outputs": [{"name", "of", "alpha" | "terms", "index"?, "scale"?}, ...]},
// where "alpha" is one multi-index [1,0] or several to add [[2,0],[0,2]], and "terms" a
// signed, scaled sum [{"alpha": [0,1], "scale": 1}, {"alpha": [2,0], "scale": -0.1}]
// (docs/taylor.md "Requests"); `source` names the file in errors.
std::vector<DerivativeRequest> requests_from_json(const nlohmann::json& j, const std::string& source);

}  // namespace inrarch::autodiff
