// Model bundles: a folder with graph.json, inputs/, params/ and reference/ (.npy, float64).
// See docs/formats.md.
#pragma once

#include <filesystem>
#include <map>
#include <string>

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

// Reads DIR. Every input and param of the graph must have a .npy of the right shape.
// Errors name the file (and, for JSON, line/column or node id).
Bundle load_bundle(const std::filesystem::path& dir);

// Writes DIR atomically: into a temporary sibling folder, renamed into place at the end, so
// a failure never leaves a half-written bundle that looks valid.
void save_bundle(const Bundle& b, const std::filesystem::path& dir);

// graph.json alone.
Graph read_graph_json(const std::filesystem::path& file);
Graph graph_from_json_text(std::string_view text, std::string_view filename);
std::string graph_to_json_text(const Graph& g);

// .npy (float64 and the other common numeric dtypes on read, converted to double; float64
// C-order on write).
Tensor read_npy(const std::filesystem::path& file);
void write_npy(const Tensor& t, const std::filesystem::path& file);

// Loads a graph from a bundle folder or a .ir text file (by what the path is).
Graph load_graph(const std::filesystem::path& path);

}  // namespace inrarch::ir
