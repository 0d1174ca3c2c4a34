// The resource model and the part table: figures worked out by hand.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include "autodiff/models.h"
#include "dataflow/attributes.h"
#include "dataflow/lower.h"
#include "dataflow/resources.h"
#include "dataflow/gather_layout.h"
#include "dataflow/resources_detail.h"
#include "dataflow/schedule.h"
#include "support/error.h"
#include "passes/pipeline.h"

namespace inrarch::dataflow {
namespace {

// d priced at fixed<32,10> on a part too big to bind, every FIFO at depth 2.
ResourceReport priced_at_depth_two(const Design& d) {
  const Capacity big{100000, 100000, 1000, 10000000, 10000000};
  return estimate_resources(d, std::vector<int64_t>(d.streams.size(), 2), {Arith::Fixed, 32}, big);
}

// g lowered at `block` and priced so.
struct Priced {
  Design d;
  ResourceReport r;
};
Priced lowered_and_priced(const ir::Graph& g, int64_t block) {
  LowerOptions o;
  o.block = block;
  Design d = lower(g, o);
  ResourceReport r = priced_at_depth_two(d);
  return {std::move(d), std::move(r)};
}

// The pipelined lanes against Yosys 0.23 (the lane modules alone, `synth_xilinx -family xcup
// -flatten` of inrarch_lane_sqrt / _sin / _div / _explog at fixed<32,10> and fixed<16,6>,
// sin also at fixed<24,10>: docs/rtl.md "Pipelined lanes"): the model within 5 % of each
// measured count; the table lanes' DSPs exact (sin and cos: the phase product in 6 tiles, 4
// at 24 bits, 3 at 16, and the slope's 1; exp and tanh: the product by log2e likewise and
// the slope's 2; log: the slope's).
TEST(Resources, PipelinedLanesMatchYosys) {
  struct Measured { ir::Op op; int bits; int64_t lut, ff, dsp = -1; };
  for (const Measured& m : {Measured{ir::Op::Sqrt, 32, 762, 1376}, Measured{ir::Op::Sqrt, 16, 187, 423},
                            Measured{ir::Op::Div, 32, 1201, 3291}, Measured{ir::Op::Div, 16, 347, 947},
                            Measured{ir::Op::Sin, 32, 794, 1169, 7}, Measured{ir::Op::Sin, 24, 712, 1012, 5},
                            Measured{ir::Op::Cos, 16, 652, 932, 4},
                            Measured{ir::Op::Exp, 32, 891, 1480, 8}, Measured{ir::Op::Exp, 16, 708, 1218, 5},
                            Measured{ir::Op::Log, 32, 438, 903, 2}, Measured{ir::Op::Log, 16, 350, 649, 2},
                            Measured{ir::Op::Tanh, 32, 2033, 4235, 8}, Measured{ir::Op::Tanh, 16, 1864, 3961, 5}}) {
    const detail::LaneCost c = detail::lane_cost(m.op, {Arith::Fixed, m.bits});
    EXPECT_NEAR(double(c.lut), double(m.lut), 0.05 * m.lut) << ir::op_name(m.op) << " " << m.bits;
    EXPECT_NEAR(double(c.ff), double(m.ff), 0.05 * m.ff) << ir::op_name(m.op) << " " << m.bits;
    if (m.op == ir::Op::Sqrt || m.op == ir::Op::Div) {
      EXPECT_EQ(c.dsp, 0);
    }
    if (m.dsp >= 0) {
      EXPECT_EQ(c.dsp, m.dsp) << ir::op_name(m.op) << " " << m.bits;
    }
  }
}

// Folded kernels against Yosys 0.23: the classes of RtlClock.FoldedKernelsMeetThreeHundredMegahertz
// (`inrarch synth`'s per-class synthesis, fixed<32,10> and fixed<24,10>, block 8,
// 2026-12-05): a multiply of two streams at C = 4 (2 lanes), of a ROM at C = 8 (1 lane),
// sin at C = 2 (4 lanes). The model (lanes, the held operands, the gathered results, the
// chunk multiplexers, the kernel's control) within 20 % in LUTs and 15 % in flip-flops
// (model / Yosys 0.90-1.18 and 0.91-1.11), DSPs exact.
TEST(Resources, FoldedKernelsMatchYosys) {
  ir::Graph g;
  const ir::NodeId x = g.input("x", {4, 8}), z = g.input("z", {4, 8});
  g.add_output("mul", g.binary(ir::Op::Mul, x, z));
  g.add_output("rom", g.binary(ir::Op::Mul, x, g.param("w", {4, 8})));
  g.add_output("sin", g.unary(ir::Op::Sin, z));
  LowerOptions o;
  o.block = 8;
  Design d = lower(g, o);
  struct Measured { int bits; ir::Op op; size_t streamed; int64_t fold, lut, ff, dsp; };
  const Capacity big{100000, 100000, 1000, 10000000, 10000000};
  const std::vector<Measured> yosys{{32, ir::Op::Mul, 2, 4, 454, 1720, 8}, {32, ir::Op::Mul, 1, 8, 333, 1163, 4},
                                    {32, ir::Op::Sin, 1, 2, 3748, 5632, 28}, {24, ir::Op::Mul, 2, 4, 308, 1300, 4},
                                    {24, ir::Op::Mul, 1, 8, 238, 881, 2},    {24, ir::Op::Sin, 1, 2, 3328, 4780, 20}};
  for (const Measured& m : yosys) {
    ProcessId pid = -1;
    for (size_t i = 0; i < d.processes.size(); ++i)
      if (d.processes[i].op == m.op && d.processes[i].inputs.size() == m.streamed) pid = ProcessId(i);
    ASSERT_GE(pid, 0);
    set_ew_fold(d, pid, m.fold);
    const Usage u = estimate_resources(d, std::vector<int64_t>(d.streams.size(), 2), {Arith::Fixed, m.bits}, big)
                        .per_process[pid];
    const std::string what = fmt::format("{} at {} bits, C = {}", ir::op_name(m.op), m.bits, m.fold);
    EXPECT_NEAR(double(u.lut), double(m.lut), 0.2 * m.lut) << what;
    EXPECT_NEAR(double(u.ff), double(m.ff), 0.15 * m.ff) << what;
    EXPECT_EQ(u.dsp, m.dsp) << what;
  }
}

// The simple lanes and the multiply in the fabric against Yosys 0.23, each lane module alone
// (`synth_xilinx -family xcup -flatten` of inrarch_lane1 / inrarch_lane2 at F = 22 and 10,
// F = 14 at 24 bits, FA = 36; add and sub at exponents 3, 4 -> 3, the products 6, 18 -> 18: docs/rtl.md
// "Pipelined lanes"): LUTs and flip-flops within 5 %, DSPs exact; shift registers (SRL)
// are not counted as LUTs, as `inrarch synth` does not.
TEST(Resources, SimpleLanesMatchYosys) {
  struct Measured { ir::Op op; int bits; bool fabric; int64_t lut, ff, dsp; };
  for (const Measured& m : {Measured{ir::Op::Add, 32, false, 77, 142, 0}, Measured{ir::Op::Add, 16, false, 46, 98, 0},
                            Measured{ir::Op::Sub, 32, false, 77, 143, 0}, Measured{ir::Op::Sub, 16, false, 46, 99, 0},
                            Measured{ir::Op::Neg, 32, false, 33, 98, 0}, Measured{ir::Op::Neg, 16, false, 17, 50, 0},
                            Measured{ir::Op::Relu, 32, false, 36, 96, 0}, Measured{ir::Op::Relu, 16, false, 18, 48, 0},
                            Measured{ir::Op::Step, 32, false, 7, 34, 0}, Measured{ir::Op::Step, 16, false, 4, 18, 0},
                            Measured{ir::Op::Mul, 32, false, 147, 385, 4}, Measured{ir::Op::Mul, 24, false, 88, 247, 2},
                            Measured{ir::Op::Mul, 16, false, 0, 64, 1},
                            Measured{ir::Op::Mul, 32, true, 1901, 2259, 0}, Measured{ir::Op::Mul, 16, true, 426, 349, 0}}) {
    const detail::LaneCost c = detail::lane_cost(m.op, {Arith::Fixed, m.bits}, m.fabric);
    const std::string what = fmt::format("{} {}{}", ir::op_name(m.op), m.bits, m.fabric ? " fabric" : "");
    EXPECT_NEAR(double(c.lut), double(m.lut), 0.05 * m.lut + 1) << what;  // + 1: a 4-LUT lane
    EXPECT_NEAR(double(c.ff), double(m.ff), 0.05 * m.ff) << what;
    EXPECT_EQ(c.dsp, m.dsp) << what;
  }
}

TEST(Resources, DspPerProduct) {
  EXPECT_EQ(dsp_for_product(32, 32), 4);  // 2 x 2 tiles of 27 x 18
  EXPECT_EQ(dsp_for_product(27, 18), 1);
  EXPECT_EQ(dsp_for_product(18, 27), 1);  // the other orientation
  EXPECT_EQ(dsp_for_product(16, 16), 1);
  EXPECT_EQ(dsp_for_product(24, 24), 2);  // 1 x 2
  EXPECT_EQ(dsp_for_product(28, 18), 2);  // 2 x 1, or 1 x 2
  EXPECT_EQ(dsp_for_product(25, 35), 2);  // 25 on the 27 side: 1 x 2; the other way 2 x 2
  EXPECT_EQ(dsp_for_product(64, 32), 6);  // 3 x 2 beats 2 x 4
  EXPECT_EQ(dsp_per_multiply({Arith::Fixed, 32}), 4);
  EXPECT_EQ(dsp_per_multiply({Arith::Fixed, 18}), 1);
  EXPECT_EQ(dsp_per_multiply({Arith::Fixed, 24}), 2);
  EXPECT_EQ(dsp_per_multiply({Arith::Float, 32}), 3);
  EXPECT_EQ(dsp_per_multiply({Arith::Double, 64}), 11);
  EXPECT_EQ(dsp_per_mac({Arith::Fixed, 32}), 4);  // accumulates in the fabric
  EXPECT_EQ(dsp_per_mac({Arith::Float, 32}), 5);  // fmul 3 + fadd 2
}

TEST(Resources, BlockRamTiles) {
  EXPECT_EQ(bram18k_tiles(32, 1024), 2);   // two 1K x 18
  EXPECT_EQ(bram18k_tiles(32, 512), 2);    // dual-port: no 512 x 36
  EXPECT_EQ(bram18k_tiles(32, 4096), 8);
  EXPECT_EQ(bram18k_tiles(1, 16384), 1);
  EXPECT_EQ(bram18k_tiles(4, 4096), 1);
  EXPECT_EQ(uram_tiles(32, 4096), 1);
  EXPECT_EQ(uram_tiles(72, 4097), 2);
  EXPECT_EQ(uram_tiles(73, 1), 2);
}

// y = x @ W with x [8, 64] streamed and W [64, 64] a ROM of 4096 words.
Design one_mm(int64_t par) {
  ir::Graph g;
  ir::NodeId x = g.input("x", {8, 64});
  g.add_output("y", g.mm(x, g.param("w", {64, 64})));
  LowerOptions o;
  o.mm_par = par;
  return lower(g, o);
}

const MemArray& rom_of(const ResourceReport& r) {
  for (const MemArray& m : r.arrays)
    if (m.what == "rom") return m;
  throw Error("no rom");
}

TEST(Resources, RomBanksFollowBandwidth) {
  const Capacity big{100000, 100000, 1000, 10000000, 10000000};
  const Arith fx{Arith::Fixed, 32};
  auto usage = [&](int64_t par) {
    Design d = one_mm(par);
    return estimate_resources(d, std::vector<int64_t>(d.streams.size(), 2), fx, big);
  };
  // The ROM is read as P words a MAC cycle, 4096 / P deep. P = 1: one bank of 4096 x 32
  // bits, 8 BRAM18K. P = 8: 512 deep, 4 dual-port banks of 1024 words, 2 each: 8. The A
  // rows are registers (P divides K = 64: the aligned engine), no buffer.
  ResourceReport r1 = usage(1), r8 = usage(8);
  EXPECT_EQ(rom_of(r1).banks, 1);
  EXPECT_EQ(r1.per_process[1].bram18k, 8);
  EXPECT_EQ(rom_of(r8).banks, 4);
  EXPECT_EQ(r8.per_process[1].bram18k, 8);
  // P = 16: 256 deep, P = 64: 64 deep: a LUT ROM (kLutRomMaxDepth), no ROM array and no
  // block RAM.
  for (int64_t par : {16, 64}) {
    ResourceReport r = usage(par);
    EXPECT_EQ(r.per_process[1].bram18k, 0) << par;
    EXPECT_EQ(r.rom_bits, 0) << par;
  }
  ResourceReport r64 = usage(64);
  EXPECT_EQ(r64.per_process[1].dsp, 64 * 4);
  // P = 48 does not divide K: the prefix engine, and the A double buffer (128 words in 48
  // banks of 3) is LUTRAM.
  ResourceReport r48 = usage(48);
  EXPECT_EQ(r48.per_process[1].bram18k, 0);
  EXPECT_EQ(r48.buffer_bits, 48 * 3 * 32);
  // P above the work of a beat (K = 64) buys nothing and costs nothing more.
  EXPECT_EQ(usage(200).per_process[1].dsp, 64 * 4);
}

// 16 lanes of K = 64 (aligned: the adder-tree engine) against 16 of K = 60 (the prefix
// engine), both x [8, K] · W [K, 64] at fixed<24,10> with 18-bit weights: the same DSPs (one
// a product), and the aligned engine's registers per lane a fraction of the prefix
// engine's (Yosys on INSP width 32: 36,316 FF against 47,452, docs/rtl.md).
TEST(Resources, AlignedLanesCostFewerRegisters) {
  auto mm_ff = [](int64_t K, int64_t* dsp) {
    ir::Graph g;
    g.add_output("y", g.mm(g.input("x", {8, K}), g.param("w", {K, 64})));
    LowerOptions o;
    o.mm_par = 16;
    o.elem_bits = 24;
    o.weight_bits = 18;
    Design d = lower(g, o);
    ResourceReport r = estimate_unsized(d, {Arith::Fixed, 24}, capacity(find_part("u50"), {}));
    *dsp = r.per_process[1].dsp;
    return r.per_process[1].ff;
  };
  int64_t dsp_aligned = 0, dsp_prefix = 0;
  const int64_t aligned = mm_ff(64, &dsp_aligned), prefix = mm_ff(60, &dsp_prefix);
  EXPECT_TRUE(mm_lanes_aligned(16, 64));
  EXPECT_FALSE(mm_lanes_aligned(16, 60));
  EXPECT_EQ(dsp_aligned, 16);
  EXPECT_EQ(dsp_prefix, 16);
  // The aligned engine holds its A rows in registers (2 x 64 x 24 = 3,072), the prefix
  // engine's model in LUTRAM: compare the rest.
  EXPECT_LT(aligned - 2 * 64 * 24, prefix / 2);
}

TEST(Resources, ArraysMoveToUramOnlyWhenBramIsShort) {
  Design d = one_mm(8);
  const Arith fx{Arith::Fixed, 32};
  std::vector<int64_t> depths(d.streams.size(), 2);
  ResourceReport roomy = estimate_resources(d, depths, fx, {1000, 1000, 100, 1000000, 1000000});
  EXPECT_EQ(roomy.total.uram, 0);
  EXPECT_TRUE(roomy.fits);
  // 8 BRAM18K needed, 6 allowed: the ROM (4 banks of 1024 x 32) goes to URAM, 1 each.
  ResourceReport tight = estimate_resources(d, depths, fx, {1000, 6, 100, 1000000, 1000000});
  EXPECT_EQ(tight.total.bram18k, 0);
  EXPECT_EQ(tight.total.uram, 4);
  EXPECT_TRUE(tight.fits);
  ResourceReport none = estimate_resources(d, depths, fx, {1000, 6, 3, 1000000, 1000000});
  EXPECT_FALSE(none.fits);
  EXPECT_EQ(none.over, "bram");
}

// y = x * s, s a [8, 16] ROM: one multiply lane, on DSPs or in LUTs.
TEST(Resources, ElementwiseMultiplierOnDspsOrInTheFabric) {
  ir::Graph g;
  g.add_output("y", g.binary(ir::Op::Mul, g.input("x", {8, 16}), g.param("s", {8, 16})));
  const Capacity big{100000, 100000, 1000, 10000000, 10000000};
  const Arith fx{Arith::Fixed, 32};
  LowerOptions o;
  Design dsp = lower(g, o);
  o.fabric_elementwise_mul = true;
  Design lut = lower(g, o);
  std::vector<int64_t> depths(dsp.streams.size(), 2);
  Usage on_dsp = estimate_resources(dsp, depths, fx, big).per_process[1];
  Usage in_lut = estimate_resources(lut, depths, fx, big).per_process[1];
  EXPECT_EQ(on_dsp.dsp, 4);
  EXPECT_EQ(in_lut.dsp, 0);
  // Control 60 + the multiplier: on 4 DSPs the sums of their partial products, 59 * 4 / 2 +
  // 29 = 147; in the fabric a tree of adders, 2 * 32^2 - 6 * 32 = 1,856.
  EXPECT_EQ(on_dsp.lut, 60 + 147);
  EXPECT_EQ(in_lut.lut, 60 + 1856);
}

// What moves beats on wires, and the FIFOs of registers, as Yosys counts inrarch_copy,
// inrarch_source, inrarch_sink and a depth-2 inrarch_fifo (INSP's classes at 24 bits,
// docs/rtl.md §5): y = x + x on [8, 16] at block 4 is a source, a copy to two outputs, the
// add and a sink, each stream of 32 beats (a 5-bit counter and 2 flags: 7 FF); a copy 2
// LUT, a source or sink 3; a FIFO of 4 x 32 + 1 bits at depth 2 reads through a LUT a bit.
TEST(Resources, CopiesSourcesSinksAndRegisterFifos) {
  ir::Graph g;
  const ir::NodeId x = g.input("x", {8, 16});
  g.add_output("y", g.binary(ir::Op::Add, x, x));
  LowerOptions o;
  o.block = 4;
  Design d = lower(g, o);
  const ResourceReport r = priced_at_depth_two(d);
  int seen = 0;
  for (size_t i = 0; i < d.processes.size(); ++i) {
    const Kind k = d.processes[i].kind;
    if (k != Kind::Copy && k != Kind::Source && k != Kind::Sink) continue;
    SCOPED_TRACE(d.processes[i].name);
    EXPECT_EQ(r.per_process[i].lut, k == Kind::Copy ? 2 : 3);
    EXPECT_EQ(r.per_process[i].ff, 7);
    ++seen;
  }
  EXPECT_EQ(seen, 3);
  for (const Usage& f : r.per_stream) {
    EXPECT_EQ(f.lut, 129 + 8);
    EXPECT_EQ(f.ff, 2 * 129 + 4);
  }
  EXPECT_EQ(detail::fifo_usage(129, 1).lut, 8);  // one register: nothing to select
}

// A FIFO in LUT RAM as Yosys builds inrarch_fifo at 73 bits: depth 38 is 11 RAM64M8 (88
// LUTs), 6-bit pointers (three) and counts (two), 47 LUTs of logic and 106 FF; the rule
// says 88 + 7 * 6 + 4 = 134 LUT and 73 + 18 + 12 + 3 = 106 FF, and no block RAM. Depth 65
// is block RAM, 512 x 36 three wide.
TEST(Resources, ShallowFifosAreLutRam) {
  const Usage mid = detail::fifo_usage(73, 38);
  EXPECT_EQ(mid.bram18k, 0);
  EXPECT_EQ(mid.lut, 134);
  EXPECT_EQ(mid.ff, 106);
  const Usage three = detail::fifo_usage(73, 3);  // 6 RAM32M16, 2-bit pointers and counts
  EXPECT_EQ(three.lut, 48 + 7 * 2 + 4);
  EXPECT_EQ(three.ff, 73 + 6 + 4 + 3);
  EXPECT_EQ(detail::fifo_usage(73, 65).bram18k, 3);
  EXPECT_EQ(detail::fifo_usage(73, 65).lut, 40);
}

// A gather costs the multiplexers its output positions need, not a register a bit (Yosys on
// INSP's classes: a position always taken from one word is wires), and its step and entry
// tables kept to their period: a register and a LUT for each distinct column that is not
// constant (the step register, zeroed past the last step, keeps a column of ones too).
// x ++ y on [8, 16] at block 16: every position takes word e of x or of y, a 2:1
// multiplexer (a LUT a bit), 7 LUT of control; the steps alternate reading x and y, writing
// each time (2 lines, 3 step registers), and so do the entries (2 lines, one register for
// every position): 16 x 32 + 7 + 3 + 1 LUT; FF: the step counter to 16 (5 bits), 3 flags, a
// line bit for each table and the 4 table registers: 14. Its slice of the first 8 columns
// keeps position e on word e: 7 LUT; its tables are a line each (the step's read and write
// one register): 8 steps (4 bits), 3 flags and 1. A reshape of [8, 3] at block 3 into [24]
// at block 12 takes each position from one word of one of the four beats it spans, always
// the same (wires), the first three beats' 9 words from a ring of 4 beats in registers: 7
// LUT, 4 slot compares, and a step table of 4 lines (read, read, read, read and write: two
// registers); FF: 8 steps (4 bits), 3 flags, the step table's line (2) and registers, 9 x 32
// bits and the ring's 2-bit beat counter.
TEST(Resources, GathersCostTheirMultiplexers) {
  ir::Graph g;
  const ir::NodeId x = g.input("x", {8, 16}), y = g.input("y", {8, 16}), z = g.input("z", {8, 3});
  g.add_output("xy", g.cat({x, y}, 1));
  g.add_output("left", g.slice(g.unary(ir::Op::Neg, x), 1, 0, 8));
  g.add_output("flat", g.reshape(g.unary(ir::Op::Neg, z), {24}));
  const auto [d, r] = lowered_and_priced(g, 16);
  int seen = 0;
  for (size_t i = 0; i < d.processes.size(); ++i) {
    const Process& p = d.processes[i];
    const Usage& u = r.per_process[i];
    SCOPED_TRACE(p.name);
    if (p.kind == Kind::CatMap) {
      EXPECT_EQ(gather_sources(d, ProcessId(i)), std::vector<int64_t>(16, 2));
      EXPECT_EQ(u.lut, 16 * 32 + 7 + 3 + 1);
      EXPECT_EQ(u.ff, 5 + 3 + 2 + 4);
    } else if (p.kind == Kind::SliceMap) {
      EXPECT_EQ(gather_sources(d, ProcessId(i)), std::vector<int64_t>(8, 1));
      EXPECT_EQ(u.lut, 7);
      EXPECT_EQ(u.ff, 4 + 3 + 1);
    } else if (p.kind == Kind::IdentityMap && !is_pass_through(d, p)) {
      EXPECT_EQ(gather_sources(d, ProcessId(i)), std::vector<int64_t>(12, 1));
      EXPECT_EQ(u.lut, 7 + 4 + 2);
      EXPECT_EQ(u.ff, 4 + 3 + 2 + 2 + 9 * 32 + 2);
    } else {
      continue;
    }
    ++seen;
  }
  EXPECT_EQ(seen, 3);
  EXPECT_EQ(detail::gather_logic({5, 17}, 10, 1, {}).lut, 7 + 10 * 2 + 10 * (5 + 1));  // 5:1, and 17:1 as five LUT6 and a 2:1
}

// A gather that reads back from its buffer keeps a ring of its input's recent beats in
// registers (the RTL's inrarch_gather), not the whole input as an array: z [16, 5] at one
// element a beat joined into [20, 4] at block 4 writes each output beat as its fourth
// element arrives, the other three from a ring of 4 one-word beats. Position e < 3 always
// reads ring word e (wires), position 3 the fresh word: 7 LUT of control, the ring's 4
// slot compares and the step table's 2 (4 lines: the read, and the write every fourth);
// FF: the step counter (80 beats in: 7 bits), 3 flags, the step table's line (2 bits) and
// registers, the 3 ring words read (3 x 32) and the ring's 2-bit beat counter. The entries
// are the same every beat: a line, constants.
TEST(Resources, GathersKeepTheirRingInRegisters) {
  ir::Graph g;
  g.add_output("wrap", g.reshape(g.unary(ir::Op::Neg, g.input("z", {16, 5})), {20, 4}));
  const auto [d, r] = lowered_and_priced(g, 4);
  int seen = 0;
  for (size_t i = 0; i < d.processes.size(); ++i) {
    if (d.processes[i].kind != Kind::IdentityMap || is_pass_through(d, d.processes[i])) continue;
    SCOPED_TRACE(d.processes[i].name);
    const GatherLayout layout = gather_layout(d, ProcessId(i));
    EXPECT_EQ(layout.ring, std::vector<int64_t>{4});
    EXPECT_EQ(gather_sources(d, ProcessId(i)), std::vector<int64_t>(4, 1));
    EXPECT_EQ(r.per_process[i].lut, 7 + 4 + 2);
    EXPECT_EQ(r.per_process[i].ff, 7 + 3 + 2 + 2 + 3 * 32 + 2);
    EXPECT_EQ(r.per_process[i].bram18k, 0);
    ++seen;
  }
  EXPECT_EQ(seen, 1);
}

// An mm whose lanes neither divide K nor K them (the prefix engine) costs, beyond each MAC's
// 2W + 8 LUT, 8 LUT a bit of its 64-bit sums a lane (Yosys on the zoo NeRF MLP's mms of
// 137, 69 and 56 lanes: docs/rtl.md "On a model of the zoo"). x · W with W [64, 8] a
// parameter, 5 lanes against 3 (K = 64): two more MACs (2 x 72), two more lanes' sums
// (2 x 512), the weights' LUT ROM 2 x 5 x 32 bits of 103 words against 3 x 3 x 32 of 171
// (+ 32), and A's two rows in 5 banks of 26 words of LUT RAM (160) where 3 banks of 43
// are block RAM: 1,360 LUT more.
TEST(Resources, PrefixEngineLanesCostTheirSums) {
  ir::Graph g;
  g.add_output("y", g.mm(g.input("x", {8, 64}), g.param("w", {64, 8})));
  Design d = lower(g, {});
  const ProcessId mm = d.find_process("mm_2");
  ASSERT_GE(mm, 0);
  const Capacity big{100000, 100000, 1000, 10000000, 10000000};
  const std::vector<int64_t> depths(d.streams.size(), 2);
  Design three = d, five = d;
  set_mm_par(three, mm, 3);
  set_mm_par(five, mm, 5);
  const Usage u3 = estimate_resources(three, depths, {Arith::Fixed, 32}, big).per_process[mm];
  const Usage u5 = estimate_resources(five, depths, {Arith::Fixed, 32}, big).per_process[mm];
  EXPECT_EQ(u5.lut - u3.lut, 2 * 72 + 2 * 512 + 32 + 5 * 32);
  EXPECT_EQ(u3.bram18k, 6);  // a 32-bit bank is two BRAM18K of 18 bits
  EXPECT_EQ(u5.bram18k, 0);
}

// A multiply over beats of 16 folded to 4 cycles a beat: 4 lanes (16 DSPs at 32 bits, not
// 64); besides them each operand's other 12 elements held, the gathered 12 results and the
// output register's other 12 (4 * 12 * 32 = 1,536 FFs), and a 4:1 multiplexer of each
// operand (2 * 4 * 32 LUTs).
TEST(Resources, AFoldedKernelSharesItsLanes) {
  ir::Graph g;
  g.add_output("y", g.binary(ir::Op::Mul, g.input("x", {8, 16}), g.input("s", {8, 16})));
  const Capacity big{100000, 100000, 1000, 10000000, 10000000};
  const Arith fx{Arith::Fixed, 32};
  LowerOptions o;
  o.block = 16;
  Design whole = lower(g, o);
  Design folded = whole;
  const ProcessId mul = whole.find_process("mul_2");
  ASSERT_GE(mul, 0);
  set_ew_fold(folded, mul, 4);
  std::vector<int64_t> depths(whole.streams.size(), 2);
  Usage w = estimate_resources(whole, depths, fx, big).per_process[mul];
  Usage f = estimate_resources(folded, depths, fx, big).per_process[mul];
  EXPECT_EQ(w.dsp, 64);
  EXPECT_EQ(f.dsp, 16);
  const int64_t lane_luts = 147, lane_ffs = 69 * 32 / 4 - 167;
  EXPECT_EQ(w.lut - f.lut, 12 * lane_luts - 2 * 4 * 32);
  EXPECT_EQ(f.ff - w.ff, 4 * 12 * 32 - 12 * lane_ffs);
}

TEST(Resources, InspOrder1MultipliesAndFloor) {
  autodiff::SirenSpec spec;  // 2 -> 256 x 4 -> 3, batch 64
  ir::Bundle b = autodiff::build_insp_bundle(spec, 1, false);
  passes::optimize_bundle(b);
  Design d = lower(b.graph);
  // Per row: 2*256 + 3*256*256 + 256*3 forward, 9*256*256 + 3*256*2 backward MACs, and
  // 12 elementwise multiplies of 256 (3 cos scalings per output channel, and its row of
  // the last layer's weight): (789,248 + 3,072) * 64.
  EXPECT_EQ(count_multiplies(d), 50'708'480);
  // U50: 5952 DSP / 4 per 32-bit multiply = 1488 a cycle.
  EXPECT_EQ(floor_cycles(d, find_part("u50"), {Arith::Fixed, 32}), 34'079);
  EXPECT_EQ(count_dsp_work(d, {Arith::Fixed, 32}), 4 * 50'708'480);
  EXPECT_EQ(floor_cycles(d, find_part("u50"), {Arith::Fixed, 18}), 8'520);
  // 27-bit streams, 18-bit weights: every MAC (each mm's B is a weight) on one DSP48E2, the
  // 196,608 elementwise multiplies (27 x 27) on two: 50,511,872 + 393,216 = 50,905,088
  // DSP-cycles, / 5952 = 8,552.6.
  LowerOptions narrow;
  narrow.elem_bits = 27;
  narrow.weight_bits = 18;
  const Design dn = lower(b.graph, narrow);
  EXPECT_EQ(count_multiplies(dn), 50'708'480);
  EXPECT_EQ(count_dsp_work(dn, {Arith::Fixed, 27}), 50'905'088);
  EXPECT_EQ(floor_cycles(dn, find_part("u50"), {Arith::Fixed, 27}), 8'553);
  EXPECT_EQ(floor_cycles(d, find_part("u50"), {Arith::Fixed, 27}), 17'040);  // 2 DSPs each: ceil(50,708,480 / 2,976)
}

// Narrow weights (LowerOptions::weight_bits): an mm's constant B in narrower ROM words, its
// products costed at W x WB bits (hand-worked tiles of 27 x 18), its pipeline one stage for
// one DSP48E2, four otherwise (inrarch_mul_dsp), its ROM bits at WB; a constant A, an
// elementwise ROM and the streams keep W. A weight_bits above the streams' is refused.
TEST(Resources, NarrowWeightsCostTheirOwnProducts) {
  ir::Graph g("narrow");
  ir::NodeId h = g.mm(g.input("x", {8, 16}), g.param("w", {16, 12}));
  g.add_output("y", g.mm(g.param("wa", {4, 8}), g.binary(ir::Op::Mul, h, g.param("s", {8, 12}))));
  LowerOptions lo;
  lo.elem_bits = 27;
  lo.weight_bits = 18;
  lo.mm_par = 4;
  Design d = lower(g, lo);
  const Process* rom_b = nullptr;
  const Process* rom_a = nullptr;
  for (const Process& p : d.processes)
    if (p.kind == Kind::Mm) (p.operands[1].stream < 0 ? rom_b : rom_a) = &p;
  ASSERT_TRUE(rom_b && rom_a);
  EXPECT_EQ(rom_b->operands[1].rom_elem_bits, 18);
  EXPECT_EQ(rom_b->rom_bits, 16 * 12 * 18);
  EXPECT_EQ(rom_a->operands[0].rom_elem_bits, 0);
  EXPECT_EQ(rom_a->rom_bits, 4 * 8 * 27);
  // 4 lanes divide K = 16 and K = 8 (the aligned engine): 4 + 1 product stage + 2 tree
  // levels + 1 route stage; 27 x 27 takes 4 product stages.
  EXPECT_EQ(rom_b->mm_depth, 8);
  EXPECT_EQ(rom_a->mm_depth, 11);
  const Arith a{Arith::Fixed, 27};
  EXPECT_EQ(dsp_per_product(*rom_b, a), 1);
  EXPECT_EQ(dsp_per_product(*rom_a, a), 2);
  const ResourceReport r = estimate_unsized(d, a, capacity(find_part("u50"), {}));
  EXPECT_EQ(r.per_process[rom_b - d.processes.data()].dsp, 4);  // 4 lanes x 1
  EXPECT_EQ(r.per_process[rom_a - d.processes.data()].dsp, 8);  // 4 lanes x 2
  lo.weight_bits = 28;
  EXPECT_THROW(lower(g, lo), Error);
}

TEST(Parts, TableAndBudget) {
  EXPECT_EQ(parts().front().name, "u50");
  EXPECT_EQ(find_part("u50").dsp, 5952);
  EXPECT_EQ(find_part("xcu280-fsvh2892-2L-e").name, "u280");
  try {
    find_part("u51");
    FAIL();
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("u50, u280, zcu104"), std::string::npos);
  }
  Budget b = parse_budget("all=0.5,dsp=0.7");
  EXPECT_DOUBLE_EQ(b.dsp, 0.7);
  EXPECT_DOUBLE_EQ(b.lut, 0.5);
  EXPECT_DOUBLE_EQ(parse_budget("").bram, 0.8);
  for (const char* bad : {"dsp=2", "dsp=0", "foo=0.5", "dsp", "dsp=x"})
    EXPECT_THROW(parse_budget(bad), Error) << bad;
  Capacity c = capacity(find_part("u50"), parse_budget(""));
  EXPECT_EQ(c.dsp, 4761);  // floor(0.8 * 5952)
  EXPECT_EQ(c.bram18k, 2150);
  EXPECT_EQ(c.uram, 512);
}

}  // namespace
}  // namespace inrarch::dataflow
