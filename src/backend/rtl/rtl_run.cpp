// The RTL run's results: read from the testbenches' result lines (an edge: a program's
// output) and written as report.json's verification.rtl (the other edge).
#include "backend/rtl/rtl_run.h"

#include <nlohmann/json.hpp>

namespace inrarch::rtl {

namespace {

using json = nlohmann::json;

int64_t integer(const json& j, const char* key, int64_t none) {
  const auto it = j.find(key);
  return it != j.end() && it->is_number() ? it->get<int64_t>() : none;
}

}  // namespace

std::optional<TestbenchRun> testbench_run(const json& line) {
  if (!line.is_object() || !line.contains("hang") || !line["hang"].is_boolean()) return std::nullopt;
  TestbenchRun r;
  r.hang = line["hang"].get<bool>();
  r.cycles = integer(line, "cycles", -1);
  r.first_in = integer(line, "first_in", -1);
  r.last_out = integer(line, "last_out", -1);
  r.last_op = integer(line, "last_op", -1);
  if (const auto b = line.find("bit_exact"); b != line.end() && b->is_boolean()) r.bit_exact = b->get<bool>();
  r.mismatches = integer(line, "mismatches", 0);
  if (const auto f = line.find("first_mismatch"); f != line.end() && f->is_string()) r.first_mismatch = *f;
  if (const auto f = line.find("overflow_flags"); f != line.end() && f->is_object())
    for (const auto& [port, set] : f->items()) r.overflow_flags[port] = set == true;
  if (const auto f = line.find("overflow_beats"); f != line.end() && f->is_object())
    for (const auto& [port, n] : f->items()) r.overflow_beats[port] = n.is_number() ? n.get<int64_t>() : 0;
  return r;
}

json to_json(const TestbenchRun& r) {
  json j = {{"hang", r.hang},         {"cycles", r.cycles},     {"first_in", r.first_in},
            {"last_out", r.last_out}, {"last_op", r.last_op},   {"overflow_flags", r.overflow_flags},
            {"overflow_beats", r.overflow_beats}};
  j["bit_exact"] = r.bit_exact ? json(*r.bit_exact) : json(nullptr);
  if (r.bit_exact) {
    j["mismatches"] = r.mismatches;
    j["first_mismatch"] = r.first_mismatch;
  }
  return j;
}

json to_json(const RtlTraceCheck& t) {
  json j = {{"pass", t.pass}, {"ops_checked", t.ops_checked}};
  if (!t.pass) j["mismatch"] = t.mismatch;
  return j;
}

json to_json(const RtlRun& r) {
  json j = {{"pass", r.pass}, {"bit_exact", false}, {"hang", false}, {"model_cycles", r.model_cycles},
            {"model_latency", r.model_latency}};
  if (!r.lint.empty()) j["lint"] = r.lint;
  if (!r.iverilog.empty()) j["iverilog"] = r.iverilog;
  if (!r.yosys.empty()) j["yosys"] = r.yosys;
  if (r.icarus) {
    if (!r.icarus->skipped.empty()) j["icarus"] = {{"skipped", r.icarus->skipped}};
    else if (r.icarus->run) j["icarus"] = to_json(*r.icarus->run);
    else j["icarus"] = {{"error", r.icarus->error}};
  }
  if (!r.error.empty()) j["error"] = r.error;
  if (!r.verilator) return j;
  const json tb = to_json(*r.verilator);
  for (const auto& [key, value] : tb.items()) j[key] = value;
  j["cycle_exact"] = r.cycle_exact;
  if (r.trace) j["trace"] = to_json(*r.trace);
  j["overflow_flag"] = r.overflow_flag;
  if (!r.overflow_flag_mismatch.empty()) j["overflow_flag_mismatch"] = r.overflow_flag_mismatch;
  return j;
}

}  // namespace inrarch::rtl
