// The report's time data: process activity and FIFO occupancy from the event graph's
// resolved times (dataflow/activity.h), and the data file the compile writes
// (driver/report_data.h), checked against the event graph and report.json.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <numeric>
#include <set>

#include "autodiff/models.h"
#include "dataflow/activity.h"
#include "dataflow/event_graph.h"
#include "dataflow/fifo_sizing.h"
#include "dataflow/lower.h"
#include "driver/flow.h"
#include "driver/report_data.h"
#include "passes/pipeline.h"
#include "support/files.h"

namespace inrarch {
namespace {

using namespace dataflow;
using nlohmann::json;

ir::Graph small_insp(int64_t batch) {
  autodiff::SirenSpec spec;
  spec.dims = {2, 16, 16, 16, 16, 3};
  spec.batch = batch;
  return passes::run_pipeline(autodiff::build_insp_graph(spec, 1)).graph;
}

// The paper's Fig. 5 graph: x feeds mm (whose B operand it is, buffered whole) and cos.
ir::Graph fig5() {
  ir::Graph g("fig5");
  ir::NodeId x = g.input("x", {25, 1});  // at depth 2 more than 22 elements deadlock
  ir::NodeId m = g.mm(g.param("w", {25, 25}), x);
  g.add_output("y", g.binary(ir::Op::Mul, m, g.unary(ir::Op::Cos, x)));
  return g;
}

int64_t sum(const std::vector<uint32_t>& v) { return std::accumulate(v.begin(), v.end(), int64_t{0}); }

TEST(ReportActivity, AgreesWithTheEventGraph) {
  const Design d = lower(small_insp(8));
  EventGraph eg(d);
  const std::vector<int64_t> depths = size_fifos(eg, SizingOptions{}).depths;  // small: stalls
  const Resolution r = eg.resolve(depths);
  ASSERT_FALSE(r.deadlock);
  const Activity a = process_activity(eg, depths, 37);
  EXPECT_EQ(a.end, r.latency + 1);
  EXPECT_LE(a.bins, 37);
  int64_t stalls = 0;
  for (size_t p = 0; p < d.processes.size(); ++p) {
    const ProcessActivity& pa = a.processes[p];
    EXPECT_EQ(pa.busy, sum(pa.busy_bins));
    EXPECT_EQ(pa.stall_read, sum(pa.read_bins));
    EXPECT_EQ(pa.stall_write, sum(pa.write_bins));
    EXPECT_LE(pa.busy + pa.stall_read + pa.stall_write, a.end) << d.processes[p].name;
    for (int64_t b = 0; b < a.bins; ++b)
      EXPECT_LE(pa.busy_bins[b] + pa.read_bins[b] + pa.write_bins[b], a.bin_length(b));
    // Sources and sinks move one beat a step, one step a cycle of work; a source only
    // writes, so it can only stall on a write, and a sink only on a read.
    const Process& pr = d.processes[p];
    if (pr.kind == Kind::Source) {
      EXPECT_EQ(pa.busy, d.streams[pr.outputs[0]].beats()) << pr.name;
      EXPECT_EQ(pa.stall_read, 0) << pr.name;
    }
    if (pr.kind == Kind::Sink) {
      EXPECT_EQ(pa.busy, d.streams[pr.inputs[0]].beats()) << pr.name;
      EXPECT_EQ(pa.stall_write, 0) << pr.name;
      EXPECT_GT(pa.stall_read, 0) << pr.name;  // it waits for the pipeline to fill
    }
    stalls += pa.stall_read + pa.stall_write;
  }
  EXPECT_GT(stalls, 0);
  for (size_t s = 0; s < d.streams.size(); ++s) {
    const std::vector<int64_t> occ = occupancy_bins(eg, static_cast<StreamId>(s), a);
    EXPECT_EQ(*std::max_element(occ.begin(), occ.end()), eg.observed_depth(static_cast<StreamId>(s)))
        << d.streams[s].name;
  }
}

TEST(ReportActivity, DeadlockedProcessesStallToTheEnd) {
  const Design d = lower(fig5());
  EventGraph eg(d);
  const std::vector<int64_t> depths(d.streams.size(), 2);
  const Resolution r = eg.resolve(depths);
  ASSERT_TRUE(r.deadlock);
  const Activity a = process_activity(eg, depths, 200);
  for (const BlockedOp& b : r.cycle) {
    const ProcessActivity& pa = a.processes[b.process];
    EXPECT_GT(b.write ? pa.write_bins.back() : pa.read_bins.back(), 0u) << d.processes[b.process].name;
  }
}

// compile's activity.json: the same run as report.json's analysis, on the prefix of rows
// when the batch is analysed on one.
void expect_data_matches(int64_t batch, bool prefix) {
  const auto out = std::filesystem::temp_directory_path() / ("inrarch_report_data_" + std::to_string(batch));
  std::filesystem::remove_all(out);
  driver::CompileOptions o;
  autodiff::SirenSpec spec;
  spec.dims = {2, 16, 16, 16, 16, 3};
  spec.batch = batch;
  o.builtin_insp = spec;
  o.out_dir = out;
  o.emit_mlir = o.emit_hls = o.csim = false;
  o.block = 1;  // one element a beat: the row analysis finds the period within 64 rows
  driver::compile(o);
  const json report = json::parse(read_file(out / "report.json"));
  const json data = json::parse(read_file(out / driver::kActivityFile));
  const json& an = report["analysis"];
  EXPECT_EQ(data["prefix"].get<bool>(), prefix);
  EXPECT_EQ(data["processes"].size(), report["design"]["processes"].get<size_t>());
  EXPECT_EQ(data["streams"].size(), report["design"]["streams"].get<size_t>());
  const json& act = data["activity"];
  EXPECT_LE(act["bins"].get<int64_t>(), 200);
  EXPECT_GE(act["bins"].get<int64_t>() * act["bin_cycles"].get<int64_t>(), act["end"].get<int64_t>());
  if (prefix) {
    const int64_t k = an["rows_analysed"];
    EXPECT_EQ(data["rows_shown"].get<int64_t>(), k);
    EXPECT_LT(k, batch);
    EXPECT_EQ(data["latency_cycles"].get<int64_t>(),
              an["fill_cycles"].get<int64_t>() + (k - 1) * an["period_cycles"].get<int64_t>());
  } else {
    EXPECT_EQ(data["latency_cycles"], an["latency_cycles"]);
  }
  for (const json& s : data["streams"])
    EXPECT_EQ(s["depth"], report["fifo"]["depths"][s["name"].get<std::string>()]);
  // The sizing's history ends at the result report.json states, and every FIFO deeper than
  // 2 names one of its phases.
  const json& history = report["fifo"]["history"];
  ASSERT_TRUE(history.is_array() && !history.empty());
  EXPECT_EQ(history.back()["bits"], report["fifo"]["total_bits"]);
  EXPECT_EQ(history.back()["bram18k"], report["fifo"]["bram18k"]);
  EXPECT_EQ(history.back()["latency_cycles"], an["latency_cycles"]);
  EXPECT_EQ(history.back()["rows"].get<int64_t>(), batch);
  std::set<std::string> phases;
  for (const json& st : history) phases.insert(st["phase"].get<std::string>());
  int64_t deep = 0;
  for (const json& s : data["streams"]) {
    if (s["depth"].get<int64_t>() <= 2) continue;
    ++deep;
    ASSERT_TRUE(s.contains("set_by")) << s["name"];
    EXPECT_TRUE(phases.count(s["set_by"].get<std::string>())) << s["set_by"];
  }
  EXPECT_EQ(history.back()["deep_fifos"].get<int64_t>(), deep);
  std::filesystem::remove_all(out);
}

TEST(ReportActivity, DataFileOfAWholeBatch) { expect_data_matches(8, false); }
// 256 rows: the multiplies in the fabric (35 steps deep) keep the state from repeating
// within 64 rows; the analysis finds it within 128.
TEST(ReportActivity, DataFileOfAPrefixOfRows) { expect_data_matches(256, true); }

}  // namespace
}  // namespace inrarch
