// The C simulations' verdicts: read from the simulation driver's result line (an edge: a
// program's output) and written as report.json's verification section (the other edge).
#include "backend/hls/verdict.h"

#include <nlohmann/json.hpp>

#include <limits>

namespace inrarch::hls {

namespace {

using json = nlohmann::json;

// A number of the driver's line; NaN is written as null, and is no figure.
std::optional<double> number(const json& j, const char* key) {
  const auto it = j.find(key);
  return it != j.end() && it->is_number() ? std::optional(it->get<double>()) : std::nullopt;
}

bool flag(const json& j, const char* key) {
  const auto it = j.find(key);
  return it != j.end() && it->is_boolean() && it->get<bool>();
}

std::string text(const json& j, const char* key) {
  const auto it = j.find(key);
  return it != j.end() && it->is_string() ? it->get<std::string>() : std::string();
}

OverflowReport overflow_from_driver(const json& line) {
  OverflowReport o;
  if (const auto n = line.find("overflows"); n != line.end() && n->is_number_integer()) o.count = n->get<int64_t>();
  if (const auto f = line.find("overflow_flag"); f != line.end() && f->is_boolean()) o.flag = f->get<bool>();
  if (const auto f = line.find("overflow_flags"); f != line.end() && f->is_array())
    for (const json& port : *f)
      if (port.is_string()) o.flagged.push_back(port.get<std::string>());
  o.first = text(line, "first_overflow");
  if (const auto r = line.find("first_overflow_reached");
      r != line.end() && r->is_array() && r->size() == 2 && (*r)[0].is_number() && (*r)[1].is_number())
    o.first_reached = std::pair((*r)[0].get<double>(), (*r)[1].get<double>());
  return o;
}

json number_or_null(const std::optional<double>& v) { return v ? json(*v) : json(nullptr); }

// The overflow keys of a run that saw one: overflows, first_overflow, its reach and cause.
void write_overflow(const OverflowReport& o, json& out) {
  if (o.flag) out["overflow_flag"] = *o.flag;
  if (o.flag.value_or(false)) out["overflow_flags"] = o.flagged;
  if (!o.any()) return;
  out["overflows"] = o.count;
  out["first_overflow"] = o.first_process();
  if (o.first_reached) out["first_overflow_reached"] = {o.first_reached->first, o.first_reached->second};
  if (!o.cause.empty()) out["overflow_cause"] = o.cause;
}

void write_errors(const SimRun& r, json& out) {
  if (!r.completed) return;
  out["max_abs_error"] = number_or_null(r.max_abs_error);
  out["max_rel_error"] = number_or_null(r.max_rel_error);
  out["max_scaled_error"] = number_or_null(r.max_scaled_error);
  out["max_column_rel_error"] = number_or_null(r.max_column_rel_error);
  json cols = json::array();
  for (const ColumnError& c : r.worst_columns)
    cols.push_back({{"output", c.output}, {"column", c.column}, {"max_abs_error", c.max_abs_error},
                    {"rel_error", c.rel_error}});
  out["worst_columns"] = cols;
  json outputs = json::array();
  for (const OutputError& o : r.outputs)
    outputs.push_back({{"output", o.output}, {"max_abs_error", o.max_abs_error}, {"max_rel_error", o.max_rel_error},
                       {"max_scaled_error", o.max_scaled_error}});
  out["outputs"] = outputs;
}

json csim_json(const SimRun& r, const std::string& type) {
  json j = {{"pass", r.pass()}, {"type", type}};
  write_errors(r, j);
  write_overflow(r.overflow, j);
  if (!r.error.empty()) j["error"] = r.error;
  if (r.status == SimRun::Status::OutOfTime) j["out_of_time"] = true;
  return j;
}

json threaded_json(const SimRun& r) {
  json j = {{"pass", r.pass()},
            {"deadlock", r.status == SimRun::Status::Deadlock},
            {"out_of_time", r.status == SimRun::Status::OutOfTime}};
  if (r.status == SimRun::Status::Deadlock) {
    json waits = json::array();
    for (const auto& [process, on] : r.waits) waits.push_back({{"process", process}, {"waits", on}});
    j["waits"] = waits;
  }
  write_overflow(r.overflow, j);
  if (!r.error.empty()) j["error"] = r.error;
  return j;
}

}  // namespace

SimRun sim_run_from_driver(const json& line) {
  SimRun r;
  r.completed = flag(line, "completed");
  r.max_abs_error = number(line, "max_abs_error");
  r.max_rel_error = number(line, "max_rel_error");
  r.max_scaled_error = number(line, "max_scaled_error");
  r.max_column_rel_error = number(line, "max_column_rel_error");
  if (const auto w = line.find("worst_columns"); w != line.end() && w->is_array())
    for (const json& c : *w)
      r.worst_columns.push_back({text(c, "output"), c.value("column", int64_t{-1}),
                                 number(c, "max_abs_error").value_or(0), number(c, "rel_error").value_or(0)});
  if (const auto o = line.find("outputs"); o != line.end() && o->is_array())
    for (const json& e : *o) {
      const double nan = std::numeric_limits<double>::quiet_NaN();
      r.outputs.push_back({text(e, "output"), number(e, "max_abs_error").value_or(nan),
                           number(e, "max_rel_error").value_or(nan), number(e, "max_scaled_error").value_or(nan)});
    }
  r.overflow = overflow_from_driver(line);
  if (const auto w = line.find("waits"); w != line.end() && w->is_array())
    for (const json& e : *w) r.waits.emplace_back(text(e, "process"), text(e, "waits"));
  if (flag(line, "deadlock")) r.status = SimRun::Status::Deadlock;
  else if (flag(line, "out_of_time")) r.status = SimRun::Status::OutOfTime;
  r.error = text(line, "error");
  return r;
}

json to_json(const TraceCheck& t) {
  json j = {{"pass", t.pass}, {"processes_checked", t.processes_checked}};
  if (!t.mismatch_process.empty()) j["mismatch"] = {{"process", t.mismatch_process}, {"detail", t.mismatch_detail}};
  return j;
}

json to_json(const ProjectRun& p) {
  if (!p.skipped.empty()) return {{"skipped", p.skipped}};
  const SimRun& r = p.run;
  json j = {{"pass", r.pass()}, {"command", p.command}};
  if (r.completed) {
    j["max_abs_error"] = number_or_null(r.max_abs_error);
    j["max_rel_error"] = number_or_null(r.max_rel_error);
    j["max_scaled_error"] = number_or_null(r.max_scaled_error);
  }
  if (r.overflow.count > 0) j["overflows"] = r.overflow.count;
  if (r.overflow.flag) j["overflow_flag"] = *r.overflow.flag;
  if (r.overflow.flag.value_or(false)) j["overflow_flags"] = r.overflow.flagged;
  if (!r.error.empty()) j["error"] = r.error;
  return j;
}

json to_json(const SimVerdicts& v) {
  json j = json::object();
  if (v.csim) j["csim"] = csim_json(*v.csim, v.type);
  if (v.threaded) j["threaded"] = threaded_json(*v.threaded);
  if (v.trace) j["trace"] = to_json(*v.trace);
  if (v.project) j["project"] = to_json(*v.project);
  return j;
}

}  // namespace inrarch::hls
