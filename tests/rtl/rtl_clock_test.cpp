// The stage budget of the pipelined kernels: every elementwise class and FIFO class of a
// design, synthesized per class by Yosys and timed from its netlist (docs/rtl.md "Timing
// estimate"), meets the U50's 300 MHz. Written against the one-step lanes, whose add
// estimated 91-108 MHz and whose multiply in the fabric 20 (docs/rtl.md "Pipelined lanes"),
// and the FIFOs whose ready and valid were compares of their counts (270 MHz); each of
// those fails it.
#include "rtl_test_util.h"

#include "dataflow/attributes.h"

namespace inrarch::rtl {
namespace {

namespace fs = std::filesystem;
using ir::Op;

// Every simple lane: add, sub, mul of two streams, add of a ROM operand, neg, relu, step.
ir::Bundle simple_lanes() {
  ir::Bundle b{ir::Graph("simple_lanes"), {}, {}, {}};
  ir::Graph& g = b.graph;
  const ir::NodeId x = g.input("x", {4, 8}), z = g.input("z", {4, 8});
  g.add_output("add", g.binary(Op::Add, x, z));
  g.add_output("sub", g.binary(Op::Sub, x, z));
  g.add_output("mul", g.binary(Op::Mul, x, z));
  g.add_output("bias", g.binary(Op::Add, x, g.param("w", {4, 8})));
  g.add_output("neg", g.unary(Op::Neg, x));
  g.add_output("relu", g.unary(Op::Relu, z));
  g.add_output("step", g.unary(Op::Step, z));
  hls::hls_test::fill_bundle(b, 7);
  return b;
}

// Synthesizes the classes matching `classes` and expects each within the clock, every cell
// on its paths costed but a block RAM of kind `uncosted_bram` (RAMB36E2, say), whose
// clock-to-out Yosys ships no figure for: a lane that reads one registers its output.
void expect_every_class_meets_the_clock(const fs::path& rtl, const std::string& classes, size_t at_least,
                                        const std::string& uncosted_bram = "") {
  SynthOptions o;
  o.classes = classes;
  o.jobs = 2;
  const nlohmann::json r = synthesize_classes(rtl, o);
  const nlohmann::json& rows = r["timing"]["by_class"];
  EXPECT_GE(rows.size(), at_least) << r.dump();
  for (const auto& row : rows) {
    SCOPED_TRACE(row.dump());
    for (const auto& note : row["uncosted"])
      EXPECT_TRUE(!uncosted_bram.empty() && note.get<std::string>().rfind(uncosted_bram + ":", 0) == 0) << note;
    EXPECT_TRUE(row["meets_clock"].get<bool>()) << row["class"] << ": " << row["est_fmax_mhz"] << " MHz";
  }
}

// y = op(x, z) of two [2, 4] streams, filled from `seed`.
ir::Bundle two_streams(const std::string& name, Op op, unsigned seed) {
  ir::Bundle b{ir::Graph(name), {}, {}, {}};
  const ir::NodeId x = b.graph.input("x", {2, 4}), z = b.graph.input("z", {2, 4});
  b.graph.add_output("y", b.graph.binary(op, x, z));
  hls::hls_test::fill_bundle(b, seed);
  return b;
}

// b lowered by lo, sized and emitted to RTL in out_dir(name): its classes matching `classes`
// as expect_every_class_meets_the_clock.
void expect_design_meets_the_clock(const ir::Bundle& b, const dataflow::LowerOptions& lo, const std::string& name,
                                   const std::string& classes, size_t at_least, const std::string& uncosted_bram = "") {
  rtl_test::Case c{b, dataflow::lower(b.graph, lo), hls::hls_test::out_dir(name)};
  hls::hls_test::size_design(c.design);
  hls::HlsOptions ho;
  emit_rtl(c.design, c.bundle, driver::rtl_options(c.design, c.bundle, ho), c.dir / "rtl");
  expect_every_class_meets_the_clock(c.dir / "rtl", classes, at_least, uncosted_bram);
}

TEST(RtlClock, SimpleLanesAndRamFifosMeetThreeHundredMegahertz) {
  INRARCH_NEED_TOOL("yosys");
  dataflow::LowerOptions lo;
  lo.block = 2;
  rtl_test::Case c{simple_lanes(), dataflow::lower(simple_lanes().graph, lo), hls::hls_test::out_dir("rtl_clock")};
  hls::hls_test::size_design(c.design);
  std::vector<int64_t> depths = c.design.depths();
  depths[0] = 40;  // one FIFO in RAM
  c.design.set_depths(depths);
  hls::HlsOptions ho;
  emit_rtl(c.design, c.bundle, driver::rtl_options(c.design, c.bundle, ho), c.dir / "rtl");
  // add, sub, mul, the ROM add, neg, relu, step; FIFOs of registers and of RAM.
  expect_every_class_meets_the_clock(c.dir / "rtl", "inrarch_(ew|fifo)", 9);
}

// The multiply in the fabric: a tree of adders a level a stage, each starting at flip-flops.
TEST(RtlClock, MultiplyInTheFabricMeetsThreeHundredMegahertz) {
  INRARCH_NEED_TOOL("yosys");
  const ir::Bundle b = two_streams("fabric_clock", Op::Mul, 3);
  dataflow::LowerOptions lo;
  lo.fabric_elementwise_mul = true;
  expect_design_meets_the_clock(b, lo, "rtl_clock_fabric", "ew2 OP=12", 1);
}

// The sine and cosine lanes: the phase's 27 x 18 tiles, carry-save levels and split sums, the
// table read from a block RAM, the interpolation's tiles and sum, a stage each (one stage of
// 64-bit products and sums, 89-93 MHz, before).
TEST(RtlClock, SineAndCosineLanesMeetThreeHundredMegahertz) {
  INRARCH_NEED_TOOL("yosys");
  ir::Bundle b{ir::Graph("sine_clock"), {}, {}, {}};
  const ir::NodeId x = b.graph.input("x", {2, 4});
  b.graph.add_output("s", b.graph.unary(Op::Sin, x));
  b.graph.add_output("c", b.graph.unary(Op::Cos, x));
  hls::hls_test::fill_bundle(b, 5);
  dataflow::LowerOptions lo;
  lo.block = 2;  // two lanes: the kernel ORs their flags after the lanes' last stage
  expect_design_meets_the_clock(b, lo, "rtl_clock_sine", "ew1 OP=[67]", 2, "RAMB36E2");
}

// exp, log and tanh: the product by log2e in tiles and carry-save levels, log's leading one
// two LUT levels a stage, the table read from a block RAM, the interpolation's tiles and
// sum, the final shift in two stages, tanh's quotient a non-restoring bit a stage (a
// stage of the 64-bit product, one of the interpolation and one of the shift, and two
// restoring quotient bits a stage, before: 49-72 MHz).
TEST(RtlClock, ExpLogAndTanhLanesMeetThreeHundredMegahertz) {
  INRARCH_NEED_TOOL("yosys");
  ir::Bundle b{ir::Graph("explog_clock"), {}, {}, {}};
  const ir::NodeId x = b.graph.input("x", {2, 4});
  b.graph.add_output("e", b.graph.unary(Op::Exp, x));
  b.graph.add_output("l", b.graph.unary(Op::Log, x));
  b.graph.add_output("t", b.graph.unary(Op::Tanh, x));
  hls::hls_test::fill_bundle(b, 6);
  dataflow::LowerOptions lo;
  lo.block = 2;
  expect_design_meets_the_clock(b, lo, "rtl_clock_explog", "ew1 OP=(8|9|10)", 3, "RAMB36E2");
}

// The divider: a non-restoring stage a register, each one carry chain (two restoring stages
// between registers, with the select after each chain, estimated 90 MHz).
TEST(RtlClock, DivisionMeetsThreeHundredMegahertz) {
  INRARCH_NEED_TOOL("yosys");
  const ir::Bundle b = two_streams("div_clock", Op::Div, 7);
  dataflow::LowerOptions lo;
  lo.block = 2;
  expect_design_meets_the_clock(b, lo, "rtl_clock_div", "ew2 OP=11", 1);
}

// The square root: a non-restoring stage a register, subtracting 4q + 1 or adding 4q + 3 as
// one subtraction whose subtrahend the remainder's sign inverts (two stages between
// registers, with the select after each chain, estimated 99 MHz, before).
TEST(RtlClock, SquareRootMeetsThreeHundredMegahertz) {
  INRARCH_NEED_TOOL("yosys");
  ir::Bundle b{ir::Graph("sqrt_clock"), {}, {}, {}};
  const ir::NodeId x = b.graph.input("x", {2, 4});
  b.graph.add_output("y", b.graph.unary(Op::Sqrt, x));
  hls::hls_test::fill_bundle(b, 9);
  dataflow::LowerOptions lo;
  lo.block = 2;
  expect_design_meets_the_clock(b, lo, "rtl_clock_sqrt", "ew1 OP=13", 1);
}

// The simple lanes and the divider at 24-bit lanes, three a beat (the NeRF MLP's kernels at
// `--max-error 1e-3`). neg's saturation compared its registered operand with the minimum
// (a 24-bit compare: two LUTs and their MUXF7/F8) in front of the result register's set pin,
// 292 MHz; the divider's ... 272 MHz.
TEST(RtlClock, NarrowSimpleLanesAndDivisionMeetThreeHundredMegahertz) {
  INRARCH_NEED_TOOL("yosys");
  ir::Bundle b = simple_lanes();
  b.graph.add_output("div", b.graph.binary(Op::Div, b.graph.input("n", {4, 8}), b.graph.input("d", {4, 8})));
  hls::hls_test::fill_bundle(b, 13);
  hls::HlsOptions ho;
  ho.type = hls::parse_number_type("fixed<24,10>");
  rtl_test::Case c = rtl_test::emit_case(std::move(b), "rtl_clock_narrow", 4, ho);
  expect_every_class_meets_the_clock(c.dir / "rtl", "inrarch_ew", 8);
}

// Gathers of every kind at block 4, with constant operands: cat (blocks 3 and 1 into 4, and
// with a splat and a ROM), slice, select, reshape, expand. The step's bits and each beat's
// entries are registers read a step ahead; with the step read from its table and each
// output element's place compared with the inputs' in the step's cycle, the selects
// estimated 180-196 MHz.
TEST(RtlClock, GathersMeetThreeHundredMegahertz) {
  INRARCH_NEED_TOOL("yosys");
  ir::Bundle b{ir::Graph("gather_clock"), {}, {}, {}};
  ir::Graph& g = b.graph;
  const ir::NodeId a = g.input("a", {2, 3}), v = g.input("v", {2, 5}), x = g.input("x", {4, 8});
  const ir::NodeId y = g.input("y", {4, 6}), z = g.input("z", {4, 1});
  g.add_output("cat", g.cat({a, v}, 1));
  g.add_output("pad", g.cat({g.constant(0.0, {2, 1}), a, g.constant(Tensor({2, 4}, std::vector<double>(8, 0.25)))}, 1));
  g.add_output("slice", g.slice(x, 1, 1, 7));
  g.add_output("sel", g.select(y, 1, 5));
  g.add_output("flat", g.reshape(g.unary(Op::Neg, y), {3, 8}));
  g.add_output("expand", g.expand(z, {4, 8}));
  hls::hls_test::fill_bundle(b, 21);
  dataflow::LowerOptions lo;
  lo.block = 4;
  expect_design_meets_the_clock(b, lo, "rtl_clock_gather", "inrarch_gather", 5);
}

// A row of 40 expanded over 16 rows at 10 elements a beat: each output position reads 4 of
// the row's words, so its multiplexer spans those 4 (over the row's 40 words, it was three
// LUT levels: 270 MHz).
TEST(RtlClock, GatherOfARowMeetsThreeHundredMegahertz) {
  INRARCH_NEED_TOOL("yosys");
  ir::Bundle b{ir::Graph("row_clock"), {}, {}, {}};
  ir::Graph& g = b.graph;
  g.add_output("rows", g.expand(g.unary(Op::Neg, g.input("r", {1, 40})), {16, 40}));
  hls::hls_test::fill_bundle(b, 23);
  dataflow::LowerOptions lo;
  lo.block = 10;
  expect_design_meets_the_clock(b, lo, "rtl_clock_row", "inrarch_gather", 1);
}

// A cat of 64 rows a beat an element (448 written beats): its entry table, read whole, was
// 448 lines of LUT ROM between the line counter and the entry register (the NeRF MLP's
// 576-line cat estimated 246 MHz); kept a row long, it is a few LUTs.
TEST(RtlClock, GatherOfManyRowsMeetsThreeHundredMegahertz) {
  INRARCH_NEED_TOOL("yosys");
  ir::Bundle b{ir::Graph("cat_rows_clock"), {}, {}, {}};
  ir::Graph& g = b.graph;
  const ir::NodeId x = g.input("x", {64, 3}), t = g.input("t", {64, 1});
  g.add_output("enc", g.cat({x, g.unary(Op::Neg, x), t}, 1));
  hls::hls_test::fill_bundle(b, 43);
  dataflow::LowerOptions lo;
  lo.block = 3;
  expect_design_meets_the_clock(b, lo, "rtl_clock_cat_rows", "inrarch_gather", 1);
}

// Folded kernels (docs/rtl.md "Folded elementwise kernels"): the chunk multiplexer in front
// of the lanes' operand registers, the sub-step counter's flags and the gathered results.
// A multiply of two streams at 4 cycles a beat, one of a ROM at 8 (one lane), sin at 2, all
// at block 8, in 32- and 24-bit lanes (at 24 a chunk's offset is no power of two: a
// part-select there was a multiply-add before a shifter, 205 MHz).
TEST(RtlClock, FoldedKernelsMeetThreeHundredMegahertz) {
  INRARCH_NEED_TOOL("yosys");
  for (const int width : {32, 24}) {
    SCOPED_TRACE(width);
    ir::Bundle b{ir::Graph("folded_clock"), {}, {}, {}};
    const ir::NodeId x = b.graph.input("x", {4, 8}), z = b.graph.input("z", {4, 8});
    b.graph.add_output("mul", b.graph.binary(Op::Mul, x, z));
    b.graph.add_output("rom", b.graph.binary(Op::Mul, x, b.graph.param("w", {4, 8})));
    b.graph.add_output("sin", b.graph.unary(Op::Sin, z));
    hls::hls_test::fill_bundle(b, 5);
    dataflow::LowerOptions lo;
    lo.block = 8;
    rtl_test::Case c{b, dataflow::lower(b.graph, lo), hls::hls_test::out_dir("rtl_clock_folded_" + std::to_string(width))};
    for (size_t i = 0; i < c.design.processes.size(); ++i) {
      const dataflow::Process& p = c.design.processes[i];
      if (p.kind == dataflow::Kind::Unary || p.kind == dataflow::Kind::Binary)
        dataflow::set_ew_fold(c.design, dataflow::ProcessId(i), p.op == Op::Sin ? 2 : p.inputs.size() == 2 ? 4 : 8);
    }
    hls::hls_test::size_design(c.design);
    hls::HlsOptions ho;
    ho.type = hls::parse_number_type("fixed<" + std::to_string(width) + ",10>");
    emit_rtl(c.design, c.bundle, driver::rtl_options(c.design, c.bundle, ho), c.dir / "rtl");
    expect_every_class_meets_the_clock(c.dir / "rtl", "inrarch_ew", 3, "RAMB36E2");
  }
}

// The mm engine in its three forms (a constant B, both operands streamed, a constant A) at
// block 2 and 4 lanes, K = 8: the datapath is pipelined to a chain or two LUT levels a
// stage, so the step (whether the kernel's reads and write fire this cycle, which every
// stage register waits on) sets the clock. It is one LUT over registers and the ports: the
// row's last MAC cycle and whether the next step reads A are registers set with the step
// before, and B's buffer and A's ROM are read at registered addresses. Before, the step
// compared and ORed registers and a streamed B's buffer was read at an address it formed
// (219 MHz; a constant B 270, a constant A 275, its lanes' next slots an add and a compare).
TEST(RtlClock, MatrixProductStepMeetsThreeHundredMegahertz) {
  INRARCH_NEED_TOOL("yosys");
  ir::Bundle b{ir::Graph("mm_clock"), {}, {}, {}};
  ir::Graph& g = b.graph;
  const ir::NodeId y = g.mm(g.input("x", {4, 8}), g.param("w", {8, 4}));
  g.add_output("y", y);
  g.add_output("z", g.mm(g.param("wa", {2, 4}), g.unary(Op::Relu, y)));
  g.add_output("u", g.mm(g.input("p", {2, 8}), g.input("q", {8, 2})));
  hls::hls_test::fill_bundle(b, 29);
  rtl_test::Case c = rtl_test::emit_case(std::move(b), "rtl_clock_mm", 2, {}, 4);
  expect_every_class_meets_the_clock(c.dir / "rtl", "inrarch_mm", 3);
}

// Beat slots that wrap by a count that is no power of two: y = x [4, 2] · W [2, 9] at block
// 3 and 4 lanes, two elements a cycle into 3 slots. The slot after a cycle and the slot each
// element is routed to were a modulo by 3 of a register: a divider, 9 MHz at 24-bit lanes.
TEST(RtlClock, WrappingBeatSlotsMeetThreeHundredMegahertz) {
  INRARCH_NEED_TOOL("yosys");
  ir::Bundle b{ir::Graph("mm_wrap_clock"), {}, {}, {}};
  b.graph.add_output("y", b.graph.mm(b.graph.input("x", {4, 2}), b.graph.param("w", {2, 9})));
  hls::hls_test::fill_bundle(b, 31);
  rtl_test::Case c = rtl_test::emit_case(std::move(b), "rtl_clock_mm_wrap", 3, {}, 4);
  expect_every_class_meets_the_clock(c.dir / "rtl", "inrarch_mm", 1);
}

// Beats of 16 at 24-bit lanes, the forms of the `--max-error 1e-3` INSP design: an mm that
// routes 8 groups' sums into 16 beat slots (K = 2, 16 lanes), and a sine and an add of a
// ROM operand over 16 lanes each. The route's selects were a compare of the slot on a carry
// chain in front of the 16-way OR that feeds the slots (229-250 MHz), read from shift-register
// LUTs; the lanes' saturation flags were two LUTs each in front of the OR of all 16 into the
// kernel's sticky bit (279 MHz).
TEST(RtlClock, SixteenLaneBeatsMeetThreeHundredMegahertz) {
  INRARCH_NEED_TOOL("yosys");
  ir::Bundle b{ir::Graph("wide_beats_clock"), {}, {}, {}};
  ir::Graph& g = b.graph;
  const ir::NodeId h = g.mm(g.input("x", {4, 2}), g.param("w", {2, 32}));
  g.add_output("h", h);
  g.add_output("s", g.unary(Op::Sin, h));
  g.add_output("r", g.binary(Op::Add, h, g.param("c", {4, 32})));
  hls::hls_test::fill_bundle(b, 37);
  hls::HlsOptions ho;
  ho.type = hls::parse_number_type("fixed<24,10>");
  rtl_test::Case c = rtl_test::emit_case(std::move(b), "rtl_clock_wide_beats", 16, ho, 16);
  expect_every_class_meets_the_clock(c.dir / "rtl", "inrarch_mm|inrarch_ew", 3, "RAMB36E2");
}

}  // namespace
}  // namespace inrarch::rtl
