// CompileResult to and from report.json's sections. The key names are docs/report.md's.
#include "driver/compile_result.h"

namespace inrarch::driver {

namespace {

using json = nlohmann::json;
using Status = SimResult::Status;

SimResult summary(const hls::SimRun& r) {
  SimResult s;
  switch (r.status) {
    case hls::SimRun::Status::Pass: s.status = Status::Pass; break;
    case hls::SimRun::Status::Fail: s.status = Status::Fail; break;
    case hls::SimRun::Status::Deadlock: s.status = Status::Deadlock; break;
    case hls::SimRun::Status::OutOfTime: s.status = Status::OutOfTime; break;
  }
  s.max_abs_error = r.max_abs_error;
  s.max_rel_error = r.max_rel_error;
  s.overflows = r.overflow.count;
  if (r.overflow.any()) s.first_overflow = r.overflow.first_process();
  s.overflow_cause = r.overflow.cause;
  if (r.overflow.flag.value_or(false)) s.overflow_flags = r.overflow.flagged;
  return s;
}

SimResult summary(const hls::ProjectRun& p) {
  if (p.skipped.empty()) return summary(p.run);
  SimResult s;
  s.status = Status::Skipped;
  return s;
}

}  // namespace

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

Verification verification_of(const hls::SimVerdicts& v) {
  Verification r;
  if (v.csim) r.csim = summary(*v.csim);
  if (v.threaded) r.threaded = summary(*v.threaded);
  if (v.trace) r.trace.status = v.trace->pass ? Status::Pass : Status::Fail;
  if (v.project) r.project = summary(*v.project);
  if (v.csim && !v.csim->worst_columns.empty()) {
    const hls::ColumnError& w = v.csim->worst_columns.front();
    r.worst_column = WorstColumn{w.output, w.column, w.rel_error, w.max_abs_error};
  }
  r.sims = v;
  return r;
}

SimResult sim_result_of(const rtl::RtlRun& r) {
  SimResult s;
  s.status = r.pass ? Status::Pass : Status::Fail;
  if (r.verilator)
    for (const auto& [port, set] : r.verilator->overflow_flags)
      if (set) s.overflow_flags.push_back(port);
  return s;
}

void add_rtl_run(Verification& v, const rtl::RtlRun& r) {
  v.rtl = sim_result_of(r);
  v.rtl_run = r;
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
  if (verification && (verification->sims || verification->rtl_run || verification->kernel_run)) {
    json v = verification->sims ? hls::to_json(*verification->sims) : json::object();
    if (verification->rtl_run) v["rtl"] = rtl::to_json(*verification->rtl_run);
    if (verification->kernel_run) v["kernel"] = rtl::to_json(*verification->kernel_run);
    j["verification"] = v;
  }
  return j;
}

}  // namespace inrarch::driver
