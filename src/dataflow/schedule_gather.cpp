// Gather kernels: every data-movement op whose output can be produced in row-major order
// while reading each input in row-major order (reshape, unsqueeze, squeeze, expand, select,
// slice, cat, sum). One rule covers all of them: output element o "needs" some element of
// some operand (for sum: the last element that contributes to it). The kernel walks the
// output beats in order; before writing a beat it reads, one beat per input per step, every
// input beat up to the latest one needed so far; the step with the last such read also
// writes (L = 0). Input beats no output needs (unselected rows, the tail of a slice) are
// read afterwards so every stream is drained. A sum writes a beat kSumWriteLag = 4 steps after
// its last read at the earliest, with the reads of the step it lands in: its adds (the low
// half, then the high half with the low half's carry a cycle later) end in registers, which
// the two steps before the write read and fit into registers of their own, and the write
// reads only those (inrarch_sum, docs/rtl.md §2). Writes keep their order, one a step; a
// write not yet due waits, and the last ones take steps of their own.
#include <algorithm>
#include <deque>
#include <numeric>
#include <set>

#include "dataflow/gather_layout.h"
#include "dataflow/kernels.h"
#include "dataflow/schedule.h"
#include "support/error.h"

namespace inrarch::dataflow {

namespace {

struct Need {
  int slot;
  int64_t elem;
};

std::vector<int64_t> unravel(int64_t o, const ir::Shape& shape) {
  std::vector<int64_t> idx(shape.size());
  for (size_t d = shape.size(); d-- > 0;) {
    idx[d] = o % shape[d];
    o /= shape[d];
  }
  return idx;
}

int64_t ravel(const std::vector<int64_t>& idx, const ir::Shape& shape) {
  int64_t e = 0;
  for (size_t d = 0; d < shape.size(); ++d) e = e * shape[d] + idx[d];
  return e;
}

int64_t dim_of(const Process& p, size_t rank) {
  return ir::normalize_dim(p.attrs.dim, static_cast<int64_t>(rank), "gather");
}

Need need_of(const Process& p, const ir::Shape& out, int64_t o) {
  const ir::Shape& in = p.operands.at(0).shape;
  std::vector<int64_t> idx = unravel(o, out);
  switch (p.kind) {
    case Kind::IdentityMap: return {0, o};
    case Kind::ExpandMap: {
      size_t off = out.size() - in.size();
      std::vector<int64_t> ii(in.size());
      for (size_t d = 0; d < in.size(); ++d) ii[d] = in[d] == 1 ? 0 : idx[d + off];
      return {0, ravel(ii, in)};
    }
    case Kind::SelectMap: {
      int64_t dim = dim_of(p, in.size());
      int64_t index = p.attrs.index < 0 ? p.attrs.index + in[dim] : p.attrs.index;
      idx.insert(idx.begin() + dim, index);
      return {0, ravel(idx, in)};
    }
    case Kind::SliceMap: {
      int64_t dim = dim_of(p, in.size());
      int64_t start = p.attrs.start < 0 ? p.attrs.start + in[dim] : p.attrs.start;
      idx[dim] = start + idx[dim] * p.attrs.step;
      return {0, ravel(idx, in)};
    }
    case Kind::CatMap: {
      int64_t dim = dim_of(p, out.size());
      for (size_t k = 0; k < p.operands.size(); ++k) {
        int64_t size = p.operands[k].shape[dim];
        if (idx[dim] < size) return {static_cast<int>(k), ravel(idx, p.operands[k].shape)};
        idx[dim] -= size;
      }
      break;
    }
    case Kind::SumMap: {
      std::vector<bool> reduced(in.size(), p.attrs.dims.empty());
      for (int64_t d : p.attrs.dims) reduced[ir::normalize_dim(d, in.size(), "sum")] = true;
      std::vector<int64_t> ii(in.size());
      size_t k = 0;
      for (size_t d = 0; d < in.size(); ++d) {
        if (reduced[d]) {
          ii[d] = in[d] - 1;
          if (p.attrs.keepdim) ++k;
        } else {
          ii[d] = idx[k++];
        }
      }
      return {0, ravel(ii, in)};
    }
    case Kind::Source: case Kind::Sink: case Kind::Copy: case Kind::Unary: case Kind::Binary: case Kind::Mm:
    case Kind::MmReduce: case Kind::Transpose: case Kind::Permute: case Kind::Custom: break;  // not gathers
  }
  throw Error("schedule: no gather model for " + std::string(ir::op_name(p.op)) + " (" + p.name + ")");
}

}  // namespace

GatherNeed gather_need(const Process& p, const ir::Shape& out, int64_t o) {
  const Need n = need_of(p, out, o);
  return {n.slot, n.elem};
}

Program schedule_gather(const Design& d, ProcessId pid) { return schedule_gather_prefix(d, pid, INT64_MAX); }

int gather_write_lag(const Process& p) { return p.kind == Kind::SumMap ? kSumWriteLag : 0; }

namespace {

// A gather's steps as they are built: each step's FIFO ops, and the written beats not yet
// due. A beat is written in the first step at least `lag` steps after the last read so far
// and after the previous beat's write. A step with no FIFO op (a write not yet due, nothing
// to read) is a cycle of the kernel (a line of nothing in inrarch_sum's table) and a delay
// of 2 on the next step here.
class GatherSteps {
 public:
  GatherSteps(const Process& p, StreamId out) : p_(p), out_(out), lag_(gather_write_lag(p)) {}

  std::vector<FifoOp> ops;  // the current step's

  void start() {  // a step, with the oldest waiting write if it is due
    ops.clear();
    if (!due_.empty() && due_.front() <= step_) ops.push_back({out_, true}), due_.pop_front();
  }
  void end() {
    note_reads();
    if (ops.empty()) ++idle_;
    else b_.step(1 + idle_, ops), idle_ = 0;
    ++step_;
  }
  void written() {  // the beat whose reads this step ended (call before end)
    note_reads();
    const int64_t at = std::max(last_read_ + lag_, due_.empty() ? step_ : due_.back() + 1);
    if (at == step_ && (ops.empty() || !ops.front().write)) ops.push_back({out_, true});
    else due_.push_back(std::max(at, step_ + 1));
    // Dues are distinct steps within `lag` of this one: the HLS gather's queue holds lag + 1.
    INRARCH_ASSERT(int64_t(due_.size()) <= lag_ + 1, "gather " + p_.name + ": more writes waiting than its lag allows");
  }
  Program finish() {  // the writes still waiting, in steps of their own
    while (!due_.empty()) start(), end();
    return b_.take();
  }

 private:
  void note_reads() {  // this step's reads, if any, are the last so far
    if (std::any_of(ops.begin(), ops.end(), [](const FifoOp& op) { return !op.write; })) last_read_ = step_;
  }
  const Process& p_;
  StreamId out_;
  int64_t lag_, step_ = 0, last_read_ = -1, idle_ = 0;
  std::deque<int64_t> due_;
  ProgramBuilder b_;
};

}  // namespace

Program schedule_gather_prefix(const Design& d, ProcessId pid, int64_t max_beats) {
  const Process& p = d.processes.at(pid);
  StreamId out = p.outputs.at(0);
  const Stream& os = d.streams[out];
  size_t k_count = p.operands.size();
  std::vector<int64_t> need(k_count, 0), got(k_count, 0), total(k_count, 0);
  for (size_t k = 0; k < k_count; ++k)
    if (p.operands[k].stream >= 0) total[k] = d.streams[p.operands[k].stream].beats();
  GatherSteps st(p, out);
  int64_t n_out = numel(os.shape);
  const int64_t beats = std::min(os.beats(), max_beats);
  for (int64_t ob = 0; ob < beats; ++ob) {
    for (int64_t o = ob * os.block; o < std::min(n_out, (ob + 1) * os.block); ++o) {
      Need n = need_of(p, os.shape, o);
      StreamId s = p.operands[n.slot].stream;
      if (s >= 0) need[n.slot] = std::max(need[n.slot], n.elem / d.streams[s].block + 1);
    }
    for (bool done = false; !done;) {
      st.start();
      done = true;
      for (size_t k = 0; k < k_count; ++k) {
        if (got[k] < need[k]) st.ops.push_back({p.operands[k].stream, false}), ++got[k];
        done = done && got[k] >= need[k];
      }
      if (done) st.written();
      st.end();
    }
  }
  while (beats == os.beats()) {  // drain what no output needed
    st.start();
    for (size_t k = 0; k < k_count; ++k)
      if (got[k] < total[k]) st.ops.push_back({p.operands[k].stream, false}), ++got[k];
    if (st.ops.empty()) break;
    st.end();
  }
  return st.finish();
}

int64_t gather_buffer_elems(const Design& d, ProcessId pid) {
  const Process& p = d.processes.at(pid);
  const ir::Shape& in = p.operands.at(0).shape;
  if (p.kind == Kind::ExpandMap) {
    // Elements kept for replay: the distance from the latest element read back to the one
    // an output needs again (a whole row when an outer dim is broadcast).
    const ir::Shape& out = d.streams[p.outputs.at(0)].shape;
    // Slices of a dim 0 that is not broadcast need translated elements, so the span of two
    // slices is the span of all (a batch of rows costs two rows).
    int64_t upto = numel(out);
    if (!out.empty() && in.size() == out.size() && in[0] == out[0] && out[0] > 2) upto = 2 * (upto / out[0]);
    int64_t hi = -1, span = 1;
    for (int64_t o = 0; o < upto; ++o) {
      int64_t e = need_of(p, out, o).elem;
      hi = std::max(hi, e);
      span = std::max(span, hi - e + 1);
    }
    return span;
  }
  if (p.kind == Kind::SumMap) {
    // Open accumulators: the kept dims inside the outermost reduced dim.
    std::vector<bool> reduced(in.size(), p.attrs.dims.empty());
    for (int64_t dd : p.attrs.dims) reduced[ir::normalize_dim(dd, in.size(), "sum")] = true;
    int64_t acc = 1;
    bool inside = false;
    for (size_t dd = 0; dd < in.size(); ++dd) {
      if (reduced[dd]) inside = true;
      else if (inside) acc *= in[dd];
    }
    return acc;
  }
  return 0;
}

}  // namespace inrarch::dataflow
