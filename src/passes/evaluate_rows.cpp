// Block-of-rows evaluation (evaluate_rows.h). The graph is rebatched once to `block` rows
// (and once to the last block's rows); rebatch keeps the live nodes' order, so a node's id
// in it is its position among g's live nodes.
#include "passes/evaluate_rows.h"

#include <algorithm>
#include <atomic>
#include <exception>
#include <mutex>
#include <thread>
#include <unordered_map>

#include "passes/rebatch.h"

namespace inrarch::passes {

namespace {

struct Blocks {
  int64_t batch = 0, block = 0, count = 0;
  ir::Graph full, last;  // at `block` rows, and at the last block's rows
  std::vector<ir::NodeId> live;  // id in the rebatched graphs -> id in g

  const ir::Graph& graph(int64_t i) const { return i + 1 == count && batch % block ? last : full; }
  int64_t lo(int64_t i) const { return i * block; }
  int64_t hi(int64_t i) const { return std::min(batch, (i + 1) * block); }
};

std::optional<Blocks> plan_blocks(const ir::Graph& g, int64_t block) {
  std::optional<int64_t> rows = graph_rows(g);
  if (!rows || *rows <= block || block < 1) return std::nullopt;
  Blocks b;
  b.batch = *rows;
  b.block = block;
  b.count = (b.batch + block - 1) / block;
  b.full = rebatch(g, block);
  if (b.batch % block) b.last = rebatch(g, b.batch % block);
  b.live = ir::live_nodes(g);
  return b;
}

// Runs fn(i, inputs of block i) for every block, on all cores; rethrows the first error.
template <typename Fn>
void for_each_block(const Blocks& b, const ir::TensorMap& inputs, Fn&& fn) {
  std::atomic<int64_t> next{0};
  std::exception_ptr error;
  std::mutex error_mu;
  auto work = [&] {
    for (int64_t i; (i = next++) < b.count;) {
      try {
        fn(i, row_range(inputs, b.batch, b.lo(i), b.hi(i)));
      } catch (...) {
        std::lock_guard<std::mutex> lock(error_mu);
        if (!error) error = std::current_exception();
        next = b.count;
      }
    }
  };
  const auto cores = static_cast<int64_t>(std::max(1u, std::thread::hardware_concurrency()));
  std::vector<std::thread> pool;
  for (int64_t w = 1; w < std::min(cores, b.count); ++w) pool.emplace_back(work);
  work();
  for (auto& t : pool) t.join();
  if (error) std::rethrow_exception(error);
}

ir::Tensor concat_rows(const std::vector<std::vector<ir::Tensor>>& parts, size_t out, int64_t batch) {
  const ir::Tensor& first = parts.front()[out];
  if (first.shape.empty() || parts.size() == 1) return first;
  ir::Shape s = first.shape;
  int64_t rows0 = 0;
  for (const auto& p : parts) rows0 += p[out].shape[0];
  if (rows0 % batch != 0) return first;  // not per row: every block holds the same value
  s[0] = rows0;
  std::vector<double> data;
  data.reserve(static_cast<size_t>(ir::numel(s)));
  for (const auto& p : parts) data.insert(data.end(), p[out].data.begin(), p[out].data.end());
  return ir::Tensor(s, std::move(data));
}

}  // namespace

std::vector<ir::Tensor> evaluate_in_rows(const ir::Graph& g, const ir::TensorMap& inputs,
                                         const ir::TensorMap& params, int64_t block) {
  std::optional<Blocks> b = plan_blocks(g, block);
  if (!b) return ir::evaluate(g, inputs, params);
  std::vector<std::vector<ir::Tensor>> parts(static_cast<size_t>(b->count));
  for_each_block(*b, inputs, [&](int64_t i, const ir::TensorMap& in) {
    parts[static_cast<size_t>(i)] = ir::evaluate(b->graph(i), in, params);
  });
  std::vector<ir::Tensor> out;
  for (size_t k = 0; k < g.outputs().size(); ++k) out.push_back(concat_rows(parts, k, b->batch));
  return out;
}

void visit_in_rows(const ir::Graph& g, const std::vector<ir::NodeId>& nodes,
                   const ir::TensorMap& inputs, const ir::TensorMap& params,
                   const ir::VisitFn& visit, int64_t block) {
  std::optional<Blocks> b = plan_blocks(g, block);
  std::unordered_map<ir::NodeId, ir::NodeId> position;
  if (b)
    for (size_t i = 0; i < b->live.size(); ++i) position[b->live[i]] = static_cast<ir::NodeId>(i);
  bool all_live = b && std::all_of(nodes.begin(), nodes.end(), [&](ir::NodeId n) { return position.count(n); });
  if (!all_live) return ir::evaluate_visit(g, nodes, inputs, params, visit);
  std::vector<ir::NodeId> mapped;
  for (ir::NodeId n : nodes) mapped.push_back(position.at(n));
  for_each_block(*b, inputs, [&](int64_t i, const ir::TensorMap& in) {
    ir::evaluate_visit(b->graph(i), mapped, in, params,
                       [&](ir::NodeId n, const ir::Tensor& v) { visit(b->live[n], v); });
  });
}

}  // namespace inrarch::passes
