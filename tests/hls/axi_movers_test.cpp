// The memory-mapped kernel's element containers and movers (include/inrarch/axi_movers.h,
// docs/hls.md "Memory-mapped kernel"): container widths, the raw bits sign-extended and
// read back from the low W bits, little-endian bytes, and the movers' beat packing.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <random>
#include <vector>

#include "backend/hls/include/inrarch/axi_movers.h"
#include "backend/hls/include/inrarch/axi_tb.h"

namespace {

namespace axi = inrarch_hls::axi;

TEST(AxiMovers, ContainerIsTheSmallestOf8To64BitsThatHoldsW) {
  EXPECT_EQ(int(axi::container<ap_fixed<2, 1>>::bits), 8);
  EXPECT_EQ(int(axi::container<ap_fixed<8, 4>>::bits), 8);
  EXPECT_EQ(int(axi::container<ap_fixed<9, 4>>::bits), 16);
  EXPECT_EQ(int(axi::container<ap_fixed<16, 4>>::bits), 16);
  EXPECT_EQ(int(axi::container<ap_fixed<17, 4>>::bits), 32);
  EXPECT_EQ(int(axi::container<ap_fixed<32, 10>>::bits), 32);
  EXPECT_EQ(int(axi::container<ap_fixed<33, 10>>::bits), 64);
  EXPECT_EQ(int(axi::container<ap_fixed<64, 12>>::bits), 64);
  EXPECT_EQ(sizeof(axi::container<ap_fixed<12, 4>>::type), 2u);
  EXPECT_EQ(int(axi::container<float>::bits), 32);
  EXPECT_EQ(int(axi::container<double>::bits), 64);
}

// Every raw value comes back as itself, sign-extended to C bits; bits above W in a
// container are not read.
template <int W, int I>
void round_trip(std::mt19937_64& rng) {
  typedef ap_fixed<W, I> T;
  typedef axi::container<T> C;
  const long long lo = W == 64 ? (long long)(1ULL << 63) : -(1LL << (W - 1));
  const long long hi = W == 64 ? (long long)(~0ULL >> 1) : (1LL << (W - 1)) - 1;
  std::uniform_int_distribution<long long> raw(lo, hi);
  for (int i = 0; i < 2000; ++i) {
    const long long r = i == 0 ? lo : i == 1 ? hi : i == 2 ? -1 : raw(rng);
    const T x = T::from_raw(r);
    const typename C::type c = C::encode(x);
    ASSERT_EQ((long long)c, r) << "W=" << W;
    ASSERT_TRUE(C::decode(c).raw() == x.raw()) << "W=" << W;
    if (C::bits > W) {  // garbage above the low W bits
      const unsigned long long junk = ~0ULL << W;
      ASSERT_TRUE(C::decode(typename C::type((long long)((unsigned long long)c ^ junk))).raw() == x.raw());
    }
  }
}

TEST(AxiMovers, RawBitsSignExtendAndReadBackFromTheLowWBits) {
  std::mt19937_64 rng(5);
  round_trip<2, 1>(rng);
  round_trip<8, 4>(rng);
  round_trip<12, 4>(rng);
  round_trip<16, 4>(rng);
  round_trip<20, 8>(rng);
  round_trip<32, 10>(rng);
  round_trip<40, 10>(rng);
  round_trip<64, 12>(rng);
}

TEST(AxiMovers, ContainerBytesAreLittleEndianTwosComplement) {
  typedef ap_fixed<16, 4> T;  // raw = value * 2^12
  const int16_t c = axi::container<T>::encode(T(-1.5));
  unsigned char bytes[2];
  std::memcpy(bytes, &c, 2);
  EXPECT_EQ(bytes[0], 0x00);  // -6144 = 0xE800
  EXPECT_EQ(bytes[1], 0xE8);
  typedef ap_fixed<12, 4> U;  // raw = value * 2^8, 12 bits in 16
  const int16_t d = axi::container<U>::encode(U(-0.5));
  EXPECT_EQ(d, -128);
  EXPECT_EQ(axi::container<U>::decode(int16_t(0x0F80)).to_double(), -0.5);  // 0xF80: -128 in 12 bits
}

// The host's encoding is the stream testbench's feed: floored onto the grid, saturated,
// NaN to 0, and each value out of the range (NaN included) counted.
TEST(AxiMovers, HostEncodingFloorsAndSaturatesAsFeed) {
  typedef inrarch_hls::array_stream<ap_fixed<16, 4>, inrarch_hls::shape<1, 4>, 2> S;
  inrarch_hls::overflows().count = 0;
  const std::vector<int16_t> m = inrarch_hls::tb::encode<S>({0.3, -0.3, 100.0, std::nan("")});
  EXPECT_EQ(m[0], 1228);   // floor(0.3 * 4096)
  EXPECT_EQ(m[1], -1229);  // floor(-0.3 * 4096)
  EXPECT_EQ(m[2], 32767);  // the largest value
  EXPECT_EQ(m[3], 0);
  EXPECT_EQ(inrarch_hls::overflows().count, 2u);  // 100 and NaN, as feed counts them
  inrarch_hls::overflows().count = 0;
}

// Memory -> beats -> memory: beat i carries containers i*B .. i*B + B - 1, ovf 0.
TEST(AxiMovers, MoversPackBeatsInStreamOrder) {
  typedef ap_fixed<20, 6> T;
  typedef inrarch_hls::array_stream<T, inrarch_hls::shape<2, 4>, 2> S;
  const int rows = 3, n = rows * S::numel;
  std::vector<int32_t> in(n), out(n, 0x55555555);
  for (int i = 0; i < n; ++i) in[i] = (i % 2 ? -1 : 1) * (i * 977 + 3);
  S s("s");
  axi::read_port(in.data(), rows, s);
  ASSERT_EQ(int(s.size()), n / 2);
  std::vector<S::beat_type> beats;
  for (int i = 0; i < n / 2; ++i) beats.push_back(s.read());
  for (int i = 0; i < n / 2; ++i) {
    EXPECT_FALSE(beats[i].ovf);
    for (int e = 0; e < 2; ++e) EXPECT_TRUE(beats[i].v[e].raw() == in[i * 2 + e]) << i << "," << e;
    s.write(beats[i]);
  }
  axi::write_port(s, rows, out.data());
  EXPECT_EQ(out, in);
  EXPECT_TRUE(s.empty());
}

}  // namespace
