// kernel_interface: the buffers, AXI widths and register offsets of the memory-mapped
// kernel, and their JSON form (OUT/rtl/kernel.json).
#include "backend/rtl/kernel_interface.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "backend/rtl/rtl_detail.h"
#include "support/error.h"

namespace inrarch::rtl {

int container_bits(int w) {
  for (int c : {8, 16, 32, 64})
    if (w <= c) return c;
  throw Error(fmt::format("rtl kernel: {}-bit elements do not fit a 64-bit container", w));
}

int axi_data_bits(int64_t block, int container) {
  int dw = 32;
  while (dw < 512 && dw < block * container) dw *= 2;
  return dw;
}

namespace {

KernelPort make_port(const dataflow::Design& d, dataflow::ProcessId pid, bool input, std::string tensor, int w) {
  const dataflow::Process& p = d.processes[pid];
  const dataflow::Stream& s = d.streams[input ? p.outputs.at(0) : p.inputs.at(0)];
  KernelPort k;
  k.port = p.name;
  k.tensor = std::move(tensor);
  k.input = input;
  k.shape = s.shape;
  k.elements = ir::numel(s.shape);
  k.block = s.block;
  k.container_bits = container_bits(w);
  k.data_bits = axi_data_bits(k.block, k.container_bits);
  k.bytes = k.elements * k.container_bits / 8;
  k.words = (k.bytes * 8 + k.data_bits - 1) / k.data_bits;
  return k;
}

}  // namespace

KernelInterface kernel_interface(const dataflow::Design& d, const ir::Graph& graph, int width, int int_bits) {
  KernelInterface k;
  k.width = width;
  k.frac = width - int_bits;
  for (dataflow::ProcessId p : detail::input_ports(d))
    k.ports.push_back(make_port(d, p, true, graph.node(d.processes[p].node).attrs.name, width));
  const auto outs = detail::output_ports(d);
  if (outs.size() != graph.outputs().size())
    throw Error(fmt::format("rtl kernel: {} output ports for {} graph outputs", outs.size(), graph.outputs().size()));
  for (size_t i = 0; i < outs.size(); ++i) k.ports.push_back(make_port(d, outs[i], false, graph.outputs()[i].name, width));
  for (size_t i = 0; i < k.ports.size(); ++i) {
    k.ports[i].arg_offset = uint32_t(16 + 8 * i);
    (k.ports[i].input ? k.bytes_in : k.bytes_out) += k.ports[i].bytes;
  }
  k.flags_offset = uint32_t(16 + 8 * k.ports.size());
  k.cycles_offset = k.flags_offset + 4;
  k.status_offset = k.flags_offset + 12;
  return k;
}

nlohmann::json to_json(const KernelInterface& k) {
  nlohmann::json ports = nlohmann::json::array();
  for (const KernelPort& p : k.ports)
    ports.push_back({{"port", p.port}, {"tensor", p.tensor}, {"direction", p.input ? "in" : "out"}, {"shape", p.shape},
                     {"elements", p.elements}, {"block", p.block}, {"container_bits", p.container_bits},
                     {"data_bits", p.data_bits}, {"words", p.words}, {"bytes", p.bytes}, {"arg_offset", p.arg_offset}});
  return {{"width", k.width}, {"frac", k.frac}, {"ports", ports}, {"flags_offset", k.flags_offset},
          {"cycles_offset", k.cycles_offset}, {"status_offset", k.status_offset}, {"max_burst", k.max_burst},
          {"outstanding", k.outstanding}, {"fifo_words", k.fifo_words}, {"bytes_in", k.bytes_in},
          {"bytes_out", k.bytes_out}};
}

nlohmann::json interface_report(const KernelInterface& k, int64_t cycles, double clock_mhz, double hbm_gbs) {
  nlohmann::json ports = nlohmann::json::array();
  for (const KernelPort& p : k.ports)
    ports.push_back({{"port", "m_axi_" + p.port}, {"tensor", p.tensor}, {"direction", p.input ? "in" : "out"},
                     {"shape", p.shape}, {"element_bits", k.width}, {"container_bits", p.container_bits},
                     {"data_bits", p.data_bits}, {"bytes", p.bytes}, {"arg_offset", p.arg_offset}});
  const int64_t rows = k.ports.empty() || k.ports[0].shape.empty() ? 1 : k.ports[0].shape[0];
  nlohmann::json j = {{"ports", ports}, {"rows", rows}, {"bytes_in", k.bytes_in}, {"bytes_out", k.bytes_out},
                      {"bytes_per_sample_in", double(k.bytes_in) / double(rows)},
                      {"bytes_per_sample_out", double(k.bytes_out) / double(rows)}, {"clock_mhz", clock_mhz}};
  if (cycles > 0) {
    const double gbs = double(k.bytes_in + k.bytes_out) / (double(cycles) / (clock_mhz * 1e6)) / 1e9;
    j["bandwidth_gbs"] = gbs;
    if (hbm_gbs > 0) j["hbm_gbs"] = hbm_gbs, j["hbm_share"] = gbs / hbm_gbs;
  }
  return j;
}

KernelInterface kernel_interface_from_json(const nlohmann::json& j) {
  try {
    KernelInterface k;
    k.width = j.at("width"), k.frac = j.at("frac");
    for (const auto& p : j.at("ports")) {
      KernelPort q;
      q.port = p.at("port"), q.tensor = p.at("tensor"), q.input = p.at("direction") == "in";
      q.shape = p.at("shape").get<ir::Shape>(), q.elements = p.at("elements"), q.block = p.at("block");
      q.container_bits = p.at("container_bits"), q.data_bits = p.at("data_bits"), q.words = p.at("words");
      q.bytes = p.at("bytes"), q.arg_offset = p.at("arg_offset");
      k.ports.push_back(std::move(q));
    }
    k.flags_offset = j.at("flags_offset"), k.cycles_offset = j.at("cycles_offset");
    k.status_offset = j.at("status_offset"), k.max_burst = j.at("max_burst");
    k.outstanding = j.at("outstanding"), k.fifo_words = j.at("fifo_words");
    k.bytes_in = j.at("bytes_in"), k.bytes_out = j.at("bytes_out");
    return k;
  } catch (const nlohmann::json::exception& e) {
    throw Error(std::string("kernel.json: ") + e.what());
  }
}

}  // namespace inrarch::rtl
