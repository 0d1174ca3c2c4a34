// Precision sweep: the same design emitted with several number types, each run through the
// sequential C simulation; the table says how the output error grows as bits are removed
// (the question behind the paper's choice of ap_fixed<32,10>).
#include <fmt/format.h>

#include "backend/hls/hls.h"

namespace inrarch::hls {

std::vector<SweepRow> precision_sweep(const dataflow::Design& d, const ir::Bundle& b,
                                      const std::vector<NumberType>& types,
                                      const std::filesystem::path& work_dir,
                                      const SweepOptions& so) {
  std::vector<SweepRow> rows;
  SimOptions sim;
  sim.threaded = sim.trace = false;
  for (const auto& t : types) {
    if (so.progress)
      so.progress(fmt::format("{} ({}/{})", t.name(), rows.size() + 1, types.size()));
    HlsOptions opt;
    opt.type = t;
    opt.pow2_scaling = so.pow2_scaling;
    opt.input_range = so.input_range;
    std::string folder = t.name();
    for (char& ch : folder)
      if (ch == '<' || ch == '>' || ch == ',') ch = '_';
    std::filesystem::path dir = work_dir / folder;
    emit_hls(d, b, opt, dir);
    const SimRun c = run_simulations(d, dir, opt, sim).csim.value();
    rows.push_back({t, c.max_abs_error.value_or(-1), c.max_rel_error.value_or(-1), c.max_scaled_error.value_or(-1),
                    c.error.empty()});
  }
  return rows;
}

std::string sweep_csv(const std::vector<SweepRow>& rows) {
  std::string s = "type,width,int_bits,max_abs_error,max_rel_error,max_scaled_error,completed\n";
  for (const auto& r : rows)
    s += fmt::format("\"{}\",{},{},{:.6e},{:.6e},{:.6e},{}\n", r.type.name(),  // "fixed<W,I>" has a comma
                     r.type.kind == NumberType::Fixed ? r.type.width : 0,
                     r.type.kind == NumberType::Fixed ? r.type.int_bits : 0, r.max_abs_error,
                     r.max_rel_error, r.max_scaled_error, r.completed ? 1 : 0);
  return s;
}

}  // namespace inrarch::hls
