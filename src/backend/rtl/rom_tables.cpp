// The tables the RTL lanes read (inrarch_lane_sin, inrarch_lane_explog), as .hex files: the
// HLS library's own entries (inrarch/rom_tables.h, which its ROMs are built from), so the
// two back ends agree bit for bit by construction.
#include <fmt/format.h>

#include "backend/rtl/rtl_detail.h"
#include "inrarch/rom_tables.h"

namespace inrarch::rtl::detail {

namespace {

constexpr int kRomSize = 1025;  // the lanes' tables: fixed_math.h kSinRomSize, fixed_exp_log.h kExpLogRomSize

template <typename Word>
std::string hex_of(const std::vector<Word>& v, int digits) {
  std::string s;
  for (Word x : v) s += fmt::format("{:0{}x}\n", x, digits);
  return s;
}

template <typename Word>
std::vector<Word> table(Word (*entry)(int, int)) {
  std::vector<Word> v(kRomSize);
  for (int i = 0; i < kRomSize; ++i) v[i] = entry(i, kRomSize);
  return v;
}

}  // namespace

std::vector<uint32_t> sin_table() { return table(inrarch_hls::sin_rom_entry); }
// Each .hex file holds entries 0 .. 1023, a block RAM's depth (Yosys 0.23 builds a
// 1,025-word table from LUTs); the lanes hold entry 1024 as their constant LAST: sin(π/2) =
// 1.0 (0x80000000 in Q1.31), 2^1 = 2.0 and ln 2 in Q.32.
template <typename Word>
std::string block_ram_hex(std::vector<Word> v, int digits) {
  v.pop_back();
  return hex_of(v, digits);
}

std::string sin_table_hex() { return block_ram_hex(sin_table(), 8); }
std::vector<uint64_t> exp2_table() { return table(inrarch_hls::exp2_rom_entry); }
std::vector<uint64_t> log1p_table() { return table(inrarch_hls::log1p_rom_entry); }

std::vector<std::pair<std::string, std::string>> explog_table_files(const dataflow::Design& d) {
  bool exp2 = false, log1p = false;
  for (const auto& p : d.processes) {
    if (p.kind != dataflow::Kind::Unary) continue;
    exp2 = exp2 || p.op == ir::Op::Exp || p.op == ir::Op::Tanh;
    log1p = log1p || p.op == ir::Op::Log;
  }
  std::vector<std::pair<std::string, std::string>> files;
  if (exp2) files.emplace_back("inrarch_exp2_rom.hex", block_ram_hex(exp2_table(), 9));
  if (log1p) files.emplace_back("inrarch_log1p_rom.hex", block_ram_hex(log1p_table(), 9));
  return files;
}

}  // namespace inrarch::rtl::detail
