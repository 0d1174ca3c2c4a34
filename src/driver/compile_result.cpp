// CompileResult to and from report.json's sections. The key names are docs/report.md's.
#include "driver/compile_result.h"

namespace inrarch::driver {

namespace {

using json = nlohmann::json;

std::optional<double> number_at(const json& j, const char* key) {
  auto it = j.find(key);
  if (it == j.end() || !it->is_number()) return std::nullopt;  // absent, or NaN written as null
  return it->get<double>();
}

SimResult sim_from_json(const json& v, const char* mode) {
  auto it = v.find(mode);
  return it == v.end() ? SimResult{} : sim_result_from_json(*it);
}

}  // namespace

SimResult sim_result_from_json(const json& m) {
  SimResult r;
  using S = SimResult::Status;
  if (m.contains("skipped")) r.status = S::Skipped;
  else if (m.value("pass", false)) r.status = S::Pass;
  else if (m.value("deadlock", false)) r.status = S::Deadlock;
  else if (m.value("out_of_time", false)) r.status = S::OutOfTime;
  else r.status = S::Fail;
  r.max_abs_error = number_at(m, "max_abs_error");
  r.max_rel_error = number_at(m, "max_rel_error");
  r.overflows = m.value("overflows", int64_t{0});
  r.first_overflow = m.value("first_overflow", std::string());
  r.overflow_cause = m.value("overflow_cause", std::string());
  // The C simulations list the flagged ports; the RTL run maps every port to its flag.
  if (auto f = m.find("overflow_flags"); f != m.end() && f->is_array())
    for (const json& port : *f)
      if (port.is_string()) r.overflow_flags.push_back(port.get<std::string>());
  if (auto f = m.find("overflow_flags"); f != m.end() && f->is_object())
    for (const auto& [port, set] : f->items())
      if (set == true) r.overflow_flags.push_back(port);
  return r;
}

std::string SimResult::text() const {
  switch (status) {
    case Status::NotRun: return "not run";
    case Status::Skipped: return "skipped";
    case Status::Pass: return "PASS";
    case Status::Fail: return "FAIL";
    case Status::Deadlock: return "FAIL (deadlock)";
    case Status::OutOfTime: return "FAIL (out of time)";
  }
  return "FAIL";
}

Verification verification_from_json(const json& v) {
  Verification r{sim_from_json(v, "csim"),    sim_from_json(v, "threaded"), sim_from_json(v, "trace"),
                 sim_from_json(v, "project"), sim_from_json(v, "rtl"),      std::nullopt};
  if (v.contains("csim")) {
    const json& w = v["csim"].value("worst_columns", json::array());
    if (w.is_array() && !w.empty())
      r.worst_column = WorstColumn{w[0].value("output", std::string("?")), w[0].value("column", int64_t{-1}),
                                   number_at(w[0], "rel_error"), number_at(w[0], "max_abs_error")};
  }
  return r;
}

json CompileResult::to_json() const {
  json j = sections;
  j["graph"]["name"] = graph.name;
  j["graph"]["outputs"] = graph.outputs;
  j["graph"]["op_nodes_imported"] = graph.op_nodes_imported;
  j["graph"]["op_nodes_optimized"] = graph.op_nodes_optimized;
  j["design"]["processes"] = design.processes;
  j["design"]["streams"] = design.streams;
  j["design"]["block"] = design.block;
  j["analysis"]["deadlock_free"] = design.deadlock_free;
  j["fifo"]["method"] = fifo.method;
  j["fifo"]["latency_cycles"] = fifo.latency_cycles ? json(*fifo.latency_cycles) : json(nullptr);
  j["fifo"]["peak_latency_cycles"] = fifo.peak_latency_cycles;
  j["fifo"]["total_depth"] = fifo.total_depth;
  j["fifo"]["total_bits"] = fifo.total_bits;
  j["fifo"]["bram18k"] = fifo.bram18k;
  j["floor"]["cycles"] = performance.floor_cycles;
  j["floor"]["latency_over_floor"] = performance.latency_over_floor;
  json& res = j["resources"];
  res["part"]["name"] = performance.part;
  res["utilisation"] = {{"dsp", performance.dsp}, {"bram18k", performance.bram18k},
                        {"uram", performance.uram}, {"lut", performance.lut}, {"ff", performance.ff}};
  res["fits"] = performance.fits;
  res["over"] = performance.over.empty() ? json(nullptr) : json(performance.over);
  if (!number_type.empty()) j["hls"]["type"] = number_type;
  return j;
}

}  // namespace inrarch::driver
