// Synthesis per kernel instance class (synth_classes.cpp) against Yosys's own hierarchical
// synthesis of the whole top: synth_xilinx without -flatten also synthesizes each module
// parametrization once and counts it per instance, so the per-class sum must equal its
// "design hierarchy" total cell for cell. A sum that counted a class once instead of per
// instance misses the repeated sources, copies, sinks and FIFOs.
#include "rtl_test_util.h"

#include "dataflow/report.h"
#include "dataflow/resources.h"
#include "support/files.h"
#include "support/process.h"

namespace inrarch::rtl {
namespace {

namespace fs = std::filesystem;

// x + y and x - y on [2, 4, 4]: two sources, two copies, two sinks and eight FIFOs of one
// parametrization each, so most classes stand for several instances.
ir::Bundle sum_and_difference() {
  ir::Bundle b{ir::Graph("sum_diff"), {}, {}, {}};
  const ir::NodeId x = b.graph.input("x", {2, 4, 4}), y = b.graph.input("y", {2, 4, 4});
  b.graph.add_output("sum", b.graph.binary(ir::Op::Add, x, y));
  b.graph.add_output("diff", b.graph.binary(ir::Op::Sub, x, y));
  hls::hls_test::fill_bundle(b, 3);
  return b;
}

// Yosys's unflattened synthesis of the whole top, as its `stat` counts it.
nlohmann::json hierarchical(const fs::path& dir) {
  const std::string sv = "inrarch_*.sv";
  auto run = run_command("cd '" + dir.string() + "' && yosys -q -p \"read_verilog -defer -sv $(ls " + sv +
                             " | tr '\\n' ' '); synth_xilinx -family xcup -noiopad -top inrarch_top; "
                             "tee -q -o logs/hier_stat.txt stat\" > logs/hier.log 2>&1",
                         300);
  EXPECT_EQ(run.exit_code, 0) << "see " << (dir / "logs" / "hier.log");
  return stat_cells(read_file(dir / "logs" / "hier_stat.txt"));
}

// LUT RAM and shift registers occupy LUTs, as Vivado counts its CLB LUTs: a FIFO of depth
// 38 at 73 bits is eleven RAM64M8 (88 LUTs) beside its logic. A listing, hand-written in
// `stat`'s layout: the design hierarchy's section alone is read.
TEST(RtlSynthClasses, LutRamCellsCountTheLutsTheyOccupy) {
  const std::string stat = R"(=== inrarch_fifo ===
   Number of cells:                 99
     LUT6                          500

=== design hierarchy ===
   Number of cells:                 40
     FDRE                           20
     LUT3                            4
     LUT6                            6
     RAM64M8                        11
     RAM32M16                        2
     SRLC32E                         3
     RAMB18E2                        1
)";
  const nlohmann::json c = stat_cells(stat);
  EXPECT_EQ(c["lut_memory"], 11 * 8 + 2 * 8 + 3);
  EXPECT_EQ(c["lut"], 4 + 6 + 11 * 8 + 2 * 8 + 3);
  EXPECT_EQ(c["lutram_cells"], 16);
  EXPECT_EQ(c["ff"], 20);
  EXPECT_EQ(c["bram18k"], 1);
  // A LUT RAM cell of unknown size is an error naming it, not a guess.
  try {
    stat_cells("=== design hierarchy ===\n     RAM1024X1Q                  1\n");
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("RAM1024X1Q"), std::string::npos) << e.what();
  }
}

TEST(RtlSynthClasses, PerClassSumEqualsUnflattenedSynthesis) {
  INRARCH_NEED_TOOL("yosys");
  rtl_test::Case c = rtl_test::emit_case(sum_and_difference(), "synth_classes");
  const fs::path dir = c.dir / "rtl";
  fs::remove_all(dir / "logs");
  fs::create_directories(dir / "logs");
  SynthOptions o;
  o.exact_roms = true;
  const nlohmann::json per = synthesize_classes(dir, o);
  SCOPED_TRACE(per.dump());
  const nlohmann::json whole = hierarchical(dir);
  SCOPED_TRACE(whole.dump());
  for (const char* k : {"lut", "ff", "dsp", "bram18k", "uram", "lut_memory", "lutram_cells", "carry_cells"})
    EXPECT_EQ(per[k].get<int64_t>(), whole[k].get<int64_t>()) << k;
  // Fewer classes than instances: the sum is a multiplication.
  EXPECT_LT(per["classes"].get<int64_t>(), per["instances"].get<int64_t>());
  EXPECT_EQ(per["method"], "per-class");
  EXPECT_GE(per["ff"].get<int64_t>(), 8 * 2 * 33);  // the FIFOs' registers at least
  // The kinds add up to the total.
  int64_t lut = 0, ff = 0;
  for (const auto& [kind, cells] : per["by_kind"].items()) {
    lut += cells["lut"].get<int64_t>();
    ff += cells["ff"].get<int64_t>();
  }
  EXPECT_EQ(lut, per["lut"].get<int64_t>());
  EXPECT_EQ(ff, per["ff"].get<int64_t>());
  // A second run reads every class from the cache, to the same counts.
  const nlohmann::json again = synthesize_classes(dir, o);
  EXPECT_EQ(again["cached"], again["classes"]);
  EXPECT_EQ(again["lut"], per["lut"]);
  EXPECT_EQ(again["ff"], per["ff"]);
  // An unknown method is one clear error.
  SynthOptions bad;
  bad.method = "sideways";
  EXPECT_THROW(synthesize_design(dir, bad), Error);
  // Every class is timed from its netlist; the cached run reads the same timing.
  const nlohmann::json& t = per["timing"];
  ASSERT_EQ(t["by_class"].size(), per["classes"].get<size_t>());
  for (const auto& row : t["by_class"]) {
    EXPECT_TRUE(row["est_ns"].is_number()) << row.dump();
    EXPECT_FALSE(row.contains("error")) << row.dump();
  }
  EXPECT_EQ(again["timing"]["worst"]["est_ns"], t["worst"]["est_ns"]);
  EXPECT_EQ(t["clock_mhz"], 300.0);
}

// --classes: only the matching classes are synthesized and counted, and said to be partial.
TEST(RtlSynthClasses, ClassesRegexSelectsAndTimesOnlyThose) {
  INRARCH_NEED_TOOL("yosys");
  rtl_test::Case c = rtl_test::emit_case(sum_and_difference(), "synth_classes_select");
  const fs::path dir = c.dir / "rtl";
  fs::remove_all(dir / "logs");
  SynthOptions o;
  o.classes = "^inrarch_fifo ";
  const nlohmann::json r = synthesize_design(dir, o);
  EXPECT_EQ(r["method"], "per-class");
  EXPECT_TRUE(r["partial"].get<bool>());
  ASSERT_GE(r["class_list"].size(), 1u);
  for (const auto& cl : r["class_list"]) EXPECT_EQ(cl["module"], "inrarch_fifo");
  EXPECT_EQ(r["by_kind"].size(), 1u);  // fifo only
  ASSERT_EQ(r["timing"]["by_class"].size(), r["class_list"].size());
  EXPECT_TRUE(r["timing"]["worst"]["est_ns"].is_number());
  o.classes = "no such class";
  EXPECT_THROW(synthesize_design(dir, o), Error);
  o.classes = "([";
  EXPECT_THROW(synthesize_design(dir, o), Error);
  o.classes = "fifo";
  o.method = "flattened";
  EXPECT_THROW(synthesize_design(dir, o), Error);
}

// neg and relu whose output keeps its operand's exponent, and step (a constant, 0 or T(1)
// shifted), need no fit: their lanes keep the operator's result in a register of their own.
// Through inrarch_fit_stage, whose range flags and select a class synthesized on its own
// cannot see are constant, a 24-bit relu lane took 62 LUTs where its operator takes 27. At
// 32 bits, four lanes a kernel: each class within W + 8 LUT a lane and 24 of control.
TEST(RtlSynthClasses, LanesThatNeedNoFitBuildNone) {
  INRARCH_NEED_TOOL("yosys");
  ir::Bundle b{ir::Graph("exact_lanes"), {}, {}, {}};
  const ir::NodeId x = b.graph.input("x", {4, 8});
  b.graph.add_output("r", b.graph.unary(ir::Op::Relu, x));
  b.graph.add_output("n", b.graph.unary(ir::Op::Neg, x));
  b.graph.add_output("s", b.graph.unary(ir::Op::Step, x));
  hls::hls_test::fill_bundle(b, 9);
  rtl_test::Case c = rtl_test::emit_case(std::move(b), "synth_exact_lanes", 4);
  const fs::path dir = c.dir / "rtl";
  SynthOptions o;
  o.classes = "^inrarch_ew1 ";
  const nlohmann::json r = synthesize_design(dir, o);
  ASSERT_EQ(r["class_list"].size(), 3u) << r.dump();
  const int64_t w = c.design.options.elem_bits;
  for (const auto& cl : r["class_list"]) {
    SCOPED_TRACE(cl["class"].get<std::string>());
    EXPECT_LE(cl["cells"]["lut"].get<int64_t>(), 4 * (w + 8) + 24);
  }
}

// Each class beside the model: Yosys's cells times the count against the model's sum over
// the class's instances, the farthest first; the top and classes with an instance the model
// does not name are left out. Figures worked by hand.
TEST(RtlSynthModel, ClassesAgainstTheModelSumTheirInstances) {
  const nlohmann::json synth = {
      {"class_list",
       {{{"class", "top inrarch_top"}, {"cells", {{"lut", 9}, {"ff", 9}}}, {"count", 1}, {"instances", nlohmann::json::array()}},
        {{"class", "inrarch_mm A"}, {"kind", "mm"}, {"count", 2},
         {"cells", {{"lut", 100}, {"ff", 50}, {"dsp", 4}, {"bram18k", 0}}}, {"instances", {"u_mm_1", "u_mm_2"}}},
        {{"class", "inrarch_fifo B"}, {"kind", "fifo"}, {"count", 1},
         {"cells", {{"lut", 30}, {"ff", 44}, {"dsp", 0}, {"bram18k", 0}}}, {"instances", {"u_s_a"}}},
        {{"class", "inrarch_copy C"}, {"kind", "copy"}, {"count", 1}, {"cells", {{"lut", 1}}}, {"instances", {"u_gone"}}}}}};
  const nlohmann::json by_name = {{"mm_1", {{"lut", 60}, {"ff", 50}, {"dsp", 4}}},
                                  {"mm_2", {{"lut", 40}, {"ff", 50}, {"dsp", 4}}},
                                  {"s_a", {{"lut", 40}, {"ff", 40}, {"dsp", 0}}}};
  const nlohmann::json cmp = compare_classes(synth, by_name);
  ASSERT_EQ(cmp["classes"], 2);
  EXPECT_EQ(cmp["within"], 1);
  const nlohmann::json& mm = cmp["by_class"][0];
  EXPECT_EQ(mm["yosys"]["lut"], 200);
  EXPECT_EQ(mm["model"]["lut"], 100);
  EXPECT_DOUBLE_EQ(mm["ratio"]["lut"].get<double>(), 2.0);
  EXPECT_DOUBLE_EQ(mm["ratio"]["ff"].get<double>(), 1.0);
  EXPECT_EQ(mm["yosys"]["dsp"], mm["model"]["dsp"]);
  EXPECT_FALSE(mm["within"].get<bool>());
  const nlohmann::json& fifo = cmp["by_class"][1];
  EXPECT_DOUBLE_EQ(fifo["ratio"]["lut"].get<double>(), 0.75);
  EXPECT_DOUBLE_EQ(fifo["ratio"]["ff"].get<double>(), 1.1);
  EXPECT_TRUE(fifo["within"].get<bool>());
  const std::string table = format_class_comparison(cmp);
  EXPECT_LT(table.find("mm A"), table.find("fifo B")) << table;
  EXPECT_NE(table.find("1 of 2 classes within 0.75-1.33"), std::string::npos) << table;
}

// The names the model's by_name lists are the names the synthesized instances carry, so
// every class of a real design finds its model figures.
TEST(RtlSynthModel, EveryInstanceIsNamedByTheModel) {
  INRARCH_NEED_TOOL("yosys");
  rtl_test::Case c = rtl_test::emit_case(sum_and_difference(), "synth_classes_model");
  SynthOptions o;
  o.classes = "^inrarch_(fifo|copy|ew2) ";
  const nlohmann::json r = synthesize_design(c.dir / "rtl", o);
  const dataflow::Part& part = dataflow::find_part("u50");
  const dataflow::Budget budget;
  const dataflow::ResourceReport res = dataflow::estimate_resources(
      c.design, c.design.depths(), {dataflow::Arith::Fixed, 32}, dataflow::capacity(part, budget));
  const nlohmann::json by_name = dataflow::resources_json(res, c.design, part, budget)["by_name"];
  EXPECT_EQ(by_name.size(), c.design.processes.size() + c.design.streams.size());
  const nlohmann::json cmp = compare_classes(r, by_name);
  EXPECT_EQ(cmp["classes"], r["class_list"].size()) << r["class_list"].dump();
  for (const auto& row : cmp["by_class"]) EXPECT_GT(row["model"]["ff"].get<int64_t>(), 0) << row.dump();
}

}  // namespace
}  // namespace inrarch::rtl
