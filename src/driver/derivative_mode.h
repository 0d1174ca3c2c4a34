// The default derivative construction, of the built-in INSP and of a primal bundle's
// requests (`derive`): whichever of nested reverse mode and Taylor mode costs fewer
// multiplies (docs/taylor.md "Default mode").
#pragma once

#include <cstdint>
#include <string>

#include <nlohmann/json.hpp>

#include "autodiff/models.h"
#include "autodiff/taylor.h"
#include "ir/bundle.h"

namespace inrarch::driver {

struct ModeChoice {
  autodiff::DerivativeMode mode = autodiff::DerivativeMode::Reverse;
  bool chosen = false;  // by the rule ("auto"), not named by the user
  // Of the optimized, lowered graph (what the DSP floor counts); set when chosen.
  int64_t reverse_multiplies = 0, taylor_multiplies = 0;
  // report.json's source.mode_choice: {rule, reverse_multiplies, taylor_multiplies}
  nlohmann::json json() const;
};

// "reverse" and "taylor" as named; "auto": the one whose optimized, lowered INSP graph at
// this batch has fewer multiplies (reverse on a tie: INSP's own construction). Counting
// builds, optimizes and lowers both graphs, without reference values, at the batch when it
// is at most 2 x kSearchRows, else at kSearchRows and twice that, the count at the batch
// following from the count per row (exact: every multiply is per row, or of derived
// params): the cost does not grow with the batch. Throws inrarch::Error for other names.
ModeChoice choose_insp_mode(const std::string& name, const autodiff::SirenSpec& spec, int order);

// The same rule for a primal bundle's derivative requests: "auto" builds both
// constructions (autodiff::taylor, autodiff::nested_reverse) of the primal graph, counted
// as above on the primal rebatched to kSearchRows and twice that (the whole batch when it
// is smaller). The primal's rows must be independent (passes::graph_rows). Throws
// inrarch::Error for other names.
ModeChoice choose_bundle_mode(const std::string& name, const ir::Bundle& primal, const autodiff::TaylorSpec& spec);

// The derivative bundle in the chosen construction: Taylor mode's is autodiff::derive_bundle
// (reference from nested reverse mode); reverse mode's graph is nested_reverse() with its
// reference evaluated on the Taylor graph, so the reference is always the other
// construction's.
ir::Bundle derive_in_mode(const ir::Bundle& primal, const autodiff::TaylorSpec& spec, autodiff::DerivativeMode mode,
                          bool with_reference);

}  // namespace inrarch::driver
