// Text IR: printer and parser (format in docs/formats.md). print_text(parse_text(t)) == t
// for every printed t.
#pragma once

#include <string>
#include <string_view>

#include "ir/graph.h"

namespace inrarch::ir {

// Prints the live nodes (reachable from outputs), renumbered densely in order; with
// `all_nodes`, every node of the arena.
std::string print_text(const Graph& g, bool all_nodes = false);

// Parses text IR. Errors throw inrarch::Error as "<filename>:<line>:<col>: <message>".
Graph parse_text(std::string_view text, std::string_view filename = "<input>");

// Shortest round-trip decimal for a double, always with '.' or exponent ("30.0", "1e-08").
std::string format_number(double v);

}  // namespace inrarch::ir
