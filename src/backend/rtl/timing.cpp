// analyze_timing (timing.h): the netlist's bits are the nodes, the combinational cells'
// arcs the edges; sequential pins and ports are where paths start and end. One
// topological pass per kind of start (registers, inputs) gives each node its latest
// arrival; a node left over by the topological sort lies on a combinational loop.
#include "backend/rtl/timing.h"

#include <fmt/format.h>

#include <algorithm>
#include <limits>

#include "backend/rtl/timing_cells.h"
#include "support/error.h"

namespace inrarch::rtl {

namespace {

using nlohmann::json;
using timing_detail::Category;
using timing_detail::CellModel;

constexpr double kNone = -std::numeric_limits<double>::infinity();

struct Edge {
  int from, to, cell;
  double ns;
  unsigned dedicated;  // the driver categories whose net into this pin is not general routing
  double net_ns = 0;   // the routing delay charged on the net into the cell
};

// A pin where paths start or end: a register's (or a port's) bit.
struct Point {
  int node;
  double ns;
  bool lower_bound, port;
  std::string label;
};

struct CellInfo {
  std::string name, type;
  Category category;
};

struct Graph {
  std::vector<CellInfo> cells;
  std::vector<Edge> edges;
  std::vector<std::vector<int>> out;  // node -> edges leaving it
  std::vector<Point> starts, ends;
  std::map<int, Category> driver;  // node -> the category of the cell driving it
  int nodes = 0;
};

unsigned bit_of(Category c) { return 1u << static_cast<unsigned>(c); }

// Nets on dedicated wires inside a slice or between neighbours (a carry chain's CO -> CI,
// a LUT or MUXF into a MUXF, the DSP48E2 cascades) cost no routing.
unsigned dedicated_drivers(Category cell, const std::string& pin) {
  if (cell == Category::Carry && (pin == "CI" || pin == "CI_TOP")) return bit_of(Category::Carry);
  if (cell == Category::Muxf && (pin == "I0" || pin == "I1")) return bit_of(Category::Lut) | bit_of(Category::Muxf);
  if (cell == Category::Dsp && (pin == "PCIN" || pin == "ACIN" || pin == "BCIN" || pin == "CARRYCASCIN" || pin == "MULTSIGNIN"))
    return bit_of(Category::Dsp);
  return 0;
}

const json& top_module(const json& netlist) {
  if (!netlist.is_object() || !netlist.contains("modules") || !netlist["modules"].is_object())
    throw Error("timing: the netlist has no \"modules\" object (not Yosys's write_json output)");
  const json* only = nullptr;
  int candidates = 0;
  for (const auto& [name, m] : netlist["modules"].items()) {
    const json& attr = m.value("attributes", json::object());
    if (attr.contains("top")) return m;
    if (attr.contains("blackbox") || attr.contains("whitebox")) continue;
    only = &m;
    ++candidates;
  }
  if (candidates != 1) throw Error(fmt::format("timing: the netlist has {} candidate modules and none marked top", candidates));
  return *only;
}

std::string top_name(const json& netlist, const json& m) {
  for (const auto& [name, mod] : netlist["modules"].items())
    if (&mod == &m) return name;
  return "?";
}

// The node of a bit; constants ("0", "1", "x", "z") have none.
int node_of(const json& bit, Graph& g) {
  if (!bit.is_number_integer()) return -1;
  const int n = bit.get<int>();
  g.nodes = std::max(g.nodes, n + 1);
  return n;
}

std::string pin_label(const CellInfo& c, const std::string& port, size_t bit, size_t width) {
  return width > 1 ? fmt::format("{} ({}).{}[{}]", c.name, c.type, port, bit) : fmt::format("{} ({}).{}", c.name, c.type, port);
}

void add_ports(const json& m, Graph& g) {
  const json ports = m.value("ports", json::object());
  for (const auto& [name, p] : ports.items()) {
    const json& bits = p["bits"];
    for (size_t i = 0; i < bits.size(); ++i) {
      const int n = node_of(bits[i], g);
      if (n < 0) continue;
      const std::string label = bits.size() > 1 ? fmt::format("port {}[{}]", name, i) : "port " + name;
      if (p["direction"] == "input") g.starts.push_back({n, 0, false, true, label});
      else if (p["direction"] == "output") g.ends.push_back({n, 0, false, true, label});
    }
  }
}

// A cell the table does not model is cut where its pins are, like a port, and named.
void add_cut(const json& cell, const CellInfo& c, bool boundary, Graph& g, std::map<std::string, int>& unknown) {
  if (!boundary) ++unknown[c.type];
  if (!cell.contains("port_directions")) return;
  for (const auto& [port, bits] : cell["connections"].items()) {
    const std::string dir = cell["port_directions"].value(port, "");
    for (size_t i = 0; i < bits.size(); ++i) {
      const int n = node_of(bits[i], g);
      if (n < 0) continue;
      Point p{n, 0, !boundary, boundary, pin_label(c, port, i, bits.size())};
      if (dir == "output") g.starts.push_back(p);
      else if (dir == "input") g.ends.push_back(p);
    }
  }
}

void add_modelled(const json& cell, const CellModel& model, int index, Graph& g) {
  const json& conn = cell["connections"];
  const CellInfo& c = g.cells[index];
  for (const auto& arc : model.arcs) {
    if (!conn.contains(arc.in) || !conn.contains(arc.out)) continue;
    const json &in = conn[arc.in], &out = conn[arc.out];
    for (size_t i = 0; i < in.size(); ++i) {
      if (arc.in_bit >= 0 && static_cast<size_t>(arc.in_bit) != i) continue;
      const int a = node_of(in[i], g);
      for (size_t o = 0; a >= 0 && o < out.size(); ++o) {
        if (arc.out_bit >= 0 && static_cast<size_t>(arc.out_bit) != o) continue;
        const int b = node_of(out[o], g);
        if (b < 0) continue;
        g.edges.push_back({a, b, index, arc.ns, dedicated_drivers(model.category, arc.in)});
        g.driver[b] = model.category;
      }
    }
  }
  auto points = [&](const std::map<std::string, timing_detail::Boundary>& pins, std::vector<Point>& into) {
    for (const auto& [port, bnd] : pins) {
      if (!conn.contains(port)) continue;
      for (size_t i = 0; i < conn[port].size(); ++i) {
        const int n = node_of(conn[port][i], g);
        if (n < 0) continue;
        into.push_back({n, bnd.ns, bnd.lower_bound, false, pin_label(c, port, i, conn[port].size())});
        if (&into == &g.starts) g.driver[n] = model.category;
      }
    }
  };
  points(model.starts, g.starts);
  points(model.ends, g.ends);
}

bool is_boundary_type(const std::string& type) {
  // The kernels of the top's own class, black boxes there (synth_classes.cpp).
  return type.rfind("$paramod", 0) == 0 || type.rfind("inrarch_", 0) == 0 || type.rfind("\\inrarch_", 0) == 0;
}

Graph build(const json& m, TimingResult& r, double route) {
  Graph g;
  add_ports(m, g);
  std::map<std::string, int> unknown;
  std::map<std::string, std::string> notes;
  const json cells = m.value("cells", json::object());
  for (const auto& [name, cell] : cells.items()) {
    const std::string type = cell.value("type", "");
    const CellModel model = timing_detail::cell_model(type, cell);
    g.cells.push_back({name, type, model.category});
    r.dsp_internal_ns = std::max(r.dsp_internal_ns, model.internal_ns);
    if (!model.note.empty()) notes[type] = model.note;
    if (model.category == Category::Clock) continue;
    if (model.category == Category::Unknown) add_cut(cell, g.cells.back(), is_boundary_type(type), g, unknown);
    else add_modelled(cell, model, static_cast<int>(g.cells.size()) - 1, g);
  }
  for (const auto& [type, n] : unknown)
    r.uncosted.push_back(fmt::format("{}: cannot be costed (not in the delay table; {} cell{} cut like ports, "
                                     "paths through them are lower bounds)", type, n, n == 1 ? "" : "s"));
  for (const auto& [type, note] : notes) r.uncosted.push_back(note);
  g.out.assign(g.nodes, {});
  for (size_t e = 0; e < g.edges.size(); ++e) {
    Edge& ed = g.edges[e];
    const auto d = g.driver.find(ed.from);
    ed.net_ns = d != g.driver.end() && (ed.dedicated & bit_of(d->second)) ? 0 : route;
    g.out[ed.from].push_back(static_cast<int>(e));
  }
  r.cells = static_cast<int64_t>(g.cells.size());
  return g;
}

// Names cells on one combinational loop among the nodes the topological sort left.
[[noreturn]] void report_loop(const Graph& g, const std::vector<int>& indeg) {
  std::vector<int> in_edge(g.nodes, -1);
  for (size_t e = 0; e < g.edges.size(); ++e)
    if (indeg[g.edges[e].from] > 0 && indeg[g.edges[e].to] > 0) in_edge[g.edges[e].to] = static_cast<int>(e);
  int n = 0;
  while (n < g.nodes && in_edge[n] < 0) ++n;
  std::vector<int> seen(g.nodes, -1);
  std::vector<int> walk;
  for (int step = 0; n >= 0 && n < g.nodes && seen[n] < 0; ++step) {  // walk back to a repeat
    seen[n] = step;
    walk.push_back(in_edge[n]);
    n = in_edge[n] < 0 ? -1 : g.edges[in_edge[n]].from;
  }
  std::string names;
  const size_t first = n >= 0 && n < g.nodes ? static_cast<size_t>(seen[n]) : 0;
  for (size_t i = walk.size(); i-- > first && walk.size() - i <= 8;)
    names += (names.empty() ? "" : ", ") + g.cells[g.edges[walk[i]].cell].name + " (" + g.cells[g.edges[walk[i]].cell].type + ")";
  throw Error("timing: combinational loop through " + names + ": cannot be costed");
}

std::vector<int> topo_order(const Graph& g) {
  std::vector<int> indeg(g.nodes, 0), order, ready;
  for (const Edge& e : g.edges) ++indeg[e.to];
  for (int n = 0; n < g.nodes; ++n)
    if (indeg[n] == 0) ready.push_back(n);
  while (!ready.empty()) {
    const int n = ready.back();
    ready.pop_back();
    order.push_back(n);
    for (int e : g.out[n])
      if (--indeg[g.edges[e].to] == 0) ready.push_back(g.edges[e].to);
  }
  if (order.size() != static_cast<size_t>(g.nodes)) report_loop(g, indeg);
  return order;
}

struct Arrival {
  std::vector<double> t;
  std::vector<int> pred, origin;
  std::vector<char> lower_bound;
};

Arrival propagate(const Graph& g, const std::vector<int>& order, bool from_ports) {
  Arrival a{std::vector<double>(g.nodes, kNone), std::vector<int>(g.nodes, -1), std::vector<int>(g.nodes, -1),
            std::vector<char>(g.nodes, 0)};
  for (size_t s = 0; s < g.starts.size(); ++s) {
    const Point& p = g.starts[s];
    if (p.port != from_ports || p.ns <= a.t[p.node]) continue;
    a.t[p.node] = p.ns;
    a.origin[p.node] = static_cast<int>(s);
    a.lower_bound[p.node] = p.lower_bound;
    a.pred[p.node] = -1;
  }
  for (int n : order) {
    if (a.t[n] == kNone) continue;
    for (int e : g.out[n]) {
      const Edge& ed = g.edges[e];
      const double t = a.t[n] + ed.net_ns + ed.ns;
      if (t <= a.t[ed.to]) continue;
      a.t[ed.to] = t;
      a.pred[ed.to] = e;
      a.origin[ed.to] = a.origin[n];
      a.lower_bound[ed.to] = a.lower_bound[n];
    }
  }
  return a;
}

void count_cell(PathCells& c, const CellInfo& cell) {
  ++c.by_type[cell.type];
  switch (cell.category) {
    case Category::Lut: ++c.lut; break;
    case Category::Carry: ++c.carry; break;
    case Category::Muxf: ++c.muxf; break;
    case Category::Dsp: ++c.dsp; break;
    case Category::Bram: ++c.bram; break;
    case Category::Srl: ++c.srl; break;
    case Category::Lutram: ++c.lutram; break;
    default: ++c.other; break;
  }
}

// The longest path from the arrivals `a` to the ends that are (or are not) ports.
TimingPath longest(const Graph& g, const Arrival& a, bool to_ports, double route) {
  TimingPath best;
  int best_end = -1;
  for (size_t e = 0; e < g.ends.size(); ++e) {
    const Point& p = g.ends[e];
    if (p.port != to_ports || a.t[p.node] == kNone) continue;
    const double t = a.t[p.node] + route + p.ns;
    if (best_end >= 0 && t <= best.est_ns) continue;
    best.est_ns = t;
    best_end = static_cast<int>(e);
  }
  if (best_end < 0) return best;
  const Point& end = g.ends[best_end];
  best.found = true;
  best.to = end.label;
  best.from = g.starts[a.origin[end.node]].label;
  best.lower_bound = a.lower_bound[end.node] || end.lower_bound;
  std::vector<int> cells;
  best.nets = 1;  // into the end
  for (int n = end.node; a.pred[n] >= 0; n = g.edges[a.pred[n]].from) {
    cells.push_back(g.edges[a.pred[n]].cell);
    best.nets += g.edges[a.pred[n]].net_ns > 0;
  }
  std::reverse(cells.begin(), cells.end());
  for (int c : cells) {
    best.cells.push_back(g.cells[c].type + " " + g.cells[c].name);
    count_cell(best.counts, g.cells[c]);
  }
  return best;
}

}  // namespace

TimingResult analyze_timing(const json& netlist, const TimingOptions& opt) {
  const json& m = top_module(netlist);
  TimingResult r;
  r.module = top_name(netlist, m);
  r.clock_mhz = opt.clock_mhz;
  r.route_ns = opt.route_ns;
  const Graph g = build(m, r, opt.route_ns);
  const std::vector<int> order = topo_order(g);
  const Arrival regs = propagate(g, order, false), ins = propagate(g, order, true);
  r.reg_to_reg = longest(g, regs, false, opt.route_ns);
  r.in_to_reg = longest(g, ins, false, opt.route_ns);
  r.reg_to_out = longest(g, regs, true, opt.route_ns);
  r.in_to_out = longest(g, ins, true, opt.route_ns);
  const std::pair<const char*, const TimingPath*> kinds[] = {
      {"reg_to_reg", &r.reg_to_reg}, {"in_to_reg", &r.in_to_reg}, {"reg_to_out", &r.reg_to_out}, {"in_to_out", &r.in_to_out}};
  r.worst_kind = "none";
  for (const auto& [kind, p] : kinds)
    if (p->found && p->est_ns > r.worst_ns) r.worst_ns = p->est_ns, r.worst_kind = kind;
  if (r.dsp_internal_ns > r.worst_ns) r.worst_ns = r.dsp_internal_ns, r.worst_kind = "dsp_internal";
  r.est_fmax_mhz = r.worst_ns > 0 ? 1000.0 / r.worst_ns : 0;
  r.meets_clock = r.worst_ns <= 1000.0 / opt.clock_mhz;
  return r;
}

json timing_json(const TimingResult& r) {
  auto path = [](const TimingPath& p) {
    json by_type = json::object();
    for (const auto& [t, n] : p.counts.by_type) by_type[t] = n;
    return json{{"found", p.found}, {"est_ns", p.est_ns}, {"from", p.from}, {"to", p.to}, {"nets", p.nets},
                {"lower_bound", p.lower_bound}, {"lut_levels", p.counts.lut}, {"carry", p.counts.carry},
                {"muxf", p.counts.muxf}, {"dsp", p.counts.dsp}, {"bram", p.counts.bram}, {"srl", p.counts.srl},
                {"lutram", p.counts.lutram}, {"by_type", by_type}, {"cells", p.cells}};
  };
  return {{"module", r.module}, {"clock_mhz", r.clock_mhz}, {"route_ns", r.route_ns}, {"meets_clock", r.meets_clock},
          {"worst_ns", r.worst_ns}, {"est_fmax_mhz", r.est_fmax_mhz}, {"worst_kind", r.worst_kind},
          {"dsp_internal_ns", r.dsp_internal_ns}, {"uncosted", r.uncosted}, {"cells", r.cells},
          {"paths", {{"reg_to_reg", path(r.reg_to_reg)}, {"in_to_reg", path(r.in_to_reg)},
                     {"reg_to_out", path(r.reg_to_out)}, {"in_to_out", path(r.in_to_out)}}}};
}

}  // namespace inrarch::rtl
