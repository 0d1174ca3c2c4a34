#include "driver/budget.h"

#include <array>
#include <vector>

#include <fmt/format.h>
#include <fmt/ranges.h>

namespace inrarch::driver {

std::string over_budget_message(const dataflow::ResourceReport& res, const dataflow::Part& part,
                                const dataflow::Budget& b) {
  if (res.fits) return "";
  const dataflow::Capacity cap = dataflow::capacity(part, b);
  struct Row {
    const char* name;
    int64_t used, allowed, total;
    double share;
  };
  const dataflow::Usage& u = res.total;
  const std::array<Row, 5> rows{{{"DSP", u.dsp, cap.dsp, part.dsp, b.dsp},
                                 {"BRAM18K", u.bram18k, cap.bram18k, part.bram18k, b.bram},
                                 {"URAM", u.uram, cap.uram, part.uram, b.uram},
                                 {"LUT", u.lut, cap.lut, part.lut, b.lut},
                                 {"FF", u.ff, cap.ff, part.ff, b.ff}}};
  std::vector<std::string> over;
  for (const Row& r : rows) {
    if (r.used <= r.allowed) continue;
    over.push_back(fmt::format("{} {} used, {} allowed ({:g}% of {}), {} over", r.name, r.used, r.allowed,
                               100 * r.share, r.total, r.used - r.allowed));
  }
  // The part as big as the tool knows is the u280; on it, the budget or the numbers are left.
  const std::string bigger = part.name == "u280" ? "" : "a bigger part (--part u280), ";
  return fmt::format("the design does not fit the {}: {}; try {}a larger share (--budget, e.g. all=0.95), "
                     "narrower numbers (--max-error 1e-3), or --allow-over-budget to write it anyway",
                     part.name, fmt::join(over, "; "), bigger);
}

}  // namespace inrarch::driver
