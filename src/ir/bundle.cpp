// Model bundles: loading checks every input/param .npy against its graph node; saving stages
// the folder (support/staging.h), so a failed save never leaves a half-written folder that looks
// like a bundle. graph.json is in json_io.cpp, .npy in npy.cpp.
#include "ir/bundle.h"

#include <fmt/format.h>

#include "support/error.h"
#include "ir/io_detail.h"
#include "support/staging.h"
#include "ir/text.h"

namespace inrarch::ir {

namespace fs = std::filesystem;

namespace {

// Tensor names become file names; '/' would make a subfolder, so it is written as "__".
std::string file_name(const std::string& name) {
  std::string out;
  for (char c : name) out += c == '/' ? std::string("__") : std::string(1, c);
  return out + ".npy";
}

Tensor load_checked(const fs::path& file, const std::string& what, const Shape& shape) {
  std::error_code ec;
  if (!fs::exists(file, ec))
    throw Error(fmt::format("{}: missing .npy file for {} of shape {}", file.string(), what, shape_str(shape)));
  Tensor t = read_npy(file);
  if (t.shape != shape)
    throw Error(fmt::format("{}: shape {} does not match {} of shape {}", file.string(), shape_str(t.shape), what,
                            shape_str(shape)));
  return t;
}

// The .npy file of every input and param leaf: (subfolder, tensor name, node).
struct Leaf {
  const char* folder;
  const std::string& name;
  NodeId node;
};

std::vector<Leaf> leaves(const Graph& g) {
  std::vector<Leaf> out;
  for (NodeId i = 0; i < g.size(); ++i) {
    const Node& n = g.node(i);
    if (n.op == Op::Input) out.push_back({"inputs", n.attrs.name, i});
    if (n.op == Op::Param) out.push_back({"params", n.attrs.name, i});
  }
  return out;
}

// What save_bundle would write that load_bundle would reject is refused before writing.
void check_complete(const Bundle& b, const fs::path& dir) {
  for (const Leaf& l : leaves(b.graph)) {
    const TensorMap& m = l.folder[0] == 'i' ? b.inputs : b.params;
    auto it = m.find(l.name);
    const Shape& want = b.graph.shape(l.node);
    if (it == m.end() || it->second.shape != want)
      throw Error(fmt::format("{}: cannot save bundle: {} \"{}\" of shape {} has {}", dir.string(),
                              l.folder[0] == 'i' ? "input" : "param", l.name, shape_str(want),
                              it == m.end() ? "no tensor" : "a tensor of shape " + shape_str(it->second.shape)));
  }
  for (const TensorMap* m : {&b.inputs, &b.params, &b.reference}) {
    std::map<std::string, std::string> seen;  // file name -> tensor name
    for (const auto& [name, t] : *m)
      if (auto [it, fresh] = seen.emplace(file_name(name), name); !fresh)
        throw Error(fmt::format("{}: cannot save bundle: \"{}\" and \"{}\" map to the same file {}", dir.string(),
                                it->second, name, it->first));
  }
}

void write_folder(const Bundle& b, const fs::path& root) {
  fs::create_directory(root);
  write_file(root / "graph.json", graph_to_json_text(b.graph));
  const std::pair<const char*, const TensorMap*> parts[] = {
      {"inputs", &b.inputs}, {"params", &b.params}, {"reference", &b.reference}};
  for (auto [folder, m] : parts) {
    if (m->empty() && folder == std::string_view("reference")) continue;
    fs::create_directory(root / folder);
    for (const auto& [name, t] : *m) write_npy(t, root / folder / file_name(name));
  }
}

}  // namespace

Bundle load_bundle(const fs::path& dir, GraphFileReader read_graph) {
  if (!read_graph) read_graph = read_graph_json;
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) throw Error(fmt::format("{}: not a bundle folder (no such directory)", dir.string()));
  if (!fs::exists(dir / "graph.json", ec))
    throw Error(fmt::format("{}: not a bundle folder (no graph.json)", dir.string()));
  Bundle b{read_graph(dir / "graph.json"), {}, {}, {}};
  for (const Leaf& l : leaves(b.graph)) {
    const bool is_input = l.folder[0] == 'i';
    Tensor t = load_checked(dir / l.folder / file_name(l.name),
                            fmt::format("{} \"{}\"", is_input ? "input" : "param", l.name), b.graph.shape(l.node));
    (is_input ? b.inputs : b.params).emplace(l.name, std::move(t));
  }
  for (const Output& o : b.graph.outputs()) {
    const fs::path file = dir / "reference" / file_name(o.name);
    if (fs::exists(file, ec))
      b.reference.emplace(o.name, load_checked(file, fmt::format("output \"{}\"", o.name), b.graph.shape(o.node)));
  }
  return b;
}

void save_bundle(const Bundle& b, const fs::path& dir) {
  check_complete(b, dir);
  try {
    StagingDir stage(dir, "graph.json", "bundle");
    write_folder(b, stage.path());
    stage.commit();
  } catch (const std::exception& e) {
    throw Error(fmt::format("{}: cannot save bundle: {}", dir.string(), e.what()));
  }
}

Graph load_graph(const fs::path& path, GraphFileReader read_graph) {
  if (!read_graph) read_graph = read_graph_json;
  std::error_code ec;
  if (fs::is_directory(path, ec)) {
    if (!fs::exists(path / "graph.json", ec))
      throw Error(fmt::format("{}: not a bundle folder (no graph.json)", path.string()));
    return read_graph(path / "graph.json");
  }
  if (!fs::exists(path, ec)) throw Error(fmt::format("{}: no such file or folder", path.string()));
  if (path.extension() == ".ir") return parse_text(read_file(path), path.string());
  if (path.extension() == ".json") return read_graph(path);
  throw Error(fmt::format("{}: expected a bundle folder, a .ir or a .json file", path.string()));
}

}  // namespace inrarch::ir
