// Bit access to Verilator ports of any width (CData ... QData, or VlWide past 64 bits), for
// the generated testbenches (tb_main.cpp, tb_kernel.cpp). Include after verilated.h.
#pragma once

#include <cstdint>

namespace inrarch_tb {

template <class P> uint64_t get_bits(const P& p, int off, int w) {
  return (uint64_t(p) >> off) & (w == 64 ? ~0ull : (1ull << w) - 1);
}
template <std::size_t N> uint64_t get_bits(const VlWide<N>& p, int off, int w) {
  uint64_t v = 0;
  for (int i = 0; i < w; ++i) v |= uint64_t((p.data()[(off + i) / 32] >> ((off + i) % 32)) & 1) << i;
  return v;
}
template <class P> void put_bits(P& p, int off, int w, uint64_t v) {
  const uint64_t m = (w == 64 ? ~0ull : (1ull << w) - 1) << off;
  p = P((uint64_t(p) & ~m) | ((v << off) & m));
}
template <std::size_t N> void put_bits(VlWide<N>& p, int off, int w, uint64_t v) {
  for (int i = 0; i < w; ++i) {
    uint32_t& word = p.data()[(off + i) / 32];
    const uint32_t bit = 1u << ((off + i) % 32);
    word = ((v >> i) & 1) ? (word | bit) : (word & ~bit);
  }
}

}  // namespace inrarch_tb
