// Range safety of the kernel library (array_stream.h fit, docs/hls.md "Range safety"):
// every conversion of a result into the number type that does not fit is counted, the
// in-range ones are not, and the kernels route their results through it.
#include <gtest/gtest.h>

#include "backend/hls/include/inrarch/kernels.h"

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
  const T wrapped = inrarch_hls::fit<T>(8.0);  // wraps to -8, as ap_fixed does
  EXPECT_EQ(wrapped.to_double(), -8.0);
  EXPECT_EQ(c.count(), 1u);
  inrarch_hls::fit<T>(-8.001);
  inrarch_hls::fit<T>(1e6);
  EXPECT_EQ(c.count(), 3u);
  inrarch_hls::fit<float>(1e30);  // floating point has no range to leave here
  EXPECT_EQ(c.count(), 3u);
}

TEST(RangeCheck, OperatorsCountTheirOverflows) {
  CountFromZero c;
  EXPECT_EQ(inrarch_hls::op_add::apply(T(3), T(4)).to_double(), 7.0);
  EXPECT_EQ(inrarch_hls::op_mul::apply(T(2), T(3.5)).to_double(), 7.0);
  EXPECT_EQ(c.count(), 0u);
  inrarch_hls::op_add::apply(T(5), T(4));  // 9
  inrarch_hls::op_mul::apply(T(3), T(3));  // 9
  inrarch_hls::op_neg::apply(T(-8));       // 8
  inrarch_hls::op_exp::apply(T(3));        // e^3 = 20: saturated, counted
  EXPECT_EQ(c.count(), 4u);
  // A scaled sum whose result exponent leaves no room (stored value * 2^2 = 36).
  inrarch_hls::scaled2<inrarch_hls::op_add, 0, 0, 2>::apply(T(5), T(4));
  EXPECT_EQ(c.count(), 5u);
}

TEST(RangeCheck, AKernelCountsWhatItWrites) {
  typedef inrarch_hls::array_stream<T, inrarch_hls::shape<1, 4>, 1> S;
  auto fill = [](S& s) {
    for (double v : {1.0, 2.0, 3.0, 4.0}) {
      inrarch_hls::beat<T, 1> b;
      b.v[0] = T(v);
      s.write(b);
    }
  };
  CountFromZero c;
  S a("a"), b("b"), sq("sq");
  fill(a);
  fill(b);
  // x * x: 1 and 4 fit, 9 and 16 do not.
  inrarch_hls::binary<inrarch_hls::op_mul>(1, inrarch_hls::streamed(a), inrarch_hls::streamed(b), sq);
  EXPECT_EQ(c.count(), 2u);
}

}  // namespace
