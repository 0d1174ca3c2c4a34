// Over budget is an error: a design that does not fit the share of the part it may use
// (--part, --budget) ends `compile` before any backend runs, unless --allow-over-budget
// (docs/errors.md "Over budget", exit 3).
#pragma once

#include <string>

#include <nlohmann/json.hpp>

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

// The line OverBudgetError carries for the dataflow stage's `resources` section
// (dataflow/report.h), or "" when the design fits.
std::string over_budget_message(const nlohmann::json& resources);

// Throws OverBudgetError when the design does not fit.
void check_budget(const nlohmann::json& resources);

}  // namespace inrarch::driver
