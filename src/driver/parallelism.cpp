// The dataflow stage with the architecture search (parallelism.h). Two choices are made
// here, both judged by the event graph and the resource model:
//   1. how far to merge the products that share a weight (passes/merge_shared_mm.h): each
//      merge saves a ROM copy and costs the merged kernel throughput, so every group size
//      in 1, 2, 4, ... is searched and the fastest design that fits is kept (within 1% of
//      the fastest, the one with the fewest on-chip bits);
//   2. the parallelism of every mm (dataflow/dse.h) for that graph.
// With DataflowPlan::search_block, between the two: the stream block (elements per beat) of
// the merged graph, the candidates 1, 2, 4, ... each lowered and given its own parallelism
// search under the same budget, the fastest that fits kept (a larger block only when over
// 1% faster). A design whose widths leave the budget's MACs idle at one element a beat runs
// faster at a wider beat; one whose MACs already bind keeps block 1. The merge is chosen at
// block 1.
// The search runs on one lowering (star fan-out, kSearchRows rows) and its result is keyed by
// that design's processes; the designs sized and emitted are other lowerings of the same
// graph, which get the choice through dataflow::carry_parallelism and apply_parallelism.
#include "driver/parallelism.h"

#include <algorithm>
#include <chrono>

#include <fmt/format.h>

#include "dataflow/attributes.h"
#include "dataflow/dse.h"
#include "dataflow/event_graph.h"
#include "dataflow/lower.h"
#include "dataflow/report.h"
#include "driver/rows.h"
#include "passes/merge_shared_mm.h"
#include "passes/rebatch.h"

namespace inrarch::driver {

namespace {

using namespace dataflow;

struct Sized {
  Design design;
  SizingResult sized;
  ResourceReport resources;
  Analysis analysis;
};

Sized lower_and_size(const ir::Graph& g, const LowerOptions& lo_in, const DataflowPlan& plan,
                     const RowPlan& rp, const DesignPass& attrs, std::vector<int64_t> reuse = {}) {
  // Every lowering below gets the attributes (a search's or plan's choice; none: the
  // uniform lowering); lower, apply_parallelism and set_depths verify when the hook is on.
  const LowerOptions lo = row_lowering(g, lo_in, rp, attrs);
  Sized s{lower_at_batch(g, lo, rp), {}, {}, {}};
  if (attrs) attrs(s.design);
  SizingOptions so = plan.sizing;
  so.reuse = std::move(reuse);
  if (!rp.periodic) {
    EventGraph eg(s.design);
    s.sized = size_fifos(eg, so);
    s.analysis = analysis_of(eg, s.sized.final, s.sized.peak_latency);
    s.analysis.rows = Analysis::Rows{rp.rows, true, rp.why_exact};
  } else {
    RowSizing rs = size_fifos_rows(row_builder(g, lo, attrs), *rp.rows, so, plan.rows);
    s.sized = std::move(rs.sized);
    s.analysis = analysis_of(rs.final, rs.peak);
  }
  s.design.set_depths(s.sized.depths);
  s.resources = estimate_resources(s.design, s.sized.depths, plan.arith, capacity(plan.part, plan.budget));
  return s;
}

// A search: the design searched (its processes key the result) and the result.
struct Searched {
  Design design;
  DseResult dse;
};

// How the search lowers a graph of `rows` rows: one MAC a kernel (the search sets them) and a
// star fan-out (it only needs the kernels' cycles; star lowers once).
LowerOptions search_lowering(const DataflowPlan& plan, int64_t rows) {
  LowerOptions lo = plan.lower;
  lo.mm_par = 1;
  lo.fanout = Fanout::Star;
  lo.rows = rows;
  return lo;
}

// g has `rows` rows (0: not independent).
Searched search(const ir::Graph& g, int64_t rows, const DataflowPlan& plan, const Usage& reserve, int front) {
  DseOptions o;
  o.part = plan.part;
  o.budget = plan.budget;
  o.arith = plan.arith;
  o.reserve = reserve;
  o.front_points = front;
  if (front > 0) o.progress = plan.progress;
  Searched s{lower(g, search_lowering(plan, rows)), {}};
  s.dse = search_parallelism(s.design, o);
  return s;
}

// The search's choice on any lowering of the graph searched.
DesignPass carried(const Searched& s) {
  auto from = std::make_shared<const Design>(s.design);
  return [from, par = s.dse.choice](Design& d) { apply_parallelism(d, carry_parallelism(par, *from, d)); };
}

struct Variant {
  int64_t max_group = 1;
  ir::Graph graph;
  Searched searched;
  int64_t data_bits = 0;  // ROM + buffers of the chosen design (FIFOs not sized yet)
};

bool better(const Variant& a, const Variant& b) {  // a strictly preferred to b
  const DseResult &x = a.searched.dse, &y = b.searched.dse;
  if (x.fits != y.fits) return x.fits;
  if (!x.fits) return a.data_bits < b.data_bits;  // nothing fits: the smallest
  double la = double(x.chosen.latency), lb = double(y.chosen.latency);
  if (la < 0.99 * lb) return true;
  if (lb < 0.99 * la) return false;
  return a.data_bits < b.data_bits;
}

// The graph with products sharing a weight merged `max_group` at most; `merged` counts
// the products merged away.
Variant merged_variant(const ir::Graph& g, int64_t max_group, int64_t& merged) {
  passes::PassContext ctx;
  Variant v{max_group, passes::merge_shared_mm(g, ctx, max_group), {}, 0};
  merged = ctx.stats.get("merged-mm");
  return v;
}

// Searches the variant's parallelism and costs its ROM and buffers: the design searched
// with its choice applied.
void score(Variant& v, int64_t rows, const DataflowPlan& plan) {
  v.searched = search(v.graph, rows, plan, {}, 0);
  Design d = v.searched.design;
  apply_parallelism(d, v.searched.dse.choice);
  ResourceReport r = estimate_unsized(d, plan.arith, capacity(plan.part, plan.budget));
  v.data_bits = r.rom_bits + r.buffer_bits;
}

// Group sizes 1, 2, 4, ... until merging more changes nothing.
Variant choose_merge(const ir::Graph& g, int64_t rows, const DataflowPlan& plan) {
  int64_t merged = 0, last = 0;
  Variant best = merged_variant(g, 1, merged);
  auto say = [&](const Variant& v) {
    if (plan.progress)
      plan.progress(fmt::format("dse: products sharing a weight merged {} at most: {} mm merged away, "
                                "latency {}, {} DSP, {:.1f} Mbit ROM+buffers{}",
                                v.max_group, merged, v.searched.dse.chosen.latency, v.searched.dse.chosen.use.dsp,
                                v.data_bits / 1e6, v.searched.dse.fits ? "" : " (over budget)"));
  };
  score(best, rows, plan);
  say(best);
  for (int64_t m = 2; m <= 64; m *= 2) {
    Variant v = merged_variant(g, m, merged);
    if (merged == last) break;
    last = merged;
    score(v, rows, plan);
    say(v);
    if (better(v, best)) best = std::move(v);
  }
  return best;
}

// The largest block tried (a 2,049-bit beat at 32-bit elements): with it the narrow models
// of the zoo already reach 1.3x their floor (docs/benchmarks.md "Model zoo").
constexpr int64_t kMaxSearchedBlock = 64;

// Whether lowering at `block` gives some stream of d (lowered at any block) more elements
// a beat than lowering at `below`: the candidates stop where the widths allow no wider beat.
bool widens(const Design& d, int64_t block, int64_t below) {
  return std::any_of(d.streams.begin(), d.streams.end(), [&](const Stream& s) {
    return stream_block(s.shape, block, d.options.rows) > stream_block(s.shape, below, d.options.rows);
  });
}

// The latency of s's choice at the batch's `batch` rows, from the search's `rows` rows and
// twice as many: lat(R) + (batch - R) (lat(2R) - lat(R)) / R. At R rows the latency is the
// pipeline's fill and R periods together, and a wider beat or a deeper pipeline can trade one
// for the other, so blocks are compared where the batch runs. The search's latency itself
// when the batch is not larger than R.
int64_t latency_at_batch(const ir::Graph& g, int64_t rows, int64_t batch, const DataflowPlan& plan,
                         const Searched& s) {
  const int64_t at_rows = s.dse.chosen.latency;
  if (batch <= rows || rows <= 0 || at_rows < 0) return at_rows;
  Design d = lower(passes::rebatch(g, 2 * rows), search_lowering(plan, 2 * rows));
  apply_parallelism(d, carry_parallelism(s.dse.choice, s.design, d));
  const int64_t at_twice = peak_latency(d);  // the search's own measure, at 2R rows
  if (at_twice < at_rows) return at_rows;     // a deadlock (-1) included
  return at_rows + (batch - rows) * (at_twice - at_rows) / rows;
}

// A block's search and its latency at the batch.
struct BlockTried {
  Searched searched;
  int64_t latency = -1;  // latency_at_batch
};

// x (at a larger block) strictly preferred to y: it fits where y does not, or is over 1%
// faster at the batch (within 1%, the smaller block and its fewer resources).
bool faster_block(const BlockTried& x, const BlockTried& y) {
  if (x.searched.dse.fits != y.searched.dse.fits) return x.searched.dse.fits;
  if (!x.searched.dse.fits || x.latency < 0) return false;
  return y.latency < 0 || double(x.latency) < 0.99 * double(y.latency);
}

// The block of g's streams (`rows` rows, 0: not independent; the batch has `batch`): the
// candidates searched, each one listed in `tried` (report.json's dse.blocks).
int64_t choose_block(const ir::Graph& g, int64_t rows, int64_t batch, const DataflowPlan& plan,
                     nlohmann::json& tried) {
  DataflowPlan at = plan;
  auto searched_at = [&](int64_t block) {
    at.lower.block = block;
    BlockTried t{search(g, rows, at, {}, 0), -1};
    t.latency = latency_at_batch(g, rows, batch, at, t.searched);
    const DsePoint& c = t.searched.dse.chosen;
    tried.push_back({{"block", block}, {"latency_cycles", c.latency}, {"latency_at_batch", t.latency},
                     {"dsp", c.use.dsp}, {"fits", t.searched.dse.fits}});
    const std::string extrapolated =
        batch > rows && t.latency >= 0 ? fmt::format(" ({} at {} rows)", t.latency, batch) : std::string();
    if (plan.progress)
      plan.progress(fmt::format("dse: block {}: latency {}{}, {} DSP{}", block, c.latency, extrapolated, c.use.dsp,
                                t.searched.dse.fits ? "" : " (over budget)"));
    return t;
  };
  BlockTried best = searched_at(1);
  int64_t block = 1, slower = 0;
  for (int64_t b = 2; b <= kMaxSearchedBlock && widens(best.searched.design, b, b / 2); b *= 2) {
    BlockTried t = searched_at(b);
    if (faster_block(t, best)) {
      best = std::move(t);
      block = b;
      slower = 0;
    } else if (!t.searched.dse.fits || ++slower == 2) {
      // Over the budget, no larger block fits either; two in a row no faster: the lanes
      // of the wider beats already take the DSPs the MACs need.
      break;
    }
  }
  return block;
}

// report.json's sections of the dataflow stage (docs/report.md).
void write_report(DataflowResult& r, const DataflowPlan& plan, const std::optional<Searched>& dse,
                  int64_t max_group, int64_t search_rows, double search_seconds, nlohmann::json blocks) {
  r.report["design"] = design_json(r.design);
  r.report["analysis"] = analysis_json(r.analysis);
  r.report["fifo"] = fifo_json(r.design, r.sized);
  r.report["resources"] = resources_json(r.resources, r.design, plan.part, plan.budget);
  r.report["floor"] = floor_json(r.floor);
  r.report["dse"] = dse ? dse_json(dse->dse, dse->design) : nlohmann::json::object();
  r.report["dse"]["enabled"] = dse.has_value();
  r.report["dse"]["merge_max_group"] = max_group;
  r.report["dse"]["block"] = r.design.options.block;
  if (!blocks.is_null()) r.report["dse"]["blocks"] = std::move(blocks);
  r.report["dse"]["rows"] = search_rows;
  if (plan.plan) r.report["dse"]["plan"] = plan.plan_source;
  if (dse) r.report["dse"]["seconds"] = search_seconds;
}

}  // namespace

DataflowResult build_dataflow(const ir::Graph& g, const DataflowPlan& plan_in) {
  DataflowPlan plan = plan_in;  // lower.block: given, the plan's, or searched below
  std::optional<Searched> dse;
  DesignPass attrs;  // the choice put on every lowering; none: lo's uniform mm_par
  const RowPlan rp = plan_rows(g, plan.rows, plan.exact ? "--exact" : "");
  // The search's graph: the batch, or kSearchRows of it on a large batch of rows.
  ir::Graph searched = rp.periodic ? passes::rebatch(g, rp.search_rows) : g;
  ir::Graph graph = g;
  int64_t max_group = 1, merged = 0;
  const auto t0 = std::chrono::steady_clock::now();
  const bool search_on = plan.dse && !plan.plan;
  const int64_t merge = plan.plan ? plan.plan->merge_max_group : plan.merge;
  nlohmann::json blocks;  // the blocks searched
  if (plan.plan) plan.lower.block = plan.plan->block;
  if (merge > 1 || (search_on && merge == 0)) {
    Variant v = merge > 0 ? merged_variant(searched, merge, merged) : choose_merge(searched, rp.search_rows, plan);
    max_group = v.max_group;
    searched = std::move(v.graph);
    graph = rp.periodic ? merged_variant(g, max_group, merged).graph : searched;
  }
  // On the merged graph: a graph whose ROMs fit only merged (INSP order 3 in reverse mode)
  // has no block that fits unmerged.
  if (search_on && plan.search_block)
    plan.lower.block = choose_block(searched, rp.search_rows, rp.periodic ? rp.rows.value_or(0) : 0, plan, blocks);
  if (plan.plan) {
    attrs = [p = *plan.plan, source = plan.plan_source.empty() ? std::string("plan") : plan.plan_source](Design& d) {
      apply_parallelism(d, resolve_plan(p, d, source));
    };
  } else if (search_on) {
    dse = search(searched, rp.search_rows, plan, {}, 10);  // again, with the latency-vs-DSP front
    attrs = carried(*dse);
  }
  double search_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  Sized s = lower_and_size(graph, plan.lower, plan, rp, attrs);
  // The sized FIFOs were not in the search's budget: hold them back and search again.
  for (int retry = 0; retry < 3 && dse && dse->dse.fits && !s.resources.fits; ++retry) {
    if (plan.progress)
      plan.progress(fmt::format("dse: sized FIFOs put the design over the {} budget; searching again",
                                s.resources.over));
    Usage reserve = s.resources.fifos;
    reserve.dsp = 0;
    dse = search(searched, rp.search_rows, plan, reserve, 10);
    search_seconds += dse->dse.seconds;
    attrs = carried(*dse);
    // Same streams, slower kernels: the sized depths usually still hold (one resolve).
    s = lower_and_size(graph, plan.lower, plan, rp, attrs, s.sized.depths);
  }
  Floor fl = floor_of(s.design, plan.part, plan.arith, s.sized.latency);
  DataflowResult r{std::move(graph),      std::move(s.design),    std::move(s.sized), std::move(s.analysis),
                   fl, std::move(s.resources), {}, rp.rows.value_or(0), {}};
  r.plan = plan_of(r.design, max_group);
  write_report(r, plan, dse, max_group, rp.search_rows, search_seconds, std::move(blocks));
  return r;
}

}  // namespace inrarch::driver
