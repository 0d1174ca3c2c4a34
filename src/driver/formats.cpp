// number_formats (formats.h).
#include "driver/formats.h"

#include <fmt/format.h>

#include "support/error.h"

namespace inrarch::driver {

namespace {

// The format of the values a word of `width` bits holds when stored at exponent k in a type
// of `int_bits` integer bits.
std::string value_format(int64_t width, int int_bits, int k) { return fmt::format("fixed<{},{}>", width, int_bits - k); }

}  // namespace

nlohmann::json number_formats(const dataflow::Design& d, const hls::NumberType& type, const hls::Scaling& sc,
                              const dataflow::Arith& arith) {
  if (type.kind != hls::NumberType::Fixed) throw Error("number formats: " + type.name() + " is not fixed point");
  nlohmann::json streams = nlohmann::json::object(), by_format = nlohmann::json::object();
  for (size_t s = 0; s < d.streams.size(); ++s) {
    const std::string f = value_format(type.width, type.int_bits, sc.stream_exp[s]);
    streams[d.streams[s].name] = f;
    by_format[f] = by_format.value(f, 0) + 1;
  }
  nlohmann::json constants = nlohmann::json::object(), products = nlohmann::json::object();
  for (size_t p = 0; p < d.processes.size(); ++p) {
    const dataflow::Process& pr = d.processes[p];
    std::vector<int64_t> bits;
    for (size_t k = 0; k < pr.operands.size(); ++k) {
      const dataflow::Operand& od = pr.operands[k];
      bits.push_back(od.bits_at(type.width));
      if (od.stream < 0 && !od.splat && od.static_node != ir::kNoNode)
        constants[fmt::format("{}.{}", pr.name, k)] = value_format(bits.back(), type.int_bits, sc.operand_exp[p][k]);
    }
    if (dataflow::has_macs(pr.kind) && bits.size() == 2)
      products[pr.name] = {{"a_bits", bits[0]}, {"b_bits", bits[1]}, {"dsp", dataflow::dsp_per_product(pr, arith)}};
  }
  return {{"type", type.name()},     {"streams", streams},   {"by_format", by_format},
          {"constants", constants}, {"products", products}};
}

}  // namespace inrarch::driver
