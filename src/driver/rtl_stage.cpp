#include "driver/rtl_stage.h"

#include "backend/hls/scaling.h"
#include "support/error.h"

namespace inrarch::driver {

rtl::RtlOptions rtl_options(const dataflow::Design& d, const ir::Bundle& b, const hls::HlsOptions& ho) {
  if (ho.type.kind != hls::NumberType::Fixed)
    throw Error("rtl: number type " + ho.type.name() + " is not supported (fixed<W,I> only)");
  rtl::RtlOptions ro;
  ro.width = ho.type.width;
  ro.int_bits = ho.type.int_bits;
  ro.hls_top = ho.top;
  const hls::Scaling sc = hls::design_scaling(d, b, ho);  // as emit_hls chooses them
  ro.stream_exp = sc.stream_exp;
  ro.operand_exp = sc.operand_exp;
  return ro;
}

RtlStageResult rtl_stage(const dataflow::Design& d, const ir::Bundle& b, const hls::HlsOptions& ho,
                         const std::filesystem::path& out, bool simulate, double budget_s) {
  const rtl::RtlOptions ro = rtl_options(d, b, ho);
  RtlStageResult r;
  r.top = ro.top;
  r.kernel = rtl::kernel_interface(d, b.graph, ro.width, ro.int_bits);
  rtl::emit_rtl(d, b, ro, out / r.folder);
  if (!simulate) return r;
  rtl::RtlRunOptions run;
  run.budget_s = budget_s;
  run.other_tools = true;  // Icarus and Yosys too: every file of OUT/rtl is checked by all three
  r.run = rtl::run_rtl(d, out / r.folder, run);
  return r;
}

}  // namespace inrarch::driver
