// INR-Arch HLS testbench helpers (not synthesised): raw little-endian double files written
// by the emitter (data/*.bin), feeding/draining array streams, and the error check.
#ifndef INRARCH_HLS_TB_UTIL_H
#define INRARCH_HLS_TB_UTIL_H

#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "array_stream.h"

namespace inrarch_hls {
namespace tb {

inline std::vector<double> load_bin(const std::string& file, std::size_t n) {
  std::vector<double> v(n);
  std::FILE* f = std::fopen(file.c_str(), "rb");
  if (!f || std::fread(v.data(), sizeof(double), n, f) != n) {
    std::fprintf(stderr, "testbench: cannot read %zu values from %s\n", n, file.c_str());
    if (f) std::fclose(f);
    throw std::runtime_error("missing data file " + file);
  }
  std::fclose(f);
  return v;
}

// Writes the arrays (row-major, all samples) into the stream, one beat a step. An input
// outside the number type saturates and marks its beat (and, sticky, every later one), as
// a host writing the port would.
template <class S>
void feed(S& s, const std::vector<double>& v) {
  typedef typename S::elem_type T;
  const int n = int(v.size()) / S::block;
  bool ovf = false;
  for (int i = 0; i < n; ++i) {
    INRARCH_STEP();
    typename S::beat_type b;
    for (int e = 0; e < S::block; ++e) b.v[e] = fit<T>(v[i * S::block + e], ovf);
    b.ovf = ovf;
    s.write(b);
  }
}

// Reads `rows` samples' arrays from the stream; *ovf (when given) |= every beat's ovf.
template <class S>
std::vector<double> drain(S& s, int rows, bool* ovf = 0) {
  std::vector<double> v(std::size_t(rows) * S::numel);
  for (int i = 0; i < rows * S::beats; ++i) {
    INRARCH_STEP();
    typename S::beat_type b = s.read();
    for (int e = 0; e < S::block; ++e) v[i * S::block + e] = to_double(b.v[e]);
    if (ovf) *ovf = *ovf || b.ovf;
  }
  return v;
}

// One column of one output: its elements along every dimension but the last (for the
// usual [rows, k] outputs, one of the k stacked quantities over all samples).
struct column_error {
  std::string output;
  int column;
  double max_abs, rel;  // max |got - want| over the column, and that over max |want| there
};

// Max abs error over all outputs, and the worst normwise relative error
// max|got - want| / max|want| per output (robust near zeros; as driver/compare.h). Per
// column as well: a stacked output whose columns differ in scale by orders of magnitude
// would hide a small column's error behind the large column's max |want|. The scaled error
// max|got - want| / max(1, max|want|) per output judges fixed point: absolute for outputs
// within ±1, relative to the output's own magnitude above (a Laplacian in the thousands
// cannot be right to 1e-3 absolute at any width that holds it).
struct errors {
  double max_abs = 0, max_rel = 0, max_column_rel = 0, max_scaled = 0;
  std::vector<column_error> worst;  // the kWorst worst columns, worst first
  enum { kWorst = 5 };

  void add(const std::vector<double>& got, const std::vector<double>& want) {
    add("", got, want, 1);
  }
  void add(const std::string& name, const std::vector<double>& got,
           const std::vector<double>& want, int columns) {
    std::vector<double> col_abs(columns, 0.0), col_scale(columns, 0.0);
    for (std::size_t i = 0; i < got.size(); ++i) {
      const int c = int(i % std::size_t(columns));
      double e = std::fabs(got[i] - want[i]);
      col_abs[c] = (e > col_abs[c] || e != e) ? e : col_abs[c];
      col_scale[c] = std::fabs(want[i]) > col_scale[c] ? std::fabs(want[i]) : col_scale[c];
    }
    double abs = 0, scale = 0;
    for (int c = 0; c < columns; ++c) {
      abs = (col_abs[c] > abs || col_abs[c] != col_abs[c]) ? col_abs[c] : abs;
      scale = col_scale[c] > scale ? col_scale[c] : scale;
      note_column(name, c, col_abs[c], col_scale[c] > 0 ? col_abs[c] / col_scale[c] : col_abs[c]);
    }
    double rel = scale > 0 ? abs / scale : abs;
    double scaled = scale > 1 ? abs / scale : abs;
    max_abs = (abs > max_abs || abs != abs) ? abs : max_abs;
    max_rel = (rel > max_rel || rel != rel) ? rel : max_rel;
    max_scaled = (scaled > max_scaled || scaled != scaled) ? scaled : max_scaled;
  }
  // Fixed point is judged by the scaled error, floating point by the relative one (per
  // tensor); the column figures are reported, not judged (docs/hls.md "Verification").
  bool pass(bool fixed, double abs_tol, double rel_tol) const {
    return fixed ? max_scaled <= abs_tol : max_rel <= rel_tol;
  }

 private:
  void note_column(const std::string& name, int c, double abs, double rel) {
    max_column_rel = (rel > max_column_rel || rel != rel) ? rel : max_column_rel;
    column_error e = {name, c, abs, rel};
    std::size_t at = worst.size();
    while (at > 0 && (rel > worst[at - 1].rel || (rel != rel && worst[at - 1].rel == worst[at - 1].rel)))
      --at;
    if (at < std::size_t(kWorst)) worst.insert(worst.begin() + long(at), e);
    if (worst.size() > std::size_t(kWorst)) worst.pop_back();
  }
};

}  // namespace tb
}  // namespace inrarch_hls

#endif  // INRARCH_HLS_TB_UTIL_H
