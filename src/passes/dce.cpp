// DCE: the rebuild engine copies live nodes only, so this pass is the engine with nothing
// replaced; it exists as a named step so pipelines and --print-after can show it.
#include "passes/dce.h"

#include "passes/rewriter.h"

namespace inrarch::passes {

ir::Graph dce(const ir::Graph& g, PassContext& ctx) {
  ctx.stats.count("removed", static_cast<int64_t>(g.size() - ir::live_nodes(g).size()));
  return rebuild(g);
}

}  // namespace inrarch::passes
