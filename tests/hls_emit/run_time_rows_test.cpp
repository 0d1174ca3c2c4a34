// The number of samples is a run-time argument of the generated top: a project emitted
// from the design at 8 rows, with FIFOs sized there, streams 64 rows and passes the
// sequential, threaded and trace checks against the 64-row reference and schedules. And
// the batch is not in the code: emitting the 64-row design gives the same files.
#include "hls_test_util.h"

#include "dataflow/periodic.h"
#include "passes/rebatch.h"

namespace inrarch::hls {
namespace {

struct Rows {
  ir::Bundle bundle;
  dataflow::Design design;
};

// INSP at 64 rows and the same graph at 8, lowered alike (one chain order).
std::pair<Rows, Rows> insp_rows(int order) {
  autodiff::SirenSpec spec;
  spec.dims = {2, 16, 16, 3};
  spec.batch = 64;
  ir::Bundle b64 = autodiff::build_insp_bundle(spec, order);
  passes::optimize_bundle(b64);
  ir::Bundle b8{passes::rebatch(b64.graph, 8), passes::first_rows(b64.inputs, 64, 8), b64.params,
                passes::first_rows(b64.reference, 64, 8)};
  dataflow::LowerOptions lo;
  lo.mm_par = 4;
  lo.rows = 8;
  lo.chain_order = std::make_shared<dataflow::ChainOrder>(dataflow::chain_order(b8.graph, lo));
  dataflow::Design d8 = dataflow::lower(b8.graph, lo);
  hls_test::size_design(d8);
  lo.rows = 64;
  dataflow::Design d64 = dataflow::lower(b64.graph, lo);
  d64.set_depths(d8.depths());
  return {Rows{std::move(b8), std::move(d8)}, Rows{std::move(b64), std::move(d64)}};
}

TEST(RunTimeRows, ADesignSizedAtEightRowsStreamsSixtyFour) {
  for (int order : {1, 2}) {
    auto [at8, at64] = insp_rows(order);
    HlsOptions opt;
    opt.rows = 8;
    fs::path dir = hls_test::out_dir("rows8_order" + std::to_string(order));
    emit_hls(at8.design, at8.bundle, opt, dir);
    // 64 rows of inputs and reference values beside the compiled 8.
    HlsOptions opt64 = opt;
    opt64.rows = 64;
    fs::path dir64 = hls_test::out_dir("rows64_order" + std::to_string(order));
    emit_hls(at64.design, at64.bundle, opt64, dir64);
    for (const auto& f : fs::directory_iterator(dir64 / "data"))
      fs::copy_file(f.path(), dir / "data" / f.path().filename(), fs::copy_options::overwrite_existing);
    SimOptions sim;
    sim.rows = 64;
    const SimVerdicts v = run_simulations(at64.design, dir, opt, sim);
    SCOPED_TRACE(to_json(v).dump());
    EXPECT_TRUE(v.csim->pass());
    EXPECT_TRUE(v.threaded->pass());
    EXPECT_TRUE(v.trace->pass);
    EXPECT_EQ(size_t(v.trace->processes_checked), at64.design.processes.size());
    // The Vitis testbench as a user runs it: `csim DATA ROWS`.
    if (order == 1) {
      std::string cmd = "make -s -C '" + dir.string() + "' csim > '" + (dir / "make.log").string() +
                        "' 2>&1 && cd '" + dir.string() + "' && ./csim data 64 > csim64.log 2>&1";
      EXPECT_EQ(std::system(cmd.c_str()), 0) << hls_test::read_file(dir / "make.log");
      EXPECT_NE(hls_test::read_file(dir / "csim64.log").find("PASS"), std::string::npos);
    }
    // The same run at the compiled 8 rows: its own data.
    emit_hls(at8.design, at8.bundle, opt, dir);
    sim.rows = 0;
    EXPECT_TRUE(run_simulations(at8.design, dir, opt, sim).trace->pass);
  }
}

TEST(RunTimeRows, TheBatchIsNotInTheCode) {
  auto [at8, at64] = insp_rows(2);
  HlsOptions opt;
  opt.type = parse_number_type("float");  // no value-range exponents, which data decide
  opt.rows = 8;
  fs::path dir8 = hls_test::out_dir("same8"), dir64 = hls_test::out_dir("same64");
  emit_hls(at8.design, at8.bundle, opt, dir8);
  opt.rows = 64;
  emit_hls(at64.design, at64.bundle, opt, dir64);
  for (const char* f : {"model.cpp", "weights.h", "sim_main.cpp", "testbench.cpp"})
    EXPECT_EQ(hls_test::read_file(dir8 / f), hls_test::read_file(dir64 / f)) << f;
  std::string h8 = hls_test::read_file(dir8 / "model.h"), h64 = hls_test::read_file(dir64 / "model.h");
  EXPECT_NE(h8.find("kCompiledRows = 8;"), std::string::npos);
  EXPECT_NE(h64.find("kCompiledRows = 64;"), std::string::npos);
  auto strip = [](std::string s) {
    for (const char* n : {"8", "64"})
      for (std::string k : {std::string("kCompiledRows = ") + n + ";", std::string("verified was ") + n + "."})
        if (auto at = s.find(k); at != std::string::npos) s.erase(at, k.size());
    return s;
  };
  EXPECT_EQ(strip(h8), strip(h64));
}

}  // namespace
}  // namespace inrarch::hls
