// The host runtime's encoding of tensors into the memory layout (docs/deploy.md "Memory
// layout"), worked by hand: floor onto the grid, saturate, NaN to 0, sign-extended
// little-endian containers; and decoding back.
#include <gtest/gtest.h>

#include <cmath>

#include "runtime/runtime.h"

namespace inrarch::runtime {
namespace {

rtl::KernelInterface fixed16() {  // fixed<16,6>: 10 fraction bits, 16-bit containers
  rtl::KernelInterface k;
  k.width = 16;
  k.frac = 10;
  rtl::KernelPort p;
  p.shape = {4};
  p.elements = 4;
  p.container_bits = 16;
  p.bytes = 8;
  k.ports.push_back(p);
  return k;
}

TEST(RuntimeEncoding, FloorsSaturatesAndSignExtends) {
  const auto k = fixed16();
  ir::Tensor t;
  t.shape = {4};
  t.data = {-1.5, 0.0009, 40.0, std::nan("")};
  bool saturated = false;
  const Bytes b = encode_input(k, k.ports[0], t, &saturated);
  // -1.5 * 1024 = -1536 = 0xFA00; 0.0009 * 1024 = 0.92 floors to 0; 40 saturates to 0x7FFF; NaN: 0
  EXPECT_EQ(b, (Bytes{0x00, 0xFA, 0x00, 0x00, 0xFF, 0x7F, 0x00, 0x00}));
  EXPECT_TRUE(saturated);
  const ir::Tensor back = decode_output(k, k.ports[0], b);
  EXPECT_EQ(back.data, (std::vector<double>{-1.5, 0.0, 32767.0 / 1024, 0.0}));
}

TEST(RuntimeEncoding, NarrowElementsInWiderContainers) {
  rtl::KernelInterface k = fixed16();
  k.width = 12;  // fixed<12,2> in 16-bit containers: the sign reaches bit 15
  bool saturated = false;
  ir::Tensor t;
  t.shape = {4};
  t.data = {-2.0, 1.0, -0.0009765625, 1.9990234375};
  const Bytes b = encode_input(k, k.ports[0], t, &saturated);
  EXPECT_FALSE(saturated);
  EXPECT_EQ(b, (Bytes{0x00, 0xF8, 0x00, 0x04, 0xFF, 0xFF, 0xFF, 0x07}));
  EXPECT_EQ(decode_output(k, k.ports[0], b).data, t.data);
}

TEST(RuntimeInterface, ContainerAndAxiWidths) {
  EXPECT_EQ(rtl::container_bits(8), 8);
  EXPECT_EQ(rtl::container_bits(12), 16);
  EXPECT_EQ(rtl::container_bits(18), 32);
  EXPECT_EQ(rtl::container_bits(33), 64);
  EXPECT_EQ(rtl::axi_data_bits(1, 32), 32);
  EXPECT_EQ(rtl::axi_data_bits(2, 32), 64);
  EXPECT_EQ(rtl::axi_data_bits(3, 32), 128);
  EXPECT_EQ(rtl::axi_data_bits(64, 32), 512);  // capped at 512
}

}  // namespace
}  // namespace inrarch::runtime
