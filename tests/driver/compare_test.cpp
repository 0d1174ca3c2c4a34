// driver::compare_outputs: per output and per output column, by hand.
#include <gtest/gtest.h>

#include "driver/compare.h"

namespace inrarch::driver {
namespace {

TEST(Compare, PerOutputAndPerColumn) {
  ir::Graph g("t");
  ir::NodeId x = g.input("x", {2, 2});
  g.add_output("y", x);
  g.add_output("z", x);
  ir::Tensor want_y{{2, 2}, {100, 0.1, -50, 0.05}}, got_y{{2, 2}, {101, 0.11, -52, 0.045}};
  ir::Tensor want_z{{2, 2}, {1, 1, 1, 1}}, got_z{{2, 2}, {1, 1, 1.5, 1}};
  Comparison c = compare_outputs(g, {got_y, got_z}, {{"y", want_y}, {"z", want_z}});
  ASSERT_EQ(c.outputs.size(), 2u);
  EXPECT_DOUBLE_EQ(c.outputs[0].max_abs, 2.0);
  EXPECT_DOUBLE_EQ(c.outputs[0].rel, 0.02);
  EXPECT_EQ(c.outputs[0].worst_column, 1);
  EXPECT_NEAR(c.outputs[0].column_rel, 0.1, 1e-12);
  EXPECT_DOUBLE_EQ(c.outputs[1].rel, 0.5);
  EXPECT_EQ(c.outputs[1].worst_column, 0);
  EXPECT_EQ(c.worst_name, "z");  // judged per tensor
  EXPECT_DOUBLE_EQ(c.worst_rel, 0.5);
  EXPECT_DOUBLE_EQ(c.worst_abs, 2.0);
  EXPECT_EQ(c.worst_column_name, "z");
  EXPECT_DOUBLE_EQ(c.worst_column_rel, 0.5);
}

TEST(Compare, SmallColumnIsTheWorstColumn) {
  ir::Graph g("t");
  g.add_output("y", g.input("x", {2, 2}));
  ir::Tensor want{{2, 2}, {100, 0.1, -50, 0.05}}, got{{2, 2}, {100, 0.11, -50, 0.05}};
  Comparison c = compare_outputs(g, {got}, {{"y", want}});
  EXPECT_NEAR(c.worst_rel, 1e-4, 1e-12);
  EXPECT_EQ(c.worst_column_name, "y");
  EXPECT_EQ(c.worst_column, 1);
  EXPECT_NEAR(c.worst_column_rel, 0.1, 1e-12);
}

}  // namespace
}  // namespace inrarch::driver
