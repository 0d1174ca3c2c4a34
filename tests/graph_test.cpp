#include "ir/graph.h"

#include <gtest/gtest.h>

#include "support/error.h"

namespace inrarch::ir {
namespace {

TEST(Graph, HashConsingReturnsExistingNode) {
  Graph g;
  NodeId x = g.input("x", {4, 3});
  NodeId a = g.unary(Op::Sin, x);
  NodeId b = g.unary(Op::Sin, x);
  EXPECT_EQ(a, b);
  EXPECT_EQ(g.size(), 2u);
  EXPECT_NE(g.unary(Op::Cos, x), a);
}

TEST(Graph, CommutativeOperandsAreCanonical) {
  Graph g;
  NodeId x = g.input("x", {2, 2});
  NodeId y = g.input("y", {2, 2});
  EXPECT_EQ(g.binary(Op::Add, x, y), g.binary(Op::Add, y, x));
  EXPECT_NE(g.binary(Op::Sub, x, y), g.binary(Op::Sub, y, x));
}

TEST(Graph, ShapeInference) {
  Graph g;
  NodeId x = g.input("x", {64, 2});
  NodeId w = g.param("w", {256, 2});
  NodeId h = g.mm(x, g.transpose(w));
  EXPECT_EQ(g.shape(h), (Shape{64, 256}));
  EXPECT_EQ(g.shape(g.select(h, -1, 3)), (Shape{64}));
  EXPECT_EQ(g.shape(g.unsqueeze(g.param("b", {256}), -2)), (Shape{1, 256}));
  EXPECT_EQ(g.shape(g.sum(h, {0}, true)), (Shape{1, 256}));
  EXPECT_EQ(g.shape(g.slice(h, 1, 10, 20, 3)), (Shape{64, 4}));
  EXPECT_EQ(g.shape(g.cat({h, h}, 0)), (Shape{128, 256}));
  EXPECT_EQ(g.shape(g.permute(h, {1, 0})), (Shape{256, 64}));
}

TEST(Graph, ShapeErrorsNameTheOp) {
  Graph g;
  NodeId x = g.input("x", {4, 3});
  NodeId y = g.input("y", {3, 4});
  EXPECT_THROW(g.binary(Op::Add, x, y), Error);
  EXPECT_THROW(g.mm(x, x), Error);
  EXPECT_THROW(g.select(x, 2, 0), Error);
  EXPECT_THROW(g.select(x, 0, 4), Error);
  EXPECT_THROW(g.expand(x, {4, 6}), Error);
  EXPECT_THROW(g.input("x", {5}), Error);
  try {
    g.mm(x, x);
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("mm"), std::string::npos);
  }
}

TEST(Graph, VerifyAcceptsBuiltGraph) {
  Graph g;
  NodeId x = g.input("x", {4, 3});
  g.add_output("y", g.unary(Op::Exp, x));
  EXPECT_NO_THROW(verify(g));
  EXPECT_EQ(count_op_nodes(g), 1u);
}

}  // namespace
}  // namespace inrarch::ir
