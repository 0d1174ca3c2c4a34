// The pass interface shared by every optimizer pass.
//
// A pass is a free function `ir::Graph pass(const ir::Graph&, PassContext&)`: it never
// mutates its input (graphs are append-only arenas), it returns a freshly rebuilt graph
// holding only live nodes, and it records what it did in `ctx.stats` (rewrites by rule
// name, asserted by tests). Passes that fold weights into new weights append the recipe of
// each new param to `ctx.new_params` (see ParamTransform).
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "ir/graph.h"

namespace inrarch::passes {

// Rewrites by rule name ("mul-one", "fold-transpose", ...). Ordered so printed tables and
// JSON are deterministic.
struct PassStats {
  std::map<std::string, int64_t, std::less<>> rewrites;

  void count(std::string_view rule, int64_t n = 1);
  int64_t total() const;
  int64_t get(std::string_view rule) const;
};

// A param that exists only in an optimized graph (e.g. the transpose of a weight, or a
// weight pre-scaled by 30). Its value is `expr` evaluated by the reference interpreter:
// `expr` has no inputs, only consts and params, and exactly one output. The params it names
// are the original ones or earlier transforms, so a list of transforms is applied in order
// (apply_param_transforms in pipeline.h). Keeping the recipe as ordinary IR means the
// eval/bundle layer needs no new code to derive the values, and a backend can print it.
struct ParamTransform {
  std::string name;  // name of the new param in the optimized graph
  ir::Graph expr;
};

struct PassContext {
  PassStats stats;
  std::vector<ParamTransform> new_params;  // appended in dependency order
};

using PassFn = ir::Graph (*)(const ir::Graph&, PassContext&);

}  // namespace inrarch::passes
