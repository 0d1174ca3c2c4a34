// The batch-reduction matrix product in the top (dataflow kind mm_reduce).
#include <fmt/format.h>

#include "backend/rtl/rtl_detail.h"
#include "support/error.h"

namespace inrarch::rtl::detail {

void check_mm_reduce(const dataflow::Design&, const dataflow::Process& p) {
  throw Error(fmt::format("rtl: process {} (mm_reduce, a batch reduction) has no RTL module yet; compile "
                          "without --rtl", p.name));
}

std::string mm_reduce_instance(const Ctx&, dataflow::ProcessId) { return ""; }

}  // namespace inrarch::rtl::detail
