// The report's data file (report_data.h): one unbounded resolve for the observed depths,
// paper's greedy on small graphs, and the resolve at the design's depths whose times give
// the activity and the occupancy.
#include "driver/report_data.h"

#include <algorithm>
#include <cmath>
#include <memory>
#include <numeric>
#include <optional>
#include <set>

#include "dataflow/activity.h"
#include "dataflow/event_graph.h"
#include "dataflow/fifo_sizing.h"
#include "dataflow/report.h"
#include "driver/rows.h"
#include "support/error.h"
#include "support/files.h"

namespace inrarch::driver {

namespace {

using nlohmann::json;
using namespace dataflow;

// Names of the parameters a kernel holds (its ROMs and splats), for the graph's tooltips.
std::vector<std::string> held_params(const ir::Graph& g, const Process& p) {
  std::set<std::string> names;
  std::vector<ir::NodeId> todo;
  for (const Operand& o : p.operands)
    if (o.static_node != ir::kNoNode) todo.push_back(o.static_node);
  std::set<ir::NodeId> seen;
  while (!todo.empty()) {
    const ir::NodeId n = todo.back();
    todo.pop_back();
    if (size_t(n) >= g.size() || !seen.insert(n).second) continue;
    const ir::Node& node = g.node(n);
    if (node.op == ir::Op::Param) names.insert(node.attrs.name);
    for (ir::NodeId x : node.operands) todo.push_back(x);
  }
  return {names.begin(), names.end()};
}

json depth_or_null(int64_t d) { return d == kUnbounded ? json(nullptr) : json(d); }

json processes_json(const ir::Graph& g, const Design& d) {
  json out = json::array();
  for (const Process& p : d.processes) {
    json j = {{"name", p.name}, {"kind", kind_name(p.kind)}};
    if (p.kind != Kind::Source && p.kind != Kind::Sink && p.kind != Kind::Copy && p.kind != Kind::Custom)
      j["op"] = std::string(ir::op_name(p.op));
    if (has_macs(p.kind)) {
      j["mm_par"] = p.mm_par;      // asked
      j["mm_lanes"] = p.mm_lanes;  // working (the graph shows these)
    }
    if (p.ew_fold > 1) j["ew_fold"] = p.ew_fold;  // cycles a beat of a folded elementwise kernel
    if (std::vector<std::string> w = held_params(g, p); !w.empty()) j["params"] = w;
    out.push_back(std::move(j));
  }
  return out;
}

// `set_by`: per stream, the sizing phase ("" or none: not known, e.g. depths given).
json streams_json(const Design& d, const std::vector<int64_t>& unbounded,
                  const std::optional<std::vector<int64_t>>& paper, const std::vector<std::string>& set_by) {
  json out = json::array();
  for (size_t s = 0; s < d.streams.size(); ++s) {
    const Stream& st = d.streams[s];
    json j = {{"name", st.name},         {"from", st.producer},       {"to", st.consumer},
              {"depth", depth_or_null(st.depth)}, {"unbounded", unbounded[s]}, {"bits", st.width_bits()}};
    if (paper) j["paper"] = (*paper)[s];
    if (s < set_by.size() && !set_by[s].empty()) j["set_by"] = set_by[s];
    out.push_back(std::move(j));
  }
  return out;
}

// Per process: cycle totals and the share of each bin (percent) in each state.
json activity_json(const Activity& a) {
  auto percent = [&a](const std::vector<uint32_t>& bins) {
    json out = json::array();
    for (int64_t b = 0; b < a.bins; ++b)
      out.push_back(std::lround(100.0 * bins[b] / double(a.bin_length(b))));
    return out;
  };
  json procs = json::array();
  for (const ProcessActivity& p : a.processes)
    procs.push_back({{"busy", p.busy}, {"stall_read", p.stall_read}, {"stall_write", p.stall_write},
                     {"busy_bins", percent(p.busy_bins)}, {"read_bins", percent(p.read_bins)},
                     {"write_bins", percent(p.write_bins)}});
  return {{"end", a.end}, {"bin_cycles", a.bin_cycles}, {"bins", a.bins}, {"processes", procs}};
}

// The streams on the deadlock cycle, then the deepest (by depth, then unbounded observed).
std::vector<StreamId> occupancy_choice(const Design& d, const Resolution& r, const std::vector<int64_t>& unbounded,
                                       size_t count) {
  std::vector<StreamId> order(d.streams.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](StreamId a, StreamId b) {
    if (d.streams[a].depth != d.streams[b].depth) return d.streams[a].depth > d.streams[b].depth;
    return unbounded[a] > unbounded[b];
  });
  std::vector<StreamId> out;
  auto add = [&out](StreamId s) {
    if (std::find(out.begin(), out.end(), s) == out.end()) out.push_back(s);
  };
  for (const BlockedOp& b : r.cycle) add(b.stream);
  for (size_t i = 0; i < order.size() && out.size() < std::max(count, r.cycle.size()); ++i) add(order[i]);
  return out;
}

json occupancy_json(const EventGraph& eg, const Activity& a, const std::vector<StreamId>& streams) {
  json out = json::array();
  for (StreamId s : streams) out.push_back({{"stream", s}, {"max", occupancy_bins(eg, s, a)}});
  return out;
}

// The event graph whose times the report shows: the design itself, or at the prefix's rows.
std::unique_ptr<EventGraph> resolved_graph(const ir::Graph& g, const Design& d, const ReportInputs& in) {
  if (!in.rows_analysed) return std::make_unique<EventGraph>(d);
  return std::make_unique<EventGraph>(row_builder(g, d.options, attributes_of(d))(*in.rows_analysed));
}

std::optional<int64_t> optional_int(const json& j) {
  return j.is_number_integer() ? std::optional<int64_t>(j.get<int64_t>()) : std::nullopt;
}

}  // namespace

ReportInputs report_inputs(const Design& d, const Analysis& a, const SizingResult& s) {
  if (!a.rows) throw Error("report data: the analysis does not say how the batch was analysed");
  ReportInputs in{a.rows->rows, std::nullopt, s.alpha, {}};
  if (!a.rows->exact) {
    if (!a.prefix) throw Error("report data: a prefix analysis without its rows analysed");
    in.rows_analysed = a.prefix->rows_analysed;
  }
  for (size_t i = 0; i < d.streams.size() && i < s.set_by.size(); ++i)
    in.set_by.push_back(size_t(s.set_by[i]) < s.history.size() ? s.history[s.set_by[i]].phase : "");
  return in;
}

ReportInputs report_inputs(const Design& d, const json& sections) {
  const json& analysis = sections.at("analysis");
  ReportInputs in;
  in.rows = optional_int(analysis.value("rows", json(nullptr)));
  if (!analysis.value("exact", true)) in.rows_analysed = analysis.at("rows_analysed").get<int64_t>();
  const json fifo = sections.value("fifo", json::object());
  in.alpha = fifo.value("alpha", in.alpha);
  const json set_by = fifo.value("set_by", json::object());
  for (const Stream& st : d.streams)
    in.set_by.push_back(set_by.is_object() && set_by.contains(st.name) ? set_by[st.name].get<std::string>() : "");
  return in;
}

json report_data(const ir::Graph& g, const Design& d, const ReportInputs& in, const ReportDataOptions& opt) {
  std::unique_ptr<EventGraph> eg = resolved_graph(g, d, in);
  const std::vector<int64_t> depths = d.depths();
  eg->resolve(std::vector<int64_t>(d.streams.size(), kUnbounded));
  const std::vector<int64_t> unbounded = eg->observed_depths();
  std::optional<std::vector<int64_t>> paper;
  if (eg->fifo_ops() <= opt.paper_fifo_ops) {
    SizingOptions so;
    so.method = FifoMethod::Paper;
    so.alpha = in.alpha;
    paper = size_fifos(*eg, so).depths;
  }
  const Resolution r = eg->resolve(depths);
  const Activity a = process_activity(*eg, depths, opt.bins);
  auto or_null = [](const std::optional<int64_t>& v) { return v ? json(*v) : json(nullptr); };
  json out = {{"rows", or_null(in.rows)},
              {"rows_shown", or_null(in.rows_analysed ? in.rows_analysed : in.rows)},
              {"prefix", in.rows_analysed.has_value()},
              {"latency_cycles", r.deadlock ? json(nullptr) : json(r.latency)},
              {"deadlock", deadlock_json(d, r)},
              {"processes", processes_json(g, d)},
              {"streams", streams_json(d, unbounded, paper, in.set_by)},
              {"activity", activity_json(a)},
              {"occupancy", occupancy_json(*eg, a, occupancy_choice(d, r, unbounded, opt.occupancy_streams))}};
  return out;
}

void write_report_data(const std::filesystem::path& out_dir, const ir::Graph& g, const Design& d,
                       const ReportInputs& in) {
  write_file(out_dir / kActivityFile, report_data(g, d, in).dump() + "\n");
}

}  // namespace inrarch::driver
