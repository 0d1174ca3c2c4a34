// emit_rtl: the checks (number type, supported processes), the emitter's context, and the
// files of OUT/rtl.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <fstream>

#include "backend/rtl/rtl_detail.h"
#include "support/error.h"
#include "support/files.h"

namespace inrarch::rtl {

namespace detail {

using dataflow::Kind;
using dataflow::ProcessId;

int Ctx::stream_exp(dataflow::StreamId s) const {
  return opt.stream_exp.empty() ? 0 : opt.stream_exp.at(s);
}

int Ctx::operand_exp(ProcessId p, size_t slot) const {
  return opt.operand_exp.empty() ? 0 : opt.operand_exp.at(p).at(slot);
}

std::string sv_words32(const std::vector<int64_t>& v) {
  std::string s;
  for (size_t k = v.size(); k-- > 0;) s += fmt::format("{}32'd{}", s.empty() ? "" : ", ", v[k]);
  return "{" + s + "}";
}

std::vector<ProcessId> input_ports(const dataflow::Design& d) {
  std::vector<ProcessId> v;
  for (size_t p = 0; p < d.processes.size(); ++p)
    if (d.processes[p].kind == Kind::Source && d.processes[p].op == ir::Op::Input) v.push_back(ProcessId(p));
  return v;
}

std::vector<ProcessId> output_ports(const dataflow::Design& d) {
  std::vector<ProcessId> v;
  for (size_t p = 0; p < d.processes.size(); ++p)
    if (d.processes[p].kind == Kind::Sink) v.push_back(ProcessId(p));
  return v;
}

}  // namespace detail

namespace {

void check_type(const RtlOptions& o) {
  // The lanes rely on the HLS accumulator ap_fixed<64, 2I+8> holding every value and
  // product of the type exactly (inrarch_lane2.sv): then the scaled and unscaled operators
  // of the HLS library agree, and a product fits the 64-bit multiply.
  if (o.width < 2 || o.width > 32 || o.int_bits < 1 || o.int_bits > 24 || o.width + o.int_bits > 56)
    throw Error(fmt::format("rtl: number type fixed<{},{}> is not supported (W <= 32, I <= 24, W + I <= 56)",
                            o.width, o.int_bits));
}

void write_bin(const std::filesystem::path& f, const Tensor& t) {
  std::ofstream o(f, std::ios::binary);
  o.write(reinterpret_cast<const char*>(t.data.data()),
          static_cast<std::streamsize>(t.data.size() * sizeof(double)));
  if (!o) throw Error("rtl: cannot write " + f.string());
}

}  // namespace

namespace detail {

Ctx make_ctx(const dataflow::Design& d, const ir::Bundle& b, const RtlOptions& opt) {
  check_type(opt);
  Ctx c{d, b, opt, 32, 22, 36, {}};
  c.w = opt.width;
  c.f = opt.width - opt.int_bits;
  c.fa = 64 - (2 * opt.int_bits + 8);
  for (size_t p = 0; p < d.processes.size(); ++p) check_process(d, ProcessId(p));
  for (const auto& s : d.streams)  // unbounded: never full, read two cycles after a write
    c.depth.push_back(s.depth == dataflow::kUnbounded ? std::max<int64_t>(s.beats(), 3) : s.depth);
  return c;
}

}  // namespace detail

void emit_rtl(const dataflow::Design& d, const ir::Bundle& b, const RtlOptions& opt,
              const std::filesystem::path& dir) {
  namespace fs = std::filesystem;
  const detail::Ctx c = detail::make_ctx(d, b, opt);
  std::vector<std::pair<std::string, std::string>> files;
  std::vector<std::string> sv;
  for (auto& f : detail::library_files()) {
    sv.push_back(f.name);
    files.emplace_back(std::move(f.name), std::move(f.text));
  }
  files.emplace_back(opt.top + ".sv", detail::top_sv(c));
  sv.push_back(opt.top + ".sv");
  const KernelInterface k = kernel_interface(d, b.graph, opt.width, opt.int_bits);
  files.emplace_back("inrarch_kernel.sv", detail::kernel_sv(c, k));
  files.emplace_back("tb_kernel.cpp", detail::kernel_tb_cpp(k));
  files.emplace_back("kernel.xml", detail::kernel_xml(k));
  files.emplace_back("kernel.json", to_json(k).dump(2) + "\n");
  for (auto& h : detail::library_headers()) files.emplace_back(std::move(h.name), std::move(h.text));
  std::vector<std::string> kernel_sv = sv;
  kernel_sv.push_back("inrarch_kernel.sv");
  files.emplace_back("package_kernel.tcl", detail::package_tcl(kernel_sv));
  files.emplace_back("tb_main.cpp", detail::tb_main_cpp(c));
  files.emplace_back("csim_dump.cpp", detail::csim_dump_cpp(c));
  const int64_t latency = model_latency(d);  // -1: the design deadlocks at its depths
  files.emplace_back("tb_top.sv", detail::icarus_tb_sv(c, 2 * std::max<int64_t>(latency, 0) + 1000));
  files.emplace_back("Makefile", detail::makefile(c, sv));
  for (auto& rom : detail::rom_files(c)) files.push_back(std::move(rom));
  for (auto& table : detail::gather_files(c)) files.push_back(std::move(table));
  const bool sine = std::any_of(d.processes.begin(), d.processes.end(), [](const dataflow::Process& p) {
    return (p.kind == dataflow::Kind::Unary || p.kind == dataflow::Kind::Binary) &&
           (p.op == ir::Op::Sin || p.op == ir::Op::Cos);
  });
  if (sine) files.emplace_back("inrarch_sin_rom.hex", detail::sin_table_hex());
  for (auto& table : detail::explog_table_files(d)) files.push_back(std::move(table));
  fs::create_directories(dir / "data");
  for (const auto& [name, text] : files) write_file(dir / name, text);
  for (dataflow::ProcessId p : detail::input_ports(d)) {
    const std::string& name = b.graph.node(d.processes[p].node).attrs.name;
    auto it = b.inputs.find(name);
    if (it == b.inputs.end()) throw Error("rtl: bundle has no value for input '" + name + "'");
    write_bin(dir / "data" / (d.processes[p].name + ".bin"), it->second);
  }
}

}  // namespace inrarch::rtl
