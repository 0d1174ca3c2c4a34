// The RTL kernel library, part: exp, tanh and log (the HLS library's fixed_exp_log.h bit for
// bit), and the tables they read, computed here as the library computes them.
#include <fmt/format.h>

#include "backend/rtl/rtl_detail.h"

namespace inrarch::rtl::detail {

namespace {

constexpr int kRomSize = 1025;  // fixed_exp_log.h kExpLogRomSize

// fixed_exp_log.h's taylor_exp and series_log1p, operation for operation, so the doubles
// (and so the rounded entries) are the library's.
double taylor_exp(double z) {
  double term = 1.0, sum = 1.0;
  for (int k = 1; k < 28; ++k) {
    term *= z / k;
    sum += term;
  }
  return sum;
}

double series_log1p(double u) {
  const double s = u / (2.0 + u);
  double p = s, sum = 0.0;
  for (int k = 0; k < 40; ++k) {
    sum += p / (2 * k + 1);
    p *= s * s;
  }
  return 2.0 * sum;
}

std::string hex_of(const std::vector<uint64_t>& v) {
  std::string s;
  for (uint64_t x : v) s += fmt::format("{:09x}\n", x);  // 34-bit words
  return s;
}

}  // namespace

std::vector<uint64_t> exp2_table() {
  std::vector<uint64_t> v(kRomSize);
  for (int i = 0; i < kRomSize; ++i)
    v[i] = static_cast<uint64_t>(taylor_exp(0.69314718055994530942 * i / (kRomSize - 1)) * 4294967296.0 + 0.5);
  return v;
}

std::vector<uint64_t> log1p_table() {
  std::vector<uint64_t> v(kRomSize);
  for (int i = 0; i < kRomSize; ++i)
    v[i] = static_cast<uint64_t>(series_log1p(static_cast<double>(i) / (kRomSize - 1)) * 4294967296.0 + 0.5);
  return v;
}

std::vector<std::pair<std::string, std::string>> explog_table_files(const dataflow::Design& d) {
  bool exp2 = false, log1p = false;
  for (const auto& p : d.processes) {
    if (p.kind != dataflow::Kind::Unary) continue;
    exp2 = exp2 || p.op == ir::Op::Exp || p.op == ir::Op::Tanh;
    log1p = log1p || p.op == ir::Op::Log;
  }
  std::vector<std::pair<std::string, std::string>> files;
  if (exp2) files.emplace_back("inrarch_exp2_rom.hex", hex_of(exp2_table()));
  if (log1p) files.emplace_back("inrarch_log1p_rom.hex", hex_of(log1p_table()));
  return files;
}

}  // namespace inrarch::rtl::detail
