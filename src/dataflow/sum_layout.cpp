// sum_layout (sum_layout.h): each input element's output, the open outputs over the sum's
// schedule, and the ring of accumulators that holds them.
#include "dataflow/sum_layout.h"

#include <algorithm>
#include <bit>

#include "dataflow/gather_layout.h"
#include "dataflow/schedule.h"
#include "support/error.h"
#include "support/looped_table.h"

namespace inrarch::dataflow {

namespace {

// The input dims a sum reduces (all of them when it names none).
std::vector<bool> reduced_dims(const Process& p) {
  const ir::Shape& in = p.operands.at(0).shape;
  std::vector<bool> reduced(in.size(), p.attrs.dims.empty());
  for (int64_t d : p.attrs.dims) reduced[ir::normalize_dim(d, int64_t(in.size()), "sum")] = true;
  return reduced;
}

// Input element i's output element: its index over the dims that are kept (a reduced dim
// kept with keepdim has size 1 in the output and adds nothing).
int64_t destination(const ir::Shape& in, const std::vector<bool>& reduced, int64_t i) {
  int64_t o = 0, weight = 1;
  for (size_t d = in.size(); d-- > 0;) {
    const int64_t idx = i % in[d];
    i /= in[d];
    if (reduced[d]) continue;
    o += idx * weight;
    weight *= in[d];
  }
  return o;
}

// The step's table line: bit 0 reads the input, bit 1 writes the output.
uint64_t step_line(const Process& p, const Step& step) {
  uint64_t bits = 0;
  for (const auto& op : step.ops) bits |= op.write ? 2 : (op.stream == p.inputs.at(0) ? 1 : 0);
  return bits;
}

}  // namespace

int SumLayout::slot_bits() const { return std::max(1, int(std::bit_width(uint64_t(ring - 1)))); }

int64_t SumLayout::shared_pairs() const { return std::count(shares.begin(), shares.end(), true); }

namespace {

// The bits set in each line of a mask of rows of `stride` bits: a row's (by_row), or a
// column's (bit i is column i % stride's).
std::vector<int64_t> counts(const std::vector<bool>& mask, size_t stride, bool by_row) {
  const size_t lines = by_row ? mask.size() / std::max<size_t>(stride, 1) : stride;
  std::vector<int64_t> n(lines, 0);
  for (size_t i = 0; i < mask.size(); ++i) n[by_row ? i / stride : i % stride] += mask[i];
  return n;
}

}  // namespace

std::vector<int64_t> SumLayout::elem_accs() const { return counts(stores, stores.size() / size_t(ring), false); }
std::vector<int64_t> SumLayout::acc_elems() const { return counts(stores, stores.size() / size_t(ring), true); }
std::vector<int64_t> SumLayout::out_accs() const { return counts(outs, outs.size() / size_t(ring), false); }

std::vector<int64_t> SumLayout::elem_sharers() const {
  return counts(shares, stores.size() / size_t(ring), true);
}

int64_t SumLayout::chain_pairs() const {
  const std::vector<int64_t> accs = elem_accs();
  const size_t bi = accs.size();
  int64_t n = 0;
  for (size_t e = 0; e < bi; ++e)
    for (size_t k = 0; k < bi; ++k) n += accs[e] > 0 && shares[e * bi + k];
  return n;
}

int sum_acc_bits(int bits, int64_t contributors, int wrap_bits) {
  const int grow = int(std::bit_width(uint64_t(std::max<int64_t>(contributors, 1) - 1)));
  return std::min(wrap_bits, bits + grow);
}

namespace {

// The last lines: the writes left at the end, all due, one a step; before them, the lines
// after the period of the rest (the split that keeps the fewest lines in all: a column
// sum's last row, whose reads share steps with writes, would otherwise end the period and
// make the table as long as the batch).
void split_tail(SumLayout& s, const std::string& name) {
  while (!s.steps.empty() && s.steps.back() == 2) s.steps.pop_back(), ++s.tail_writes;
  INRARCH_ASSERT(!s.steps.empty(), "sum " + name + ": it reads nothing");
  const size_t most = std::min(s.steps.size() - 1, kMaxSumSuffix);
  size_t best = 0;
  int64_t fewest = looped_table(s.steps).lines;
  for (size_t k = 1; k <= most; ++k) {
    const std::span<const uint64_t> head(s.steps.data(), s.steps.size() - k);  // no copy a split
    const int64_t lines = looped_table(head).lines + int64_t(k);
    if (lines < fewest) best = k, fewest = lines;
  }
  s.suffix.assign(s.steps.end() - std::ptrdiff_t(best), s.steps.end());
  s.steps.resize(s.steps.size() - best);
}

}  // namespace

SumLayout sum_layout(const Design& d, ProcessId pid, int64_t max_writes) {
  const Process& p = d.processes.at(pid);
  if (p.kind != Kind::SumMap) throw Error("sum_layout: process " + p.name + " is not a sum");
  const Stream& in = d.streams[p.inputs.at(0)];
  const Stream& out = d.streams[p.outputs.at(0)];
  const std::vector<bool> reduced = reduced_dims(p);
  SumLayout s;
  s.contributors = std::max<int64_t>(1, numel(in.shape) / std::max<int64_t>(1, numel(out.shape)));
  const Program prog =
      max_writes >= out.beats() ? schedule(d, pid) : schedule_gather_prefix(d, pid, max_writes + 1);
  int64_t read = 0, written = 0, highest = -1;
  std::vector<std::vector<int64_t>> beats;
  std::vector<int64_t> writes;        // each written beat's first output
  std::vector<int64_t> highest_read;  // per line, the highest output read so far
  std::vector<size_t> write_lines;
  for (const Step& step : expand(prog)) {
    for (int64_t k = 1; k < step.delay; ++k) s.steps.push_back(0), highest_read.push_back(highest);  // steps of nothing
    const uint64_t line = step_line(p, step);
    s.steps.push_back(line);
    if (line & 1) {
      beats.emplace_back();
      for (int64_t e = 0; e < in.block; ++e)
        beats.back().push_back(destination(p.operands.at(0).shape, reduced, read + e));
      for (int64_t o : beats.back()) highest = std::max(highest, o);
      read += in.block;
    }
    highest_read.push_back(highest);
    if (line & 2) writes.push_back(written), written += out.block, write_lines.push_back(s.steps.size() - 1);
  }
  // Open outputs at a line: from the lowest not yet picked (read from its accumulators
  // into the output registers, which clears them: kSumPickAhead lines before its write)
  // to the highest read so far, this line's reads and pick included.
  int64_t open = out.block;
  for (size_t i = 0, w = 0; i < s.steps.size(); ++i) {
    while (w < write_lines.size() && write_lines[w] < i + kSumPickAhead) ++w;  // picked before line i
    open = std::max(open, highest_read[i] - int64_t(w) * out.block + 1);
  }
  split_tail(s, p.name);
  s.ring = int64_t(std::bit_ceil(uint64_t(open)));
  s.shares.assign(size_t(in.block * in.block), false);
  const size_t bi = size_t(in.block), bo = size_t(out.block);
  s.stores.assign(size_t(s.ring) * bi, false);
  s.outs.assign(size_t(s.ring) * bo, false);
  for (int64_t first : writes)
    for (size_t j = 0; j < bo; ++j) s.outs[size_t((first + int64_t(j)) % s.ring) * bo + j] = true;
  for (const auto& beat : beats) {
    s.slots.emplace_back();
    for (int64_t e : beat) s.slots.back().push_back(uint64_t(e % s.ring));
    for (size_t e = 0; e < beat.size(); ++e) {
      bool last = true;
      for (size_t k = 0; k < beat.size(); ++k) {
        if (e != k && beat[e] == beat[k]) s.shares[e * size_t(in.block) + k] = true;
        if (k > e && beat[e] == beat[k]) last = false;
      }
      if (last) s.stores[size_t(beat[e] % s.ring) * bi + e] = true;
    }
  }
  return s;
}

}  // namespace inrarch::dataflow
