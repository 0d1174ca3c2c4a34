// The lane rule applied once (dataflow/attributes.h): an mm asked for more MACs than the
// products of one output beat (bC*K) stores the capped count in Process::mm_lanes, and
// every consumer reads that one field. Lowered with mm_par 4, x [6, 2] · W [2, 4] has K = 2
// (2 lanes work) and Wa [3, 6] · y has K = 6 (all 4 do); the emitted texts are read back:
// the HLS template argument (and so mm.h's array partitions and ROM banks, PAR and
// ceil(PAR/2)), the RTL top's L, the RTL B ROM's line width (L words), and the resource
// model's banks and DSPs all equal mm_lanes. Emission only: no simulator needed.
#include <regex>

#include "dataflow/attributes.h"
#include "dataflow/report.h"
#include "dataflow/resources.h"
#include "dataflow/verify.h"
#include "rtl_test_util.h"
#include "support/files.h"

namespace inrarch::rtl {
namespace {

ir::Bundle two_products() {
  ir::Bundle b{ir::Graph("mm_lanes"), {}, {}, {}};
  ir::Graph& g = b.graph;
  ir::NodeId y = g.mm(g.input("x", {6, 2}), g.param("w", {2, 4}));  // mm_rom_b, K = 2
  g.add_output("y", y);
  g.add_output("z", g.mm(g.param("wa", {3, 6}), g.unary(ir::Op::Relu, y)));  // mm_rom_a, K = 6
  hls::hls_test::fill_bundle(b, 5);
  return b;
}

// The first integer after `key` in `text` at or after `from`, -1 if none.
int64_t number_after(const std::string& text, const std::string& key, size_t from = 0) {
  const size_t at = text.find(key, from);
  if (at == std::string::npos) return -1;
  return std::stoll(text.substr(at + key.size()));
}

// The body of a template function of mm.h, from its name to the next "\n}\n".
std::string library_function(const std::string& header, const std::string& signature) {
  const size_t at = header.find(signature);
  if (at == std::string::npos) return "";
  return header.substr(at, header.find("\n}\n", at) - at);
}

TEST(MmLanes, OneStoredLaneCountEverywhere) {
  rtl_test::Case c = rtl_test::emit_case(two_products(), "mm_lanes", 1, {}, 4);
  dataflow::verify(c.design);
  const std::string model = read_file(c.dir / "hls" / "model.cpp");
  const std::string top = read_file(c.dir / "rtl" / "inrarch_top.sv");
  const dataflow::Arith arith;
  const dataflow::ResourceReport res =
      dataflow::estimate_resources(c.design, c.design.depths(), arith, dataflow::capacity(dataflow::parts().front(), {}));
  // mm.h's partitions: buffers cyclic by PAR, a ROM by ROM_BANKS = (PAR + 1) / 2.
  const std::string header = read_file(std::filesystem::path(INRARCH_SOURCE_DIR) / "src/backend/hls/include/inrarch/mm.h");
  for (const char* form : {"void mm_rom_b(int rows", "void mm_rom_a(const T a_rom"}) {
    const std::string body = library_function(header, form);
    ASSERT_FALSE(body.empty()) << form;
    EXPECT_NE(body.find("const int ROM_BANKS = (PAR + 1) / 2;"), std::string::npos) << body;
    EXPECT_NE(body.find("cyclic factor = ROM_BANKS dim = 1"), std::string::npos) << body;
    EXPECT_NE(body.find("cyclic factor = PAR dim"), std::string::npos) << body;
  }

  std::map<std::string, int64_t> lanes;  // by kernel
  for (size_t i = 0; i < c.design.processes.size(); ++i) {
    const dataflow::Process& p = c.design.processes[i];
    if (p.kind != dataflow::Kind::Mm) continue;
    SCOPED_TRACE(p.name);
    EXPECT_EQ(p.mm_par, 4);
    EXPECT_EQ(p.mm_lanes, std::min<int64_t>(4, dataflow::mm_beat_work(c.design, p)));
    lanes[p.name] = p.mm_lanes;
    const bool rom_b = p.operands[1].stream < 0;
    // HLS: inrarch_hls::mm_rom_b<L>(..) / mm_rom_a<L>(..); PAR is the partition factor.
    const int64_t par = number_after(model, std::string(rom_b ? "inrarch_hls::mm_rom_b<" : "inrarch_hls::mm_rom_a<"));
    EXPECT_EQ(par, p.mm_lanes) << model;
    // RTL: the instance u_<name>'s .L(..).
    const size_t inst = top.find(" u_" + p.name + " (");
    ASSERT_NE(inst, std::string::npos) << top;
    const size_t params = top.rfind("#(", inst);
    EXPECT_EQ(number_after(top, ".L(", params), p.mm_lanes) << top.substr(params, inst - params);
    // The resource model: L MAC lanes; the streamed A's row buffer in L banks (at most its
    // 2K words), the ROM in ceil(L/2) dual-port banks: mm.h's factors at PAR = L.
    EXPECT_EQ(res.per_process[i].dsp % p.mm_lanes, 0);
    EXPECT_EQ(res.per_process[i].dsp / p.mm_lanes, dataflow::dsp_per_mac(arith));
    int arrays = 0;
    for (const dataflow::MemArray& m : res.arrays) {
      if (m.process != dataflow::ProcessId(i)) continue;
      ++arrays;
      if (m.what == "rom") {
        EXPECT_EQ(m.banks, (par + 1) / 2) << "ROM_BANKS";
      } else {
        EXPECT_EQ(m.banks, par) << m.what;  // 2K = 4 and K*N = 24 words: at least L
      }
    }
    // The ROM and the buffer of the streamed operand; with lanes aligned with K (L = 2 of
    // K = 2) the A rows are the engine's registers and the 4-deep B a LUT ROM: none.
    EXPECT_EQ(arrays, dataflow::mm_lanes_aligned(p.mm_lanes, dataflow::mm_inner(p)) ? 0 : 2);
    // The RTL ROM of B: a line a MAC cycle, L words of 32 bits.
    if (rom_b) {
      const std::string hex = read_file(c.dir / "rtl" / (p.name + "_b.hex"));
      EXPECT_EQ(int64_t(hex.find('\n')), p.mm_lanes * 32 / 4) << hex.substr(0, 80);
    }
  }
  ASSERT_EQ(lanes.size(), 2u);
  EXPECT_EQ(lanes.begin()->second, 2);   // K = 2: capped, 4 asked
  EXPECT_EQ(lanes.rbegin()->second, 4);  // K = 6: as asked
  // The report says both.
  const nlohmann::json dj = dataflow::design_json(c.design);
  EXPECT_EQ(dj["mm_par_by_kernel"][lanes.begin()->first], 4);
  EXPECT_EQ(dj["mm_lanes_by_kernel"][lanes.begin()->first], 2);
}

// A design whose mm carries more lanes than its beat has work is refused before any
// emitter caps anything: the verifier names it (and the schedule would not model it).
TEST(MmLanes, UncappedLanesAreRefused) {
  ir::Bundle b = two_products();
  dataflow::Design d = dataflow::lower(b.graph);
  for (auto& p : d.processes)
    if (p.kind == dataflow::Kind::Mm && dataflow::mm_beat_work(d, p) == 2) p.mm_par = p.mm_lanes = 4;
  EXPECT_THROW(
      {
        try {
          dataflow::verify(d);
        } catch (const Error& e) {
          EXPECT_NE(std::string(e.what()).find("mm_lanes 4 is above the 2 products of an output beat"), std::string::npos)
              << e.what();
          throw;
        }
      },
      Error);
}

}  // namespace
}  // namespace inrarch::rtl
