// INR-Arch HLS testbench helpers for the memory-mapped kernel (kernel/kernel_tb.cpp; not
// synthesised): the host's side of the memory layout (docs/hls.md "Memory-mapped kernel")
// and the comparison of the kernel's output buffers with the stream top's own outputs.
#ifndef INRARCH_HLS_AXI_TB_H
#define INRARCH_HLS_AXI_TB_H

#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "axi_movers.h"
#include "tb_util.h"

namespace inrarch_hls {
namespace tb {

// The containers of a port S's elements, encoded as the host does: each value floored
// onto the type's grid and saturated (NaN -> 0) exactly as feed() does, through fit(), so
// C simulation counts an input that had to saturate as the stream testbench does.
template <class S>
std::vector<typename axi::container<typename S::elem_type>::type> encode(const std::vector<double>& v) {
  typedef typename S::elem_type T;
  std::vector<typename axi::container<T>::type> m(v.size());
  for (std::size_t i = 0; i < v.size(); ++i) m[i] = axi::container<T>::encode(fit<T>(v[i]));
  return m;
}

// The values of a port S's output buffer.
template <class S>
std::vector<double> decode(const std::vector<typename axi::container<typename S::elem_type>::type>& m) {
  typedef typename S::elem_type T;
  std::vector<double> v(m.size());
  for (std::size_t i = 0; i < m.size(); ++i) v[i] = to_double(axi::container<T>::decode(m[i]));
  return v;
}

// Drains rows samples of s (the stream top's output port) and compares each element's
// container with the kernel's buffer m, bit for bit; prints the first difference. True
// when every container is equal.
template <class S>
bool same_bits(const char* port, S& s, int rows,
               const std::vector<typename axi::container<typename S::elem_type>::type>& m) {
  typedef typename S::elem_type T;
  typedef typename axi::container<T>::type C;
  bool same = true;
  for (int i = 0; i < rows * S::beats; ++i) {
    typename S::beat_type b = s.read();
    for (int e = 0; e < S::block; ++e) {
      const std::size_t at = std::size_t(i) * S::block + e;
      const C want = axi::container<T>::encode(b.v[e]);
      if (same && (at >= m.size() || std::memcmp(&want, &m[at], sizeof(C)) != 0)) {
        std::printf("kernel: %s element %zu differs from the stream top's\n", port, at);
        same = false;
      }
    }
  }
  return same;
}

}  // namespace tb
}  // namespace inrarch_hls

#endif  // INRARCH_HLS_AXI_TB_H
