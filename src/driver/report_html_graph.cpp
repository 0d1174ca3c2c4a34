// The report's dataflow graph: the design as Graphviz's dot draws it, inlined as SVG.
//
// Copies are folded into one node per value fanned out (design_view), so a chain of copies
// reads as the fan-out it is. Kernels are clustered by derivative: by the set of outputs
// they feed, which separates the forward pass (feeding every output) from each gradient's
// backward chain; sources and sinks stay outside. Edges carry their FIFO depth; deeper
// than a register pair is highlighted, and so is a deadlock cycle.
#include <unistd.h>

#include <atomic>
#include <cstdlib>
#include <map>
#include <set>
#include <sstream>

#include <fmt/format.h>

#include "driver/report_html_detail.h"
#include "support/error.h"
#include "support/files.h"
#include "support/process.h"

namespace inrarch::driver::html {

namespace {

namespace fs = std::filesystem;

const char* kind_colour(const std::string& kind) {
  static const std::map<std::string, const char*> colours = {
      {"source", "#9ecae1"}, {"sink", "#a1d99b"},      {"copy", "#d9d9d9"},   {"unary", "#fdd0a2"},
      {"binary", "#fdae6b"}, {"mm", "#fc9272"},        {"transpose", "#bcbddc"}, {"permute", "#bcbddc"},
      {"gather", "#c6dbef"}, {"custom", "#ffffb3"}};
  auto it = colours.find(kind);
  return it == colours.end() ? "#ffffff" : it->second;
}

constexpr const char* kDeepColour = "#d95f02";
constexpr const char* kCycleColour = "#d62728";

// The root of a copy: the non-copy process whose value it forwards.
int copy_root(const json& procs, const std::vector<int>& feeder, int p) {
  for (size_t guard = 0; guard <= procs.size() && procs[p]["kind"] == "copy" && feeder[p] >= 0; ++guard)
    p = feeder[p];
  return p;
}

// For every process, the sinks it feeds (a bit per sink).
std::vector<std::vector<bool>> sinks_fed(const json& procs, const json& streams, std::vector<std::string>& names) {
  std::vector<int> sink_index(procs.size(), -1);
  for (size_t p = 0; p < procs.size(); ++p)
    if (procs[p]["kind"] == "sink") {
      sink_index[p] = static_cast<int>(names.size());
      std::string n = procs[p]["name"].get<std::string>();
      names.push_back(n.rfind("out_", 0) == 0 ? n.substr(4) : n);
    }
  std::vector<std::vector<bool>> fed(procs.size(), std::vector<bool>(names.size(), false));
  for (size_t p = 0; p < procs.size(); ++p)
    if (sink_index[p] >= 0) fed[p][sink_index[p]] = true;
  for (bool changed = true; changed;) {  // a DAG: settles within its depth in passes
    changed = false;
    for (size_t s = streams.size(); s-- > 0;) {
      const int from = streams[s]["from"], to = streams[s]["to"];
      for (size_t k = 0; k < names.size(); ++k)
        if (fed[to][k] && !fed[from][k]) fed[from][k] = changed = true;
    }
  }
  return fed;
}

std::string cluster_label(const std::vector<bool>& key, const std::vector<std::string>& names) {
  std::vector<std::string> fed;
  for (size_t k = 0; k < key.size(); ++k)
    if (key[k]) fed.push_back(names[k]);
  if (fed.size() == names.size()) return "feeds every output";
  if (fed.size() <= 4) return "feeds " + fmt::format("{}", fmt::join(fed, ", "));
  return fmt::format("feeds {} outputs: {} … {}", fed.size(), fed.front(), fed.back());
}

// Clusters kernels by the outputs they feed, when that separates anything.
void cluster_by_derivative(DesignView& v, const json& data) {
  std::vector<std::string> names;
  const auto fed = sinks_fed(data["processes"], data["streams"], names);
  std::map<std::vector<bool>, std::vector<int>> by_key;
  for (size_t n = 0; n < v.nodes.size(); ++n)
    if (v.nodes[n].kind != "source" && v.nodes[n].kind != "sink")
      by_key[fed[v.nodes[n].processes.front()]].push_back(static_cast<int>(n));
  if (by_key.size() < 2) return;
  for (const auto& [key, nodes] : by_key) {
    if (nodes.size() < 2) continue;
    for (int n : nodes) v.nodes[n].cluster = static_cast<int>(v.clusters.size());
    v.clusters.push_back(cluster_label(key, names));
  }
}

}  // namespace

DesignView design_view(const json& data) {
  const json& procs = data.at("processes");
  const json& streams = data.at("streams");
  std::vector<int> feeder(procs.size(), -1);
  for (const json& s : streams)
    if (procs[s["to"].get<int>()]["kind"] == "copy") feeder[s["to"].get<int>()] = s["from"].get<int>();
  DesignView v;
  v.node_of_process.assign(procs.size(), -1);
  std::map<int, int> group_of_root;
  for (size_t p = 0; p < procs.size(); ++p) {
    const std::string kind = procs[p]["kind"];
    if (kind != "copy") {
      v.node_of_process[p] = static_cast<int>(v.nodes.size());
      v.nodes.push_back({"p" + std::to_string(p), procs[p]["name"], kind, {int(p)}, -1});
      continue;
    }
    const int root = copy_root(procs, feeder, static_cast<int>(p));
    auto [it, fresh] = group_of_root.emplace(root, static_cast<int>(v.nodes.size()));
    if (fresh) v.nodes.push_back({"g" + std::to_string(root), "", "copy", {}, -1});
    v.nodes[it->second].processes.push_back(static_cast<int>(p));
    v.node_of_process[p] = it->second;
  }
  for (auto& n : v.nodes)  // a lone copy keeps its name; a chain is named by its length
    if (n.id[0] == 'g')
      n.label = n.processes.size() == 1 ? procs[n.processes[0]]["name"].get<std::string>()
                                        : fmt::format("copy ×{}", n.processes.size());
  v.copy_groups = static_cast<int>(group_of_root.size());
  cluster_by_derivative(v, data);
  return v;
}

namespace {

std::string dot_quote(std::string_view s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') out += '\\';
    out += c == '\n' ? ' ' : c;
  }
  return out + "\"";
}

std::string depth_text(const json& depth) { return depth.is_null() ? "∞" : std::to_string(depth.get<int64_t>()); }
bool deepened(const json& depth) { return depth.is_null() || depth.get<int64_t>() > 2; }

struct CycleMarks {
  std::set<std::string> processes, streams;
};

CycleMarks cycle_marks(const json& data) {
  CycleMarks m;
  for (const json& c : get(get(data, "deadlock"), "cycle")) {
    m.processes.insert(c["process"].get<std::string>());
    m.streams.insert(c["stream"].get<std::string>());
  }
  return m;
}

std::string node_tooltip(const json& procs, const DesignView::Node& n) {
  std::string t;
  for (int p : n.processes) {
    const json& pr = procs[p];
    t += pr["name"].get<std::string>() + " (" + pr["kind"].get<std::string>();
    if (pr.contains("op")) t += " " + pr["op"].get<std::string>();
    if (pr.contains("mm_lanes")) t += ", " + std::to_string(pr["mm_lanes"].get<int64_t>()) + " MACs";
    else if (pr.contains("mm_par")) t += ", " + std::to_string(pr["mm_par"].get<int64_t>()) + " MACs";  // older runs
    if (pr.contains("ew_fold")) t += ", folded: a beat in " + std::to_string(pr["ew_fold"].get<int64_t>()) + " cycles";
    t += ")";
    if (pr.contains("params")) t += " holds " + fmt::format("{}", fmt::join(pr["params"].get<std::vector<std::string>>(), " "));
    t += "; ";
  }
  return t;
}

std::string dot_node(const json& procs, const DesignView::Node& n, bool on_cycle,
                     bool deep_inside) {
  std::string attrs = fmt::format("label={}, fillcolor=\"{}\", tooltip={}", dot_quote(n.label),
                                  kind_colour(n.kind), dot_quote(node_tooltip(procs, n)));
  if (on_cycle) attrs += fmt::format(", color=\"{}\", penwidth=3", kCycleColour);
  else if (deep_inside) attrs += fmt::format(", color=\"{}\", penwidth=2", kDeepColour);
  return fmt::format("  {} [{}];\n", n.id, attrs);
}

// Dot's input: clusters with their nodes, then every stream between two different nodes.
std::string dot_text(const json& data, const DesignView& v) {
  const json& procs = data["processes"];
  const json& streams = data["streams"];
  const CycleMarks marks = cycle_marks(data);
  std::vector<bool> on_cycle(v.nodes.size(), false), deep_inside(v.nodes.size(), false);
  for (size_t p = 0; p < procs.size(); ++p)
    if (marks.processes.count(procs[p]["name"])) on_cycle[v.node_of_process[p]] = true;
  std::ostringstream edges;
  for (const json& s : streams) {
    const int a = v.node_of_process[s["from"].get<int>()], b = v.node_of_process[s["to"].get<int>()];
    const bool cyc = marks.streams.count(s["name"]) > 0;
    if (a == b) {  // a link inside a group of copies
      deep_inside[a] = deep_inside[a] || deepened(s["depth"]);
      on_cycle[a] = on_cycle[a] || cyc;
      continue;
    }
    std::string attrs = fmt::format("label={}, tooltip={}", dot_quote(depth_text(s["depth"])),
                                    dot_quote(s["name"].get<std::string>() + ": depth " + depth_text(s["depth"])));
    if (cyc) attrs += fmt::format(", color=\"{0}\", fontcolor=\"{0}\", penwidth=3", kCycleColour);
    else if (deepened(s["depth"])) attrs += fmt::format(", color=\"{0}\", fontcolor=\"{0}\", penwidth=2", kDeepColour);
    edges << fmt::format("  {} -> {} [{}];\n", v.nodes[a].id, v.nodes[b].id, attrs);
  }
  std::ostringstream dot;
  dot << "digraph design {\n  rankdir=TB; nodesep=0.12; ranksep=0.3;\n"
         "  node [shape=box, style=\"rounded,filled\", fontname=\"Helvetica\", fontsize=10, height=0.25, "
         "margin=\"0.06,0.02\"];\n  edge [fontname=\"Helvetica\", fontsize=8, arrowsize=0.5, color=\"#888888\"];\n";
  for (size_t c = 0; c <= v.clusters.size(); ++c) {  // the last round: nodes in no cluster
    const bool inside = c < v.clusters.size();
    if (inside)
      dot << fmt::format("  subgraph cluster_{} {{\n  label={}; style=\"rounded,dashed\"; color=\"#999999\"; "
                         "fontname=\"Helvetica\"; fontsize=9;\n", c, dot_quote(v.clusters[c]));
    for (size_t n = 0; n < v.nodes.size(); ++n)
      if (v.nodes[n].cluster == (inside ? int(c) : -1))
        dot << dot_node(procs, v.nodes[n], on_cycle[n], deep_inside[n]);
    if (inside) dot << "  }\n";
  }
  dot << edges.str() << "}\n";
  return dot.str();
}

bool on_path(const std::string& program) {
  const char* path = std::getenv("PATH");
  std::stringstream dirs(path ? path : "");
  for (std::string dir; std::getline(dirs, dir, ':');)
    if (!dir.empty() && ::access((fs::path(dir) / program).c_str(), X_OK) == 0) return true;
  return false;
}

// Runs dot; the SVG element, or an error message for the page.
std::string run_dot(const std::string& dot, bool& ok) {
  ok = false;
  if (!on_path("dot")) return "Graphviz's dot is not installed (scripts/install-deps.sh installs it): no graph.";
  static std::atomic<int> counter{0};
  const fs::path dir = fs::temp_directory_path() / fmt::format("inrarch-report-{}-{}", ::getpid(), counter++);
  fs::create_directories(dir);
  write_file(dir / "design.dot", dot);
  const CommandResult r = run_command(fmt::format("dot -Tsvg '{0}/design.dot' -o '{0}/design.svg' 2> '{0}/dot.log'",
                                                  dir.string()), 120);
  std::string svg = r.exit_code == 0 ? read_file(dir / "design.svg") : read_file(dir / "dot.log");
  std::error_code ec;
  fs::remove_all(dir, ec);
  if (r.exit_code != 0) return fmt::format("dot failed (exit {}): {}", r.exit_code, svg.substr(0, 2000));
  const size_t start = svg.find("<svg");
  if (start == std::string::npos) return "dot wrote no SVG";
  ok = true;
  return svg.substr(start);
}

std::string legend() {
  std::string out = "<p class=\"legend\">";
  for (const char* k : {"source", "sink", "copy", "unary", "binary", "mm", "transpose", "gather"})
    out += fmt::format("<span class=\"swatch\" style=\"background:{}\"></span>{} ", kind_colour(k), k);
  out += fmt::format("<span class=\"line\" style=\"border-color:{}\"></span>depth &gt; 2 ", kDeepColour);
  out += fmt::format("<span class=\"line\" style=\"border-color:{}\"></span>deadlock cycle</p>", kCycleColour);
  return out;
}

}  // namespace

std::string graph_section(const json& data, const DesignView& v) {
  bool ok = false;
  const std::string svg = run_dot(dot_text(data, v), ok);
  const size_t processes = data["processes"].size();
  std::string body = fmt::format(
      "<p>{} processes drawn as {} nodes: the {} copy processes as {} fan-out nodes (“copy ×k”: a chain of "
      "k copies that fan out one value){}. Edge labels are FIFO depths in beats; a fan-out node drawn in "
      "orange holds a copy link deeper than 2. Hover a node or an edge for its details.</p>",
      processes, v.nodes.size(), processes - (v.nodes.size() - v.copy_groups), v.copy_groups,
      v.clusters.empty() ? "" : "; kernels are clustered by the outputs they feed (forward pass, each gradient)");
  body += legend();
  if (!ok) return section("graph", "Dataflow graph", body + "<p class=\"missing\">" + esc(svg) + "</p>");
  body += "<input type=\"checkbox\" id=\"graph-full\"><label for=\"graph-full\">full size</label>";
  body += "<div class=\"graph\">" + svg + "</div>";
  return section("graph", "Dataflow graph", body);
}

namespace {

// The cycle alone: each process waits for the next, on the op the edge names.
std::string cycle_dot(const json& cycle) {
  std::string dot = "digraph cycle {\n  node [shape=box, style=\"rounded,filled\", fillcolor=\"#fcbba1\", "
                    "fontname=\"Helvetica\", fontsize=10];\n  edge [fontname=\"Helvetica\", fontsize=9, color=\"" +
                    std::string(kCycleColour) + "\", fontcolor=\"" + kCycleColour + "\"];\n";
  for (size_t i = 0; i < cycle.size(); ++i) {
    const json& c = cycle[i];
    const json& next = cycle[(i + 1) % cycle.size()];
    const bool write = c["op"] == "write";
    const std::string what = write ? fmt::format("writes {} #{}: full (depth {}, {} read)", c["stream"].get<std::string>(),
                                                 num(c["beat"]), num(c["depth"]), num(c["reads_done"]))
                                   : fmt::format("reads {} #{}: empty", c["stream"].get<std::string>(), num(c["beat"]));
    dot += fmt::format("  {} -> {} [label={}];\n", dot_quote(c["process"].get<std::string>()),
                       dot_quote(next["process"].get<std::string>()), dot_quote(what));
  }
  return dot + "}\n";
}

}  // namespace

std::string deadlock_section(const json& data) {
  const json& dl = get(data, "deadlock");
  if (!get(dl, "deadlock").is_boolean() || !dl["deadlock"].get<bool>()) return "";
  const json& cycle = dl["cycle"];
  std::string body = fmt::format(
      "<p class=\"bad\">The design deadlocks at these depths: a cycle of {} processes, each waiting for the "
      "next (drawn in red on the graph above). A read waits for a write that has not happened (an empty FIFO); a "
      "write to a full FIFO waits for the read that frees a slot. Only those writes depend on depths.</p><ol>",
      cycle.size());
  for (const json& c : cycle)
    body += fmt::format("<li><b>{}</b> (step {}) {} <code>{}</code> beat {}{}</li>", esc(c["process"].get<std::string>()),
                        num(c["step"]), c["op"] == "write" ? "writes" : "reads", esc(c["stream"].get<std::string>()),
                        num(c["beat"]), c["op"] == "write" ? fmt::format(": full at depth {}, {} beats read", num(c["depth"]),
                                                                         num(c["reads_done"])) : ": empty");
  body += "</ol>";
  if (dl["deepen"].empty()) {
    body += "<p>No FIFO on the cycle is full: no depth resolves it (a cycle of the schedules themselves).</p>";
  } else {
    body += "<p>Deepening one of these streams lets the blocked write fire (a later cycle may appear a few beats "
            "on: <code>--deepen</code> repeats until none does):</p><ul>";
    for (const json& d : dl["deepen"])
      body += fmt::format("<li><code>{}</code> to at least {}</li>", esc(d["stream"].get<std::string>()), num(d["min_depth"]));
    body += "</ul>";
  }
  bool ok = false;
  const std::string svg = run_dot(cycle_dot(cycle), ok);
  body += ok ? "<div class=\"cycle\">" + svg + "</div>" : "<p class=\"missing\">" + esc(svg) + "</p>";
  return section("deadlock", "Deadlock", body);
}

}  // namespace inrarch::driver::html
