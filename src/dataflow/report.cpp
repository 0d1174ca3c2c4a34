#include "dataflow/report.h"

#include "dataflow/memory.h"

namespace inrarch::dataflow {

using nlohmann::json;

json design_json(const Design& d) {
  json kernels = json::object();
  for (const auto& [kind, n] : kernels_by_kind(d)) kernels[kind] = n;
  int64_t buf = 0, rom = 0;
  for (const auto& p : d.processes) buf += p.buffer_bits, rom += p.rom_bits;
  return {{"processes", d.processes.size()}, {"streams", d.streams.size()},
          {"kernels", kernels},              {"block", d.options.block},
          {"mm_par", d.options.mm_par},      {"elem_bits", d.options.elem_bits},
          {"kernel_buffer_bits", buf},       {"rom_bits", rom}};
}

json analysis_json(const EventGraph& eg, const Resolution& r, int64_t peak_latency) {
  return {{"deadlock_free", !r.deadlock},
          {"peak_latency_cycles", peak_latency},
          {"latency_cycles", r.deadlock ? json(nullptr) : json(r.latency)},
          {"events", eg.events()},
          {"fifo_ops", eg.fifo_ops()}};
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

json fifo_json(const Design& d, const SizingResult& s) {
  json depths = json::object();
  for (size_t i = 0; i < d.streams.size() && i < s.depths.size(); ++i)
    depths[d.streams[i].name] = s.depths[i];
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
          {"seconds", s.seconds},
          {"depths", depths}};
}

}  // namespace inrarch::dataflow
