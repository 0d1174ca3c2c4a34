// Model bundles: a folder with graph.json, inputs/, params/ and reference/ (.npy, float64).
// See docs/formats.md.
#pragma once

#include <filesystem>
#include <map>
#include <string>

#include <nlohmann/json_fwd.hpp>

#include "ir/graph.h"
#include "ir/tensor.h"

namespace inrarch::ir {

using TensorMap = std::map<std::string, Tensor>;

struct Bundle {
  Graph graph;
  TensorMap inputs;     // by input name
  TensorMap params;     // by param name
  TensorMap reference;  // by output name; may be empty
};

// How a graph file is read: this layer reads the native JSON format ("inrarch-graph");
// frontend/load.h's reader also takes PyTorch exports ("inrarch-aten").
using GraphFileReader = Graph (*)(const std::filesystem::path& file);

// Reads DIR. Every input and param of the graph must have a .npy of the right shape.
// Errors name the file (and, for JSON, line/column or node id).
Bundle load_bundle(const std::filesystem::path& dir, GraphFileReader read_graph = nullptr);

// Writes DIR atomically: into a temporary sibling folder, renamed into place at the end, so
// a failure never leaves a half-written bundle that looks valid.
void save_bundle(const Bundle& b, const std::filesystem::path& dir);

// graph.json alone, native format (another "format" is an error naming the file).
Graph read_graph_json(const std::filesystem::path& file);
Graph graph_from_json_text(std::string_view text, std::string_view filename);
// The same from a parsed document, and the parse with errors at line:column (for the
// readers of other formats).
Graph graph_from_json(const nlohmann::json& j, std::string_view filename);
nlohmann::json parse_graph_json_text(std::string_view text, std::string_view filename);
std::string graph_to_json_text(const Graph& g);

// .npy (float64 and the other common numeric dtypes on read, converted to double; float64
// C-order on write).
Tensor read_npy(const std::filesystem::path& file);
// The same from a file's bytes; errors name `filename`.
Tensor npy_from_bytes(std::string_view bytes, std::string_view filename);
// The dtype of a .npy file's bytes as its header writes it ("<f8", "<i4", ...).
std::string npy_dtype(std::string_view bytes, std::string_view filename);
void write_npy(const Tensor& t, const std::filesystem::path& file);

// Loads a graph from a bundle folder, a .json or a .ir text file (by what the path is).
Graph load_graph(const std::filesystem::path& path, GraphFileReader read_graph = nullptr);

}  // namespace inrarch::ir
