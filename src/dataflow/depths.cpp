#include "dataflow/depths.h"

#include <charconv>
#include <filesystem>

#include <fmt/format.h>

#include "ir/json_text.h"
#include "support/error.h"
#include "support/files.h"
#include "support/limits.h"

namespace inrarch::dataflow {

namespace {

using json = nlohmann::json;

// A depth past the limit would overflow the FIFO bit counts (depth x width) downstream.
int64_t checked_depth(int64_t v, std::string_view spelled, const std::string& what, std::string_view where) {
  limits::check_range(v, 1, limits::kMaxFifoDepth, fmt::format("{} = {}", what, spelled), where);
  return v;
}

int64_t parse_depth(const json& v, const std::string& what, std::string_view where) {
  if (v.is_string() && v.get_ref<const std::string&>() == "unbounded") return kUnbounded;
  if (!v.is_number_integer())
    throw Error(fmt::format("{}: {} must be an integer or \"unbounded\", got {}", where, what, v.type_name()));
  // An unsigned value past INT64_MAX is out of range too, not a negative number.
  const int64_t n = v.is_number_unsigned() && v.get<uint64_t>() > INT64_MAX ? INT64_MAX : v.get<int64_t>();
  return checked_depth(n, v.dump(), what, where);
}

std::vector<int64_t> all_depths(const Design& d, const std::string& value) {
  if (value == "unbounded") return std::vector<int64_t>(d.streams.size(), kUnbounded);
  int64_t n = 0;
  auto [end, ec] = std::from_chars(value.data(), value.data() + value.size(), n);
  if (value.empty() || end != value.data() + value.size() || (ec != std::errc() && ec != std::errc::result_out_of_range))
    throw Error(fmt::format("--depths: all={} must be an integer or \"unbounded\"", value));
  if (ec == std::errc::result_out_of_range) n = value[0] == '-' ? INT64_MIN : INT64_MAX;
  return std::vector<int64_t>(d.streams.size(), checked_depth(n, value, "all", "--depths"));
}

}  // namespace

std::vector<int64_t> depths_from_json_text(const Design& d, std::string_view text, std::string_view filename) {
  json j = ir::parse_json_text(text, filename);
  if (j.is_object() && j.contains("depths")) j = j["depths"];
  if (!j.is_object())
    throw Error(fmt::format("{}: expected a JSON object {{\"stream\": depth, ...}}, got {}", filename, j.type_name()));
  std::vector<int64_t> out(d.streams.size(), 2);
  if (j.contains("all")) out.assign(d.streams.size(), parse_depth(j["all"], "depth of \"all\"", filename));
  for (const auto& [name, v] : j.items()) {
    if (name == "all") continue;
    StreamId s = d.find_stream(name);
    if (s < 0) throw Error(fmt::format("{}: no stream named '{}'", filename, name));
    out[s] = parse_depth(v, fmt::format("depth of stream '{}'", name), filename);
  }
  return out;
}

std::vector<int64_t> read_depths(const Design& d, const std::string& spec) {
  if (spec.starts_with("all=")) return all_depths(d, spec.substr(4));
  std::error_code ec;
  if (!std::filesystem::is_regular_file(spec, ec))
    throw Error(fmt::format("--depths: cannot open '{}' (expected all=N or a JSON file)", spec));
  return depths_from_json_text(d, read_file(spec), spec);
}

}  // namespace inrarch::dataflow
