#include "dataflow/report.h"

#include "dataflow/memory.h"

namespace inrarch::dataflow {

using nlohmann::json;

json design_json(const Design& d) {
  json kernels = json::object();
  for (const auto& [kind, n] : kernels_by_kind(d)) kernels[kind] = n;
  int64_t buf = 0, rom = 0;
  json par = json::object(), lanes = json::object(), folds = json::object();
  for (const auto& p : d.processes) {
    buf += p.buffer_bits, rom += p.rom_bits;
    if (p.ew_fold > 1) folds[p.name] = p.ew_fold;
    if (!has_macs(p.kind)) continue;
    par[p.name] = p.mm_par;
    lanes[p.name] = p.mm_lanes;
  }
  return {{"processes", d.processes.size()}, {"streams", d.streams.size()},
          {"fabric_elementwise_mul", d.options.fabric_elementwise_mul},
          {"kernels", kernels},              {"block", d.options.block},
          {"mm_par", d.options.mm_par},      {"elem_bits", d.options.elem_bits},
          {"weight_bits", d.options.weight_bits > 0 ? d.options.weight_bits : d.options.elem_bits},
          {"kernel_buffer_bits", buf},       {"rom_bits", rom},
          {"mm_par_by_kernel", par},         {"mm_lanes_by_kernel", lanes},
          {"ew_fold_by_kernel", folds}};
}

Analysis analysis_of(const EventGraph& eg, const Resolution& r, int64_t peak_latency) {
  Analysis a;
  a.deadlock_free = !r.deadlock;
  if (!r.deadlock) a.latency_cycles = r.latency;
  a.peak_latency_cycles = peak_latency;
  a.events = eg.events();
  a.fifo_ops = eg.fifo_ops();
  return a;
}

Analysis analysis_of(const RowAnalysis& final, const RowAnalysis& peak) {
  Analysis a;
  a.deadlock_free = !final.deadlock;
  if (!final.deadlock) a.latency_cycles = final.latency;
  a.peak_latency_cycles = peak.latency;
  a.events = final.events;
  a.fifo_ops = final.fifo_ops;
  a.rows = Analysis::Rows{final.rows, final.exact, final.note};
  a.prefix = Analysis::Prefix{final.rows_analysed, {}, {}, {}};
  if (!final.exact && !final.deadlock) {
    a.prefix->period_cycles = final.period;
    a.prefix->period_rows = final.period_rows;
    a.prefix->fill_cycles = final.fill;
  }
  return a;
}

json analysis_json(const Analysis& a) {
  auto or_null = [](const std::optional<int64_t>& v) { return v ? json(*v) : json(nullptr); };
  json j = {{"deadlock_free", a.deadlock_free},
            {"peak_latency_cycles", a.peak_latency_cycles},
            {"latency_cycles", or_null(a.latency_cycles)},
            {"events", a.events},
            {"fifo_ops", a.fifo_ops}};
  if (a.rows) {
    j["rows"] = or_null(a.rows->rows);
    j["exact"] = a.rows->exact;
    j["why_exact"] = a.rows->why_exact;
  }
  if (a.prefix) {
    j["rows_analysed"] = a.prefix->rows_analysed;
    j["period_cycles"] = or_null(a.prefix->period_cycles);
    j["period_rows"] = or_null(a.prefix->period_rows);
    j["fill_cycles"] = or_null(a.prefix->fill_cycles);
  }
  return j;
}

json analysis_json(const EventGraph& eg, const Resolution& r, int64_t peak_latency) {
  return analysis_json(analysis_of(eg, r, peak_latency));
}

json rows_analysis_json(const RowAnalysis& final, const RowAnalysis& peak) {
  return analysis_json(analysis_of(final, peak));
}

json deadlock_json(const Design& d, const Resolution& r) {
  json cycle = json::array(), deepen = json::array();
  for (const auto& b : r.cycle)
    cycle.push_back({{"process", d.processes[b.process].name}, {"step", b.step},
                     {"op", b.write ? "write" : "read"}, {"stream", d.streams[b.stream].name},
                     {"beat", b.beat}, {"reads_done", b.reads_done}, {"depth", b.depth}});
  for (const auto& dp : r.deepen)
    deepen.push_back({{"stream", d.streams[dp.stream].name}, {"min_depth", dp.min_depth}});
  return {{"deadlock", r.deadlock},
          {"latency_cycles", r.deadlock ? json(nullptr) : json(r.latency)},
          {"cycle", cycle},
          {"deepen", deepen}};
}

json sizing_history_json(const SizingResult& s) {
  json out = json::array();
  for (const SizingStep& st : s.history)
    out.push_back({{"phase", st.phase},
                   {"why", st.why},
                   {"bits", st.bits},
                   {"bram18k", st.bram18k},
                   {"deep_fifos", st.deep_fifos},
                   {"latency_cycles", st.latency ? json(*st.latency) : json(nullptr)},
                   {"rows", st.rows > 0 ? json(st.rows) : json(nullptr)},
                   {"resolves", st.resolves},
                   {"seconds", st.seconds}});
  return out;
}

json fifo_json(const Design& d, const SizingResult& s) {
  json depths = json::object(), set_by = json::object();
  for (size_t i = 0; i < d.streams.size() && i < s.depths.size(); ++i)
    depths[d.streams[i].name] = s.depths[i];
  for (size_t i = 0; i < d.streams.size() && i < s.set_by.size(); ++i)
    if (size_t(s.set_by[i]) < s.history.size()) set_by[d.streams[i].name] = s.history[s.set_by[i]].phase;
  return {{"method", method_name(s.method)},
          {"alpha", s.alpha},
          {"total_depth", s.memory.total_depth},
          {"total_bits", s.memory.fifo_bits},
          {"bram18k", s.memory.bram18k},
          {"kernel_buffer_bits", s.memory.kernel_buffer_bits},
          {"rom_bits", s.memory.rom_bits},
          {"peak_latency_cycles", s.peak_latency},
          {"latency_cycles", s.deadlock ? json(nullptr) : json(s.latency)},
          {"deadlock", s.deadlock},
          {"resolves", s.resolves},
          {"reused", s.reused},
          {"seconds", s.seconds},
          {"depths", depths},
          {"history", sizing_history_json(s)},
          {"set_by", set_by}};
}

json usage_json(const Usage& u) {
  return {{"dsp", u.dsp}, {"bram18k", u.bram18k}, {"uram", u.uram}, {"lut", u.lut}, {"ff", u.ff}};
}

Utilisation utilisation(const Usage& t, const Part& part) {
  auto frac = [](int64_t used, int64_t total) { return total > 0 ? double(used) / double(total) : 0.0; };
  return {frac(t.dsp, part.dsp), frac(t.bram18k, part.bram18k), frac(t.uram, part.uram), frac(t.lut, part.lut),
          frac(t.ff, part.ff)};
}

json resources_json(const ResourceReport& r, const Design& d, const Part& part, const Budget& b) {
  const Utilisation u = utilisation(r.total, part);
  json by_kind = json::object();
  for (const auto& [kind, u] : r.by_kind) by_kind[kind] = usage_json(u);
  // Each process and each stream's FIFO by its name, the name its RTL instance carries
  // (u_<name>): `inrarch synth` sets each synthesized class beside the model's sum of them.
  json by_name = json::object();
  for (size_t p = 0; p < r.per_process.size() && p < d.processes.size(); ++p)
    by_name[d.processes[p].name] = usage_json(r.per_process[p]);
  for (size_t s = 0; s < r.per_stream.size() && s < d.streams.size(); ++s)
    by_name[d.streams[s].name] = usage_json(r.per_stream[s]);
  int64_t in_uram = 0;
  for (const MemArray& m : r.arrays) in_uram += m.uram;
  return {{"part", {{"name", part.name}, {"device", part.device}, {"dsp", part.dsp},
                    {"bram18k", part.bram18k}, {"uram", part.uram}, {"lut", part.lut},
                    {"ff", part.ff}, {"clock_mhz", part.clock_mhz}}},
          {"budget", {{"dsp", b.dsp}, {"bram", b.bram}, {"uram", b.uram}, {"lut", b.lut}, {"ff", b.ff}}},
          {"total", usage_json(r.total)},
          {"utilisation", {{"dsp", u.dsp}, {"bram18k", u.bram18k}, {"uram", u.uram}, {"lut", u.lut}, {"ff", u.ff}}},
          {"by_kind", by_kind},
          {"by_name", by_name},
          {"fits", r.fits},
          {"over", r.over.empty() ? json(nullptr) : json(r.over)},
          {"on_chip_bits", {{"rom", r.rom_bits}, {"buffers", r.buffer_bits}, {"fifo", r.fifo_bits},
                            {"total", r.rom_bits + r.buffer_bits + r.fifo_bits}}},
          {"arrays_in_uram", in_uram}};
}

Floor floor_of(const Design& d, const Part& part, const Arith& arith, int64_t latency) {
  Floor f;
  f.multiplies = count_multiplies(d);
  f.cycles = floor_cycles(d, part, arith);
  f.dsp_work = count_dsp_work(d, arith);
  f.dsp_per_multiply = dsp_per_multiply(arith);
  f.multiplies_per_cycle = part.dsp / std::max<int64_t>(1, f.dsp_per_multiply);
  f.latency_over_floor = f.cycles > 0 ? double(latency) / double(f.cycles) : 0.0;
  return f;
}

json floor_json(const Floor& f) {
  return {{"multiplies", f.multiplies},
          {"dsp_per_multiply", f.dsp_per_multiply},
          {"multiplies_per_cycle", f.multiplies_per_cycle},
          {"dsp_work", f.dsp_work},
          {"cycles", f.cycles},
          {"latency_over_floor", f.latency_over_floor}};
}

json dse_json(const DseResult& r, const Design& searched) {
  json aligned = json::array();
  for (ProcessId p : r.aligned_lanes) aligned.push_back(searched.processes.at(p).name);
  json front = json::array();
  for (const DsePoint& p : r.front) {
    json j = usage_json(p.use);
    j["target_cycles"] = p.target_cycles;
    j["latency_cycles"] = p.latency;
    j["fits"] = p.fits;
    front.push_back(j);
  }
  return {{"seconds", r.seconds},
          {"targets_checked", r.targets_checked},
          {"evaluations", r.evaluations},
          {"slowest_other_cycles", r.slowest_other},
          {"target_cycles", r.chosen.target_cycles},
          {"aligned_lanes", aligned},
          {"fits", r.fits},
          {"over", r.over.empty() ? json(nullptr) : json(r.over)},
          {"fabric_elementwise_mul", r.choice.fabric_elementwise_mul},
          {"mm_par", parallelism_names(searched, r.choice)},
          {"ew_fold", fold_names(searched, r.choice)},
          {"front", front}};
}

}  // namespace inrarch::dataflow
