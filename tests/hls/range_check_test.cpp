// Range safety of the kernel library (array_stream.h fit, docs/hls.md "Range safety"):
// every conversion of a result into the number type that does not fit is counted, the
// in-range ones are not, and the kernels route their results through it.
#include <gtest/gtest.h>

#include <cmath>
#include <initializer_list>
#include <utility>
#include <vector>

#include "backend/hls/include/inrarch/kernels.h"
#include "backend/hls/include/inrarch/tb_util.h"

namespace {

typedef ap_fixed<16, 4> T;  // [-8, 8)

struct CountFromZero {
  CountFromZero() { inrarch_hls::overflows().count = 0; }
  unsigned long long count() const { return inrarch_hls::overflows().count; }
};

TEST(RangeCheck, FitCountsOnlyValuesOutsideTheType) {
  CountFromZero c;
  EXPECT_EQ(inrarch_hls::fit<T>(7.99).to_double(), T(7.99).to_double());
  EXPECT_EQ(inrarch_hls::fit<T>(-8.0).to_double(), -8.0);
  EXPECT_EQ(c.count(), 0u);
  const double max = 8.0 - std::ldexp(1.0, -12);
  const T saturated = inrarch_hls::fit<T>(8.0);  // the largest value, where AP_WRAP gives -8
  EXPECT_EQ(saturated.to_double(), max);
  EXPECT_EQ(c.count(), 1u);
  EXPECT_EQ(inrarch_hls::fit<T>(-8.001).to_double(), -8.0);
  EXPECT_EQ(inrarch_hls::fit<T>(1e6).to_double(), max);
  EXPECT_EQ(c.count(), 3u);
  inrarch_hls::fit<float>(1e30);  // floating point has no range to leave here
  EXPECT_EQ(c.count(), 3u);
}

TEST(RangeCheck, FitSaysWhetherItSaturated) {
  bool ovf = false;
  EXPECT_EQ(inrarch_hls::fit<T>(T(3) + T(4), ovf).to_double(), 7.0);
  EXPECT_EQ(inrarch_hls::fit<T>(T(-4) - T(4), ovf).to_double(), -8.0);  // -8 fits
  EXPECT_FALSE(ovf);
  // Fixed-point sums one past either end: clamped, not wrapped to the other end.
  EXPECT_EQ(inrarch_hls::fit<T>(T(5) + T(4), ovf).to_double(), 8.0 - std::ldexp(1.0, -12));
  EXPECT_TRUE(ovf);
  bool low = false;
  EXPECT_EQ(inrarch_hls::fit<T>(T(-5) - T(4), low).to_double(), -8.0);
  EXPECT_TRUE(low);
  bool sticky = true;  // it only ever sets the bit
  inrarch_hls::fit<T>(T(1), sticky);
  EXPECT_TRUE(sticky);
}

TEST(RangeCheck, OperatorsCountTheirOverflows) {
  CountFromZero c;
  bool o = false;
  EXPECT_EQ(inrarch_hls::op_add::apply(T(3), T(4), o).to_double(), 7.0);
  EXPECT_EQ(inrarch_hls::op_mul::apply(T(2), T(3.5), o).to_double(), 7.0);
  EXPECT_EQ(c.count(), 0u);
  EXPECT_FALSE(o);
  const double max = 8.0 - std::ldexp(1.0, -12);
  for (T r : {inrarch_hls::op_add::apply(T(5), T(4), o),  // 9
              inrarch_hls::op_mul::apply(T(3), T(3), o),  // 9
              inrarch_hls::op_neg::apply(T(-8), o),       // 8
              inrarch_hls::op_exp::apply(T(3), o)}) {     // e^3 = 20
    EXPECT_EQ(r.to_double(), max);
  }
  EXPECT_TRUE(o);
  EXPECT_EQ(c.count(), 4u);
  // A scaled sum whose result exponent leaves no room (stored value * 2^2 = 36).
  bool s = false;
  EXPECT_EQ((inrarch_hls::scaled2<inrarch_hls::op_add, 0, 0, 2>::apply(T(5), T(4), s).to_double()), max);
  EXPECT_TRUE(s);
  EXPECT_EQ(c.count(), 5u);
}

typedef inrarch_hls::array_stream<T, inrarch_hls::shape<1, 4>, 1> S;

void fill(S& s, std::initializer_list<double> values) {
  for (double v : values) {
    inrarch_hls::beat<T, 1> b = inrarch_hls::beat<T, 1>();
    b.v[0] = T(v);
    s.write(b);
  }
}

// The values and the ovf bits of the beats of a stream.
std::pair<std::vector<double>, std::vector<bool> > take(S& s) {
  std::pair<std::vector<double>, std::vector<bool> > r;
  while (!s.empty()) {
    inrarch_hls::beat<T, 1> b = s.read();
    r.first.push_back(b.v[0].to_double());
    r.second.push_back(b.ovf);
  }
  return r;
}

TEST(RangeCheck, AKernelSaturatesAndFlagsWhatItWrites) {
  CountFromZero c;
  S a("a"), b("b"), sq("sq");
  fill(a, {1, 2, 3, 4});
  fill(b, {1, 2, 3, 4});
  // x * x: 1 and 4 fit, 9 and 16 do not: both saturate to the max, and from the first
  // one on every beat carries the (sticky) ovf bit; the flag of the port is set.
  bool flag = false;
  inrarch_hls::binary<inrarch_hls::op_mul>(1, inrarch_hls::streamed(a), inrarch_hls::streamed(b), sq, flag);
  EXPECT_EQ(c.count(), 2u);
  const double max = 8.0 - std::ldexp(1.0, -12);
  auto got = take(sq);
  EXPECT_EQ(got.first, (std::vector<double>{1, 4, max, max}));
  EXPECT_EQ(got.second, (std::vector<bool>{false, false, true, true}));
  EXPECT_TRUE(flag);
}

// add -> copy -> gather (slice) -> mm: a saturation in the first kernel reaches the
// flag of the port the last one writes; within the range every bit stays 0.
bool chain(std::initializer_list<double> x, std::vector<double>* out) {
  typedef inrarch_hls::array_stream<T, inrarch_hls::shape<1, 4>, 2> S2;
  typedef inrarch_hls::array_stream<T, inrarch_hls::shape<1, 2>, 1> H;
  typedef inrarch_hls::array_stream<T, inrarch_hls::shape<1, 1>, 1> O;
  S2 in("in"), r("r"), c0("c0"), c1("c1");
  H h("h");
  O o("o");
  inrarch_hls::tb::feed(in, std::vector<double>(x));
  inrarch_hls::binary<inrarch_hls::op_add>(1, inrarch_hls::streamed(in), inrarch_hls::splat(T(4)), r);
  inrarch_hls::copy_stream(1, r, c0, c1);
  inrarch_hls::gather<inrarch_hls::map_slice<inrarch_hls::shape<1, 4>, inrarch_hls::shape<1, 2>, 1, 0, 1> >(1, h, c0);
  const T ones[2] = {T(1), T(1)};
  bool flag = false;
  inrarch_hls::mm_rom_b<1>(1, h, ones, o, flag);
  while (!c1.empty()) c1.read();
  *out = inrarch_hls::tb::drain(o, 1);
  return flag;
}

TEST(RangeCheck, AChainCarriesTheFlagToThePort) {
  std::vector<double> out;
  CountFromZero c;
  EXPECT_FALSE(chain({-3, -2, 0, 0}, &out));  // (-3 + 4) + (-2 + 4): all within the range
  EXPECT_EQ(out, std::vector<double>{3.0});
  EXPECT_EQ(c.count(), 0u);
  // 5 + 4 saturates in the first kernel; copy, slice and mm carry the bit to the port.
  const double max = 8.0 - std::ldexp(1.0, -12);
  EXPECT_TRUE(chain({5, -7.5, 0, 0}, &out));
  EXPECT_EQ(out, std::vector<double>{max - 3.5});
  EXPECT_EQ(c.count(), 1u);
  // A saturated value that the slice discards, read after its last output beat: counted,
  // not flagged (docs/hls.md "Range safety": it cannot reach the output).
  EXPECT_FALSE(chain({-2, -2, 5, 0}, &out));
  EXPECT_EQ(out, std::vector<double>{4.0});
  EXPECT_EQ(c.count(), 2u);
}

}  // namespace
