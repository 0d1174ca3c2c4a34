// The design verifier (dataflow/verify.h): every lowered design passes it, and each invariant
// broken on purpose is caught with a message naming the process or stream. This file also
// turns the back half's verify-each hook on for the whole test binary, so every lowering,
// search candidate, apply_parallelism and set_depths of every test is verified.
#include <gtest/gtest.h>

#include <functional>
#include <string>

#include "dataflow/attributes.h"
#include "dataflow/dse.h"
#include "dataflow/event_graph.h"
#include "dataflow/fifo_sizing.h"
#include "dataflow/lower.h"
#include "dataflow/verify.h"

namespace inrarch::dataflow {
namespace {

// Every test of the binary runs with the hook on (a static registration: gtest_main's
// RUN_ALL_TESTS sets the environment up before the first test).
class VerifyEachEnvironment : public ::testing::Environment {
 public:
  void SetUp() override { set_verify_each(true); }
};
[[maybe_unused]] ::testing::Environment* const kVerifyEach =
    ::testing::AddGlobalTestEnvironment(new VerifyEachEnvironment);

// x [4,3] -> mul 30 -> sin -> (copy) -> mm W^T [3,5] -> out y; sin + 1 -> out z; a permute
// and a select of x for the attribute checks. Live numbering: x0 w1 c2 mul3 sin4 t5 mm6 c7
// add8 (as Lower.CopiesConstantsAndNames), then q, permute, select.
ir::Graph graph() {
  ir::Graph g;
  ir::NodeId x = g.input("x", {4, 3});
  ir::NodeId w = g.param("w", {5, 3});
  ir::NodeId s = g.unary(ir::Op::Sin, g.binary(ir::Op::Mul, x, g.constant(30.0, {4, 3})));
  g.add_output("y", g.mm(s, g.transpose(w)));
  g.add_output("z", g.binary(ir::Op::Add, s, g.constant(1.0, {4, 3})));
  g.add_output("p", g.permute(g.input("q", {2, 3, 4}), {2, 0, 1}));
  g.add_output("r", g.select(x, 1, 2));
  return g;
}

Design lowered() {
  LowerOptions o;
  o.mm_par = 2;
  Design d = lower(graph(), o);
  verify(d);
  return d;
}

ProcessId find(const Design& d, const std::string& name) {
  ProcessId p = d.find_process(name);
  EXPECT_GE(p, 0) << name;
  return p;
}

StreamId input_of(const Design& d, const std::string& process) { return d.processes[find(d, process)].inputs.at(0); }

// The verifier rejects d with a message holding every one of `parts`.
void expect_rejected(const Design& d, std::initializer_list<std::string> parts) {
  try {
    verify(d);
    ADD_FAILURE() << "verify accepted the design";
  } catch (const Error& e) {
    const std::string m = e.what();
    EXPECT_EQ(m.rfind("design verifier: ", 0), 0u) << m;
    for (const std::string& p : parts) EXPECT_NE(m.find(p), std::string::npos) << "no '" << p << "' in: " << m;
  }
}

// A broken copy of the lowered design.
Design broken(const std::function<void(Design&)>& edit) {
  Design d = lowered();
  edit(d);
  return d;
}

TEST(DesignVerify, LoweredSearchedAndSizedDesignsPass) {
  for (int64_t block : {1, 2, 4})
    for (Fanout f : {Fanout::Star, Fanout::Chain}) {
      LowerOptions o;
      o.block = block;
      o.mm_par = 3;
      o.fanout = f;
      Design d = lower(graph(), o);
      EXPECT_NO_THROW(verify(d)) << block;
      EventGraph eg(d);
      d.set_depths(size_fifos(eg, SizingOptions{}).depths);
      EXPECT_NO_THROW(verify(d, "FIFO sizing"));
    }
  Design d = lowered();
  DseOptions o;
  DseResult r = search_parallelism(d, o);  // each candidate verified by the hook
  apply_parallelism(d, r.choice);
  EXPECT_NO_THROW(verify(d));
}

TEST(DesignVerify, DuplicateProcessName) {
  expect_rejected(broken([](Design& d) { d.processes[find(d, "sin_4")].name = "mul_3"; }),
                  {"process mul_3", "a second process of this name"});
}

TEST(DesignVerify, ProcessNameNotAnIdentifier) {
  expect_rejected(broken([](Design& d) { d.processes[find(d, "sin_4")].name = "sin 4"; }),
                  {"process sin 4", "not a C identifier"});
}

TEST(DesignVerify, DuplicateStreamName) {
  expect_rejected(broken([](Design& d) { d.streams[1].name = d.streams[0].name; }),
                  {"stream " + lowered().streams[0].name, "a second stream of this name"});
}

TEST(DesignVerify, StreamNotListedByItsProducer) {
  Design d = lowered();
  const StreamId s = input_of(d, "sin_4");  // mul_3 -> sin_4
  d.processes[find(d, "mul_3")].outputs.clear();
  expect_rejected(d, {"stream " + d.streams[s].name, "its producer mul_3 lists it 0 times among its outputs"});
}

TEST(DesignVerify, StreamListedTwiceByItsConsumer) {
  Design d = lowered();
  const StreamId s = input_of(d, "sin_4");
  d.processes[find(d, "sin_4")].inputs.push_back(s);
  expect_rejected(d, {"stream " + d.streams[s].name, "its consumer sin_4 lists it 2 times among its inputs"});
}

TEST(DesignVerify, ProcessListsAStreamItIsNotTheEndOf) {
  Design d = lowered();
  const StreamId s = input_of(d, "sin_4");
  d.processes[find(d, "out_y")].inputs.push_back(s);
  // The stream's own check comes first only when its consumer lists it wrongly; here the
  // stream is fine and the process is not.
  expect_rejected(d, {"process out_y", "lists " + d.streams[s].name + " among its inputs but is not its consumer"});
}

TEST(DesignVerify, StreamProducerOutOfRange) {
  Design d = lowered();
  d.streams[0].producer = 99;
  expect_rejected(d, {"stream " + d.streams[0].name, "producer 99 is not a process"});
}

TEST(DesignVerify, SlotOutOfRange) {
  Design d = lowered();
  const StreamId s = input_of(d, "sin_4");
  d.streams[s].slot = 3;
  expect_rejected(d, {"process sin_4", "operand 0 is " + d.streams[s].name + ", whose consumer is sin_4 at slot 3"});
}

TEST(DesignVerify, DepthBelowOne) {
  Design d = lowered();
  d.streams[2].depth = 0;
  expect_rejected(d, {"stream " + d.streams[2].name, "depth 0 is below 1"});
}

TEST(DesignVerify, BlockBelowOne) {
  Design d = lowered();
  d.streams[0].block = 0;
  expect_rejected(d, {"stream " + d.streams[0].name, "block 0 is outside 1 to 65536"});
}

TEST(DesignVerify, BlockStraddlesARow) {
  // [4,3] at block 2: 12 elements split evenly, but a beat would hold the end of one row
  // and the start of the next (stream_block picks divisors of the last dim).
  Design d = lowered();
  const StreamId s = input_of(d, "sin_4");
  d.streams[s].block = 2;
  expect_rejected(d, {"stream " + d.streams[s].name, "block 2 does not divide 3", "straddle a row"});
}

TEST(DesignVerify, MmLanesBelowOne) {
  Design d = lowered();
  d.processes[find(d, "mm_6")].mm_lanes = 0;
  expect_rejected(d, {"process mm_6", "mm_lanes 0 is below 1"});
}

TEST(DesignVerify, MmLanesAboveTheWorkOfABeat) {
  Design d = lowered();  // block 1, K = 3: a beat is 3 products
  Process& mm = d.processes[find(d, "mm_6")];
  mm.mm_par = mm.mm_lanes = 4;
  expect_rejected(d, {"process mm_6", "mm_lanes 4 is above the 3 products of an output beat"});
}

TEST(DesignVerify, MmLanesDisagreeWithTheLaneRule) {
  Design d = lowered();
  Process& mm = d.processes[find(d, "mm_6")];
  mm.mm_par = 3;  // mm_lanes still 2: not set through set_mm_par
  expect_rejected(d, {"process mm_6", "mm_lanes 2 but the lane rule gives min(mm_par 3, bC*K 3) = 3"});
}

TEST(DesignVerify, MacsOnAKernelThatIsNotAnMm) {
  Design d = lowered();
  d.processes[find(d, "sin_4")].mm_par = 4;
  expect_rejected(d, {"process sin_4", "only an mm has MACs"});
}

TEST(DesignVerify, OperandsDisagreeWithTheOpsArity) {
  Design d = lowered();
  Process& sin = d.processes[find(d, "sin_4")];
  sin.operands.push_back(sin.operands[0]);
  sin.operands.back().stream = -1;
  sin.operands.back().static_node = 0;
  expect_rejected(d, {"process sin_4", "sin takes 1 operands, the process has 2"});
}

TEST(DesignVerify, OperandBothStreamedAndConstant) {
  Design d = lowered();
  d.processes[find(d, "sin_4")].operands[0].static_node = 0;
  expect_rejected(d, {"process sin_4", "operand 0 is both streamed and constant"});
}

TEST(DesignVerify, OperandShapeDisagreesWithItsStream) {
  Design d = lowered();
  d.processes[find(d, "sin_4")].operands[0].shape = {3, 4};
  expect_rejected(d, {"process sin_4", "operand 0 has shape [3,4] but its stream"});
}

TEST(DesignVerify, KindDisagreesWithTheOp) {
  Design d = lowered();
  d.processes[find(d, "sin_4")].kind = Kind::ExpandMap;
  expect_rejected(d, {"process sin_4", "a gather process computing sin"});
}

TEST(DesignVerify, CopyOutputsOfAnotherBlock) {
  Design d = lowered();
  const Process& copy = d.processes[find(d, "copy_sin_4")];
  const StreamId out = copy.outputs.at(0);
  d.streams[out].block = 3;
  expect_rejected(d, {"process copy_sin_4", "copies", "block 3"});
}

TEST(DesignVerify, PermutationOutOfRange) {
  Design d = lowered();
  ProcessId p = -1;
  for (size_t i = 0; i < d.processes.size(); ++i)
    if (d.processes[i].kind == Kind::Permute) p = ProcessId(i);
  ASSERT_GE(p, 0);
  d.processes[p].attrs.perm = {2, 0, 3};
  expect_rejected(d, {"process " + d.processes[p].name, "perm [2,0,3] is not a permutation of the 3 dims"});
}

TEST(DesignVerify, SelectIndexOutOfRange) {
  Design d = lowered();
  ProcessId p = -1;
  for (size_t i = 0; i < d.processes.size(); ++i)
    if (d.processes[i].op == ir::Op::Select) p = ProcessId(i);
  ASSERT_GE(p, 0);
  d.processes[p].attrs.index = 3;  // dim 1 has 3 elements
  expect_rejected(d, {"process " + d.processes[p].name, "index 3 is out of range for a dim of 3"});
}

TEST(DesignVerify, CustomStepOnAnotherProcesssStream) {
  Design d;
  Process a, b, c;
  a.name = "a", b.name = "b", c.name = "c";
  d.add_process(a);
  d.add_process(b);
  d.add_process(c);
  StreamId ab = d.add_stream(Stream{"ab", 0, 1, 0, {4}, 1, 2, 32});
  StreamId bc = d.add_stream(Stream{"bc", 1, 2, 0, {4}, 1, 2, 32});
  for (int i = 0; i < 4; ++i) {
    d.processes[0].custom_steps.push_back({1, {{ab, true}}});
    d.processes[1].custom_steps.push_back({1, {{ab, false}, {bc, true}}});
    d.processes[2].custom_steps.push_back({1, {{bc, false}}});
  }
  EXPECT_NO_THROW(verify(d));
  d.processes[2].custom_steps[1].ops[0] = {ab, false};
  expect_rejected(d, {"process c", "custom step 1 reads stream 0, which it is not the consumer of"});
  d.processes[2].custom_steps[1] = {0, {{bc, false}}};
  expect_rejected(d, {"process c", "custom step 1 has delay 0"});
}

// The steps name themselves: verify(d, after) and the hook's messages say which step.
TEST(DesignVerify, TheHookNamesTheStep) {
  ASSERT_TRUE(verify_each());
  Design d = lowered();
  std::vector<int64_t> depths = d.depths();
  depths[0] = 0;
  try {
    d.set_depths(depths);
    ADD_FAILURE() << "set_depths accepted depth 0";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("design verifier (after set_depths): stream " + d.streams[0].name),
              std::string::npos)
        << e.what();
  }
  {
    ScopedVerifyEach off(false);
    EXPECT_NO_THROW(d.set_depths(depths));  // off: nothing checked
  }
  EXPECT_TRUE(verify_each());
}

}  // namespace
}  // namespace inrarch::dataflow
