// Design attributes and the passes that set them (attributes.h).
#include "dataflow/attributes.h"

#include <algorithm>
#include <numeric>
#include <vector>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "dataflow/elementwise.h"
#include "dataflow/verify.h"
#include "support/error.h"
#include "support/limits.h"

namespace inrarch::dataflow {

int64_t mm_beat_work(const Design& d, const Process& p) {
  INRARCH_ASSERT(has_macs(p.kind), "mm_beat_work of " + p.name + ", not an mm");
  if (p.kind == Kind::MmReduce) {  // the K*N products of one row pair (reduce_rows.h)
    const ir::Shape& a = p.operands.at(0).shape;
    const ir::Shape& b = p.operands.at(1).shape;
    return std::max<int64_t>(1, a.at(1) * b.at(1));
  }
  const StreamId out = p.outputs.empty() ? -1 : p.outputs.front();
  const int64_t bc = out >= 0 && out < (StreamId)d.streams.size() ? d.streams[out].block : 1;
  return std::max<int64_t>(1, bc * mm_inner(p));
}

int64_t mm_inner(const Process& p) {
  const ir::Shape& a = p.operands.empty() ? ir::Shape{} : p.operands.front().shape;
  return a.size() == 2 ? std::max<int64_t>(1, a[1]) : 1;
}

int64_t select_tree_stages(int64_t inputs) {
  int64_t stages = 1;
  for (int64_t groups = (inputs + 17) / 18; groups > 1; groups = (groups + 35) / 36) ++stages;
  return stages;
}

namespace {

// The prefix tree's levels over `lanes` lanes: ceil(log2 lanes).
int64_t tree_levels(int64_t lanes) {
  int64_t levels = 0;
  while ((int64_t(1) << levels) < lanes) ++levels;
  return levels;
}

}  // namespace

bool mm_lanes_aligned(int64_t lanes, int64_t inner) {
  return lanes >= 1 && inner >= 1 && (lanes % inner == 0 || inner % lanes == 0);
}

int64_t mm_pipeline_depth(int64_t lanes, int64_t inner, int64_t a_bits, int64_t b_bits) {
  const int64_t md = mul_dsp_depth(a_bits, b_bits);
  if (mm_lanes_aligned(lanes, inner)) {
    const int64_t group = std::min(lanes, inner);
    return 4 + md + tree_levels(group) + select_tree_stages(lanes / group);
  }
  return 5 + md + tree_levels(lanes) + 2 * select_tree_stages(lanes);
}

std::pair<int64_t, int64_t> mm_operand_bits(const Design& d, const Process& p) {
  return {operand_bits(d, p.operands.at(0)), operand_bits(d, p.operands.at(1))};
}

int64_t mm_tree_registers(int64_t lanes, int64_t inner) {
  const int64_t levels = tree_levels(lanes);
  const int64_t g = std::gcd(lanes, inner);
  std::vector<char> need(static_cast<size_t>(lanes));  // after the level being walked back
  for (int64_t u = 0; u < lanes; ++u) need[u] = u % g == g - 1;
  int64_t registers = 0;
  for (int64_t k = levels - 1; k >= 0; --k) {
    std::vector<char> before(need.size(), 0);
    for (int64_t u = 0; u < lanes; ++u) {
      if (!need[u]) continue;
      ++registers;  // level k's register of lane u
      before[u] = 1;
      if ((u >> k) % 2 == 1) before[((u >> k) << k) - 1] = 1;
    }
    need.swap(before);
  }
  return registers;
}

void set_mm_par(Design& d, ProcessId pid, int64_t requested) {
  if (pid < 0 || pid >= (ProcessId)d.processes.size())
    throw Error(fmt::format("set_mm_par: no process {} (the design has {})", pid, d.processes.size()));
  Process& p = d.processes[pid];
  if (!has_macs(p.kind))
    throw Error(fmt::format("set_mm_par: process {} is a {}, not an mm", p.name, kind_name(p.kind)));
  limits::check_range(requested, 1, limits::kMaxParallel, fmt::format("mm_par {} of {}", requested, p.name),
                      "set_mm_par");
  p.mm_par = requested;
  p.mm_lanes = std::min(requested, mm_beat_work(d, p));
  // The mm engine is pipelined; mm_reduce writes once, after its last row, and has none.
  const auto [a_bits, b_bits] = mm_operand_bits(d, p);
  p.mm_depth = p.kind == Kind::Mm ? mm_pipeline_depth(p.mm_lanes, mm_inner(p), a_bits, b_bits) : 0;
}

namespace {

// Throws, prefixed by `who`, unless `fold` is a power of two dividing p's output block.
void check_fold(const Design& d, const Process& p, int64_t fold, const std::string& who) {
  const int64_t block = d.streams.at(p.outputs.at(0)).block;
  if (!fold_fits(block, fold))
    throw Error(fmt::format("{}: {} cycles a beat for {}: not a power of two that divides its block {}", who, fold,
                            p.name, block));
}

}  // namespace

void set_ew_fold(Design& d, ProcessId pid, int64_t fold) {
  if (pid < 0 || pid >= (ProcessId)d.processes.size())
    throw Error(fmt::format("set_ew_fold: no process {} (the design has {})", pid, d.processes.size()));
  Process& p = d.processes[pid];
  if (!is_elementwise(p.kind))
    throw Error(fmt::format("set_ew_fold: process {} is a {}, not an elementwise kernel", p.name, kind_name(p.kind)));
  check_fold(d, p, fold, "set_ew_fold");
  p.ew_fold = fold;
}

void apply_parallelism(Design& d, const Parallelism& par) {
  std::vector<bool> seen(d.processes.size(), false);
  auto once = [&](ProcessId pid) {  // an id out of range is the setter's error
    if (pid < 0 || pid >= (ProcessId)seen.size()) return;
    if (seen[pid]) throw Error(fmt::format("apply_parallelism: process {} is listed twice", d.processes[pid].name));
    seen[pid] = true;
  };
  for (const auto& [pid, macs] : par.mm_par) {
    once(pid);
    set_mm_par(d, pid, macs);
  }
  for (const auto& [pid, fold] : par.ew_fold) {
    once(pid);
    set_ew_fold(d, pid, fold);
  }
  d.options.fabric_elementwise_mul = par.fabric_elementwise_mul;
  verify_step(d, "apply_parallelism");
}

Parallelism parallelism_of(const Design& d) {
  Parallelism p;
  for (size_t i = 0; i < d.processes.size(); ++i)
    if (has_macs(d.processes[i].kind)) p.mm_par.emplace_back(ProcessId(i), d.processes[i].mm_par);
    else if (d.processes[i].ew_fold > 1) p.ew_fold.emplace_back(ProcessId(i), d.processes[i].ew_fold);
  p.fabric_elementwise_mul = d.options.fabric_elementwise_mul;
  return p;
}

namespace {

std::vector<ProcessId> mm_processes(const Design& d) {
  std::vector<ProcessId> v;
  for (size_t i = 0; i < d.processes.size(); ++i)
    if (has_macs(d.processes[i].kind)) v.push_back(ProcessId(i));
  return v;
}

std::vector<std::string> mm_names(const Design& d) {
  std::vector<std::string> v;
  for (ProcessId p : mm_processes(d)) v.push_back(d.processes[p].name);
  return v;
}

}  // namespace

Parallelism carry_parallelism(const Parallelism& par, const Design& from, const Design& to) {
  const std::vector<ProcessId> a = mm_processes(from), b = mm_processes(to);
  if (a.size() != b.size())
    throw Error(fmt::format("carry_parallelism: the designs are not lowerings of one graph: {} mm kernels, then {}",
                            a.size(), b.size()));
  std::vector<int32_t> index(from.processes.size(), -1);  // from's process -> its rank among the mm
  for (size_t k = 0; k < a.size(); ++k) {
    const Process &x = from.processes[a[k]], &y = to.processes[b[k]];
    if (x.op != y.op || x.name != y.name)
      throw Error(fmt::format("carry_parallelism: mm kernel {} is {} in one design and {} in the other", k, x.name,
                              y.name));
    index[a[k]] = int32_t(k);
  }
  Parallelism out;
  out.fabric_elementwise_mul = par.fabric_elementwise_mul;
  for (const auto& [pid, macs] : par.mm_par) {
    if (pid < 0 || pid >= (ProcessId)index.size() || index[pid] < 0)
      throw Error(fmt::format("carry_parallelism: process {} is not an mm of the design the choice was made on", pid));
    out.mm_par.emplace_back(b[index[pid]], macs);
  }
  // Elementwise kernels keep their names across lowerings of one graph (lower.h).
  for (const auto& [pid, fold] : par.ew_fold) {
    const ProcessId q = pid >= 0 && pid < (ProcessId)from.processes.size() ? to.find_process(from.processes[pid].name) : -1;
    if (q < 0 || !is_elementwise(to.processes[q].kind))
      throw Error(fmt::format("carry_parallelism: process {} is not an elementwise kernel of both designs", pid));
    out.ew_fold.emplace_back(q, fold);
  }
  return out;
}

Parallelism parallelism_by_name(const Design& d, const std::map<std::string, int64_t>& by_name,
                                const std::string& what, const std::map<std::string, int64_t>& fold_by_name) {
  Parallelism out;
  for (const auto& [name, fold] : fold_by_name) {
    const ProcessId p = d.find_process(name);
    if (p < 0 || !is_elementwise(d.processes[p].kind))
      throw Error(fmt::format("{}: '{}' is not an elementwise kernel of the design", what, name));
    check_fold(d, d.processes[p], fold, what);
    out.ew_fold.emplace_back(p, fold);
  }
  std::sort(out.ew_fold.begin(), out.ew_fold.end());
  out.fabric_elementwise_mul = d.options.fabric_elementwise_mul;
  for (const auto& [name, macs] : by_name) {
    const ProcessId p = d.find_process(name);
    if (p < 0 || !has_macs(d.processes[p].kind))
      throw Error(fmt::format("{}: '{}' is not an mm kernel of the design (its mm kernels: {})", what, name,
                              fmt::join(mm_names(d), ", ")));
    limits::check_range(macs, 1, limits::kMaxParallel, fmt::format("mm_par {} of {}", macs, name), what);
    out.mm_par.emplace_back(p, macs);
  }
  std::sort(out.mm_par.begin(), out.mm_par.end());
  return out;
}

std::map<std::string, int64_t> parallelism_names(const Design& d, const Parallelism& p) {
  std::map<std::string, int64_t> out;
  for (const auto& [pid, macs] : p.mm_par) out[d.processes.at(pid).name] = macs;
  return out;
}

std::map<std::string, int64_t> fold_names(const Design& d, const Parallelism& p) {
  std::map<std::string, int64_t> out;
  for (const auto& [pid, fold] : p.ew_fold) out[d.processes.at(pid).name] = fold;
  return out;
}

}  // namespace inrarch::dataflow
