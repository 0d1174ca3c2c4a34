#include "driver/budget.h"

#include <array>
#include <vector>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "dataflow/part.h"

namespace inrarch::driver {

std::string over_budget_message(const nlohmann::json& res) {
  if (res.value("fits", true)) return "";
  const dataflow::Part& part = dataflow::find_part(res["part"]["name"].get<std::string>());
  const nlohmann::json& b = res["budget"];
  dataflow::Budget budget{b["dsp"].get<double>(), b["bram"].get<double>(), b["uram"].get<double>(),
                          b["lut"].get<double>(), b["ff"].get<double>()};
  const dataflow::Capacity cap = dataflow::capacity(part, budget);
  struct Row {
    const char *key, *name, *budget_key;
    int64_t allowed, total;
  };
  const std::array<Row, 5> rows{{{"dsp", "DSP", "dsp", cap.dsp, part.dsp},
                                 {"bram18k", "BRAM18K", "bram", cap.bram18k, part.bram18k},
                                 {"uram", "URAM", "uram", cap.uram, part.uram},
                                 {"lut", "LUT", "lut", cap.lut, part.lut},
                                 {"ff", "FF", "ff", cap.ff, part.ff}}};
  std::vector<std::string> over;
  for (const Row& r : rows) {
    const int64_t used = res["total"][r.key].get<int64_t>();
    if (used <= r.allowed) continue;
    over.push_back(fmt::format("{} {} used, {} allowed ({:g}% of {}), {} over", r.name, used, r.allowed,
                               100 * b[r.budget_key].get<double>(), r.total, used - r.allowed));
  }
  // The part as big as the tool knows is the u280; on it, the budget or the numbers are left.
  const std::string bigger = part.name == "u280" ? "" : "a bigger part (--part u280), ";
  return fmt::format("the design does not fit the {}: {}; try {}a larger share (--budget, e.g. all=0.95), "
                     "narrower numbers (--max-error 1e-3), or --allow-over-budget to write it anyway",
                     part.name, fmt::join(over, "; "), bigger);
}

void check_budget(const nlohmann::json& resources) {
  const std::string why = over_budget_message(resources);
  if (!why.empty()) throw OverBudgetError(why);
}

}  // namespace inrarch::driver
