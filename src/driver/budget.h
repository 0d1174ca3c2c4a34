// Over budget is an error: a design that does not fit the share of the part it may use
// (--part, --budget) ends `compile` before any backend runs, unless --allow-over-budget
// (docs/errors.md "Over budget", exit 3).
#pragma once

#include <string>

#include "dataflow/part.h"
#include "dataflow/resources.h"

#include "support/error.h"

namespace inrarch::driver {

// `compile`'s exit code when no design fits the budget.
constexpr int kExitOverBudget = 3;

// The design takes more of the part than the budget allows; what() is one line naming
// each resource over, by how much, and what to try.
class OverBudgetError : public Error {
 public:
  using Error::Error;
};

// The line OverBudgetError carries for the dataflow stage's resource estimate on `part`
// under `budget`, or "" when the design fits.
std::string over_budget_message(const dataflow::ResourceReport& resources, const dataflow::Part& part,
                                const dataflow::Budget& budget);

}  // namespace inrarch::driver
