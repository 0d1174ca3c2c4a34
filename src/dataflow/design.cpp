#include "dataflow/design.h"

#include <map>

#include "dataflow/verify.h"
#include "support/error.h"

namespace inrarch::dataflow {

namespace {

enum class Family : uint8_t { Port, Fanout, Kernel, Gather, Explicit };
struct KindInfo {
  const char* name;
  Family family;
};
constexpr KindInfo kKinds[] = {
#define KIND(Name, report_name, family) {#report_name, Family::family},
#include "dataflow/kernels.def"
};

}  // namespace

const char* kind_name(Kind k) { return kKinds[static_cast<int>(k)].name; }
bool is_gather(Kind k) { return kKinds[static_cast<int>(k)].family == Family::Gather; }
bool is_kernel(Kind k) { return kKinds[static_cast<int>(k)].family == Family::Kernel || is_gather(k); }

int64_t Stream::beats() const { return numel(shape) / block; }

ProcessId Design::add_process(Process p) {
  processes.push_back(std::move(p));
  return static_cast<ProcessId>(processes.size() - 1);
}

StreamId Design::add_stream(Stream s) {
  INRARCH_ASSERT(s.producer >= 0 && s.producer < (ProcessId)processes.size(), "stream producer");
  INRARCH_ASSERT(s.consumer >= 0 && s.consumer < (ProcessId)processes.size(), "stream consumer");
  INRARCH_ASSERT(s.producer != s.consumer, "stream " + s.name + " is a self loop");
  INRARCH_ASSERT(s.block >= 1 && numel(s.shape) % s.block == 0, "stream block " + s.name);
  auto id = static_cast<StreamId>(streams.size());
  processes[s.producer].outputs.push_back(id);
  processes[s.consumer].inputs.push_back(id);
  streams.push_back(std::move(s));
  return id;
}

ProcessId Design::find_process(const std::string& name) const {
  for (size_t i = 0; i < processes.size(); ++i)
    if (processes[i].name == name) return static_cast<ProcessId>(i);
  return -1;
}

StreamId Design::find_stream(const std::string& name) const {
  for (size_t i = 0; i < streams.size(); ++i)
    if (streams[i].name == name) return static_cast<StreamId>(i);
  return -1;
}

std::vector<int64_t> Design::depths() const {
  std::vector<int64_t> d;
  d.reserve(streams.size());
  for (const auto& s : streams) d.push_back(s.depth);
  return d;
}

void Design::set_depths(const std::vector<int64_t>& depths) {
  INRARCH_ASSERT(depths.size() == streams.size(), "depth vector size");
  for (size_t i = 0; i < streams.size(); ++i) streams[i].depth = depths[i];
  verify_step(*this, "set_depths");
}

int64_t operand_bits(const Design& d, const Operand& od) {
  return od.bits_at(d.options.elem_bits);
}

bool is_pass_through(const Design& d, const Process& p) {
  return p.kind == Kind::IdentityMap && !p.inputs.empty() &&
         d.streams[p.inputs.at(0)].block == d.streams[p.outputs.at(0)].block;
}

std::vector<std::pair<std::string, int>> kernels_by_kind(const Design& d) {
  // Arithmetic and data-movement kernels are listed by op ("mm", "sin", "select"), the
  // plumbing by kind ("source", "copy"): that is what a reader of the report looks for.
  std::map<std::string, int> counts;
  for (const auto& p : d.processes) {
    bool by_op = p.kind != Kind::Source && p.kind != Kind::Sink && p.kind != Kind::Copy &&
                 p.kind != Kind::Custom;
    if (p.kind == Kind::MmReduce) by_op = false;  // an mm by its op, a kernel of its own
    counts[by_op ? std::string(ir::op_name(p.op)) : kind_name(p.kind)]++;
  }
  return {counts.begin(), counts.end()};
}

}  // namespace inrarch::dataflow
