// A plan: the architecture search's result at the edge, by process name. `compile` writes
// the one it compiled to OUT/plan.json; `compile --plan FILE` reads one instead of
// searching (docs/resources.md, "Plans").
//
//   {"format": "inrarch-plan", "version": 1,
//    "merge_max_group": 1,                 products sharing a weight merged, at most (1: none)
//    "block": 1,                           elements per stream beat asked of the lowering
//    "fabric_elementwise_mul": false,      elementwise multipliers in LUTs
//    "mm_par": {"mm_10": 97, ...},         the MACs asked of every mm kernel, by name
//    "ew_fold": {"mul_12": 4, ...}}        the folded elementwise kernels' cycles a beat
//                                          (optional; a kernel not named takes one)
//
// Names are resolved against the design lowered from the (merged) graph, where a name that
// is not an mm kernel, an mm kernel with no entry, and a value out of range are errors
// naming the file (resolve_plan). A plan without "block" was written before the block was
// searched: block 1.
#pragma once

#include <cstdint>
#include <filesystem>
#include <map>
#include <string>

#include <nlohmann/json.hpp>

#include "dataflow/attributes.h"
#include "dataflow/design.h"

namespace inrarch::driver {

struct Plan {
  int64_t merge_max_group = 1;
  bool fabric_elementwise_mul = false;
  std::map<std::string, int64_t> mm_par;
  int64_t block = 1;
  std::map<std::string, int64_t> ew_fold;
  bool operator==(const Plan&) const = default;
};

// The plan of a compiled design: its block, its mm kernels' mm_par, its folded elementwise
// kernels' ew_fold and its multiplier binding.
Plan plan_of(const dataflow::Design& d, int64_t merge_max_group);
nlohmann::json plan_json(const Plan& p);
// Throws inrarch::Error naming `source` for anything but a plan: a key it does not know, a
// value of the wrong type, merge_max_group outside 1 to 64, a block or an mm_par outside 1
// to limits::kMaxParallel (LimitError).
Plan plan_from_json(const nlohmann::json& j, const std::string& source);
Plan read_plan(const std::filesystem::path& file);

// The plan's choice for d, keyed by d's processes: every mm kernel of d must have an entry
// and every entry must be an mm kernel of d.
dataflow::Parallelism resolve_plan(const Plan& p, const dataflow::Design& d, const std::string& source);

}  // namespace inrarch::driver
