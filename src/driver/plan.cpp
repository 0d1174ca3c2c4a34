// Plans (plan.h): the search's result as JSON, by process name.
#include "driver/plan.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "ir/json_text.h"
#include "support/error.h"
#include "support/files.h"
#include "support/limits.h"

namespace inrarch::driver {

namespace {

using nlohmann::json;

constexpr const char* kFormat = "inrarch-plan";
constexpr int kVersion = 1;
constexpr int64_t kMaxMergeGroup = 64;  // compile --merge's range

int64_t integer(const json& v, const std::string& what, const std::string& source) {
  if (!v.is_number_integer())
    throw Error(fmt::format("{}: {} must be an integer, got {}", source, what, v.type_name()));
  return v.is_number_unsigned() && v.get<uint64_t>() > INT64_MAX ? INT64_MAX : v.get<int64_t>();
}

}  // namespace

Plan plan_of(const dataflow::Design& d, int64_t merge_max_group) {
  Plan p;
  p.merge_max_group = merge_max_group;
  p.fabric_elementwise_mul = d.options.fabric_elementwise_mul;
  p.block = d.options.block;
  p.mm_par = dataflow::parallelism_names(d, dataflow::parallelism_of(d));
  p.ew_fold = dataflow::fold_names(d, dataflow::parallelism_of(d));
  return p;
}

json plan_json(const Plan& p) {
  return {{"format", kFormat},
          {"version", kVersion},
          {"merge_max_group", p.merge_max_group},
          {"block", p.block},
          {"fabric_elementwise_mul", p.fabric_elementwise_mul},
          {"mm_par", p.mm_par},
          {"ew_fold", p.ew_fold}};
}

Plan plan_from_json(const json& j, const std::string& source) {
  if (!j.is_object()) throw Error(fmt::format("{}: a plan is a JSON object, got {}", source, j.type_name()));
  for (const auto& [key, v] : j.items())
    if (key != "format" && key != "version" && key != "merge_max_group" && key != "block" &&
        key != "fabric_elementwise_mul" && key != "mm_par" && key != "ew_fold")
      throw Error(fmt::format("{}: unknown key '{}' (a plan has format, version, merge_max_group, block, "
                              "fabric_elementwise_mul, mm_par and ew_fold)", source, key));
  if (j.contains("format") && j["format"] != kFormat)
    throw Error(fmt::format("{}: format {} is not \"{}\"", source, j["format"].dump(), kFormat));
  if (j.contains("version") && integer(j["version"], "version", source) != kVersion)
    throw Error(fmt::format("{}: version {} is not {} (the one this inrarch reads)", source, j["version"].dump(), kVersion));
  if (!j.contains("mm_par") || !j["mm_par"].is_object())
    throw Error(fmt::format("{}: no \"mm_par\" object {{\"<mm kernel>\": MACs, ...}}", source));
  Plan p;
  if (j.contains("merge_max_group")) {
    p.merge_max_group = integer(j["merge_max_group"], "merge_max_group", source);
    limits::check_range(p.merge_max_group, 1, kMaxMergeGroup, fmt::format("merge_max_group {}", p.merge_max_group),
                        source);
  }
  if (j.contains("block")) {
    p.block = integer(j["block"], "block", source);
    limits::check_range(p.block, 1, limits::kMaxParallel, fmt::format("block {}", p.block), source);
  }
  if (j.contains("fabric_elementwise_mul")) {
    if (!j["fabric_elementwise_mul"].is_boolean())
      throw Error(fmt::format("{}: fabric_elementwise_mul must be true or false, got {}", source,
                              j["fabric_elementwise_mul"].type_name()));
    p.fabric_elementwise_mul = j["fabric_elementwise_mul"].get<bool>();
  }
  for (const auto& [name, v] : j["mm_par"].items()) {
    const int64_t macs = integer(v, fmt::format("mm_par of '{}'", name), source);
    limits::check_range(macs, 1, limits::kMaxParallel, fmt::format("mm_par {} of '{}'", macs, name), source);
    p.mm_par[name] = macs;
  }
  if (j.contains("ew_fold")) {
    if (!j["ew_fold"].is_object())
      throw Error(fmt::format("{}: \"ew_fold\" must be an object {{\"<elementwise kernel>\": cycles, ...}}", source));
    for (const auto& [name, v] : j["ew_fold"].items())
      p.ew_fold[name] = integer(v, fmt::format("ew_fold of '{}'", name), source);
  }
  return p;
}

Plan read_plan(const std::filesystem::path& file) {
  const std::string source = "--plan " + file.string();
  std::error_code ec;
  if (!std::filesystem::is_regular_file(file, ec)) throw Error(fmt::format("{}: cannot open it", source));
  return plan_from_json(ir::parse_json_text(read_file(file), file.string()), source);
}

dataflow::Parallelism resolve_plan(const Plan& p, const dataflow::Design& d, const std::string& source) {
  dataflow::Parallelism par = dataflow::parallelism_by_name(d, p.mm_par, source, p.ew_fold);
  par.fabric_elementwise_mul = p.fabric_elementwise_mul;
  std::vector<std::string> missing;
  for (const dataflow::Process& pr : d.processes)
    if (dataflow::has_macs(pr.kind) && !p.mm_par.count(pr.name)) missing.push_back(pr.name);
  if (!missing.empty())
    throw Error(fmt::format("{}: no mm_par for the design's mm kernel{} {} (merge_max_group {}: the plan must come "
                            "from the same model and merge)",
                            source, missing.size() > 1 ? "s" : "", fmt::join(missing, ", "), p.merge_max_group));
  return par;
}

}  // namespace inrarch::driver
