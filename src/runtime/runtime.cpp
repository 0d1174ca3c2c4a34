// run: the inputs checked and encoded, the device's run, the outputs decoded and written.
#include "runtime/runtime.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <cmath>
#include <set>

#include "ir/bundle.h"
#include "support/error.h"
#include "support/files.h"
#include "support/staging.h"

namespace inrarch::runtime {

namespace fs = std::filesystem;

rtl::KernelInterface load_interface(const fs::path& compiled) {
  const fs::path file = compiled / "rtl" / "kernel.json";
  if (!fs::exists(file))
    throw Error(fmt::format("run: {} not found: compile the design with `inrarch compile ... --rtl -o {}` first",
                            file.string(), compiled.string()));
  return rtl::kernel_interface_from_json(nlohmann::json::parse(read_file(file)));
}

// fit<ap_fixed<W, W - F>> as the HLS testbench's tb::feed: floor onto the grid, saturate
// (NaN: 0); the W bits sign-extended into the C-bit little-endian container.
Bytes encode_input(const rtl::KernelInterface& k, const rtl::KernelPort& p, const ir::Tensor& t, bool* saturated) {
  const int bytes = p.container_bits / 8;
  const double top = std::ldexp(1.0, k.width - 1);
  Bytes b(size_t(p.bytes));
  for (size_t e = 0; e < t.data.size(); ++e) {
    double x = std::isnan(t.data[e]) ? 0.0 : std::floor(std::ldexp(t.data[e], k.frac));
    if (!(x >= -top && x <= top - 1)) *saturated = true;
    x = x < -top ? -top : x > top - 1 ? top - 1 : x;
    const uint64_t raw = uint64_t(int64_t(x));
    for (int i = 0; i < bytes; ++i) b[e * bytes + i] = uint8_t(raw >> (8 * i));
  }
  return b;
}

ir::Tensor decode_output(const rtl::KernelInterface& k, const rtl::KernelPort& p, const Bytes& b) {
  const int bytes = p.container_bits / 8;
  ir::Tensor t;
  t.shape = p.shape;
  t.data.resize(size_t(p.elements));
  for (size_t e = 0; e < t.data.size(); ++e) {
    uint64_t v = 0;
    for (int i = 0; i < bytes; ++i) v |= uint64_t(b.at(e * bytes + i)) << (8 * i);
    const int64_t raw = p.container_bits == 64 ? int64_t(v) : int64_t(v << (64 - p.container_bits)) >> (64 - p.container_bits);
    t.data[e] = std::ldexp(double(raw), -k.frac);
  }
  return t;
}

namespace {

std::string names(const rtl::KernelInterface& k, bool inputs) {
  std::string s;
  for (const auto& p : k.ports)
    if (p.input == inputs) s += (s.empty() ? "" : ", ") + p.tensor;
  return s.empty() ? "none" : s;
}

std::string shape_text(const ir::Shape& s) {
  std::string t = "(";
  for (size_t i = 0; i < s.size(); ++i) t += (i ? ", " : "") + std::to_string(s[i]);
  return t + (s.size() == 1 ? ",)" : ")");
}

// Every input named once, every name an input, each file a float array of the port's shape.
std::map<std::string, Bytes> check_and_encode(const rtl::KernelInterface& k, const RunRequest& r, bool* saturated) {
  std::map<std::string, fs::path> given;
  for (const auto& [name, file] : r.inputs) {
    const bool known = std::any_of(k.ports.begin(), k.ports.end(), [&](const auto& p) { return p.input && p.tensor == name; });
    if (!known) throw Error(fmt::format("run: --input {}: the kernel has no input '{}' (its inputs: {})", name, name, names(k, true)));
    if (!given.emplace(name, file).second) throw Error(fmt::format("run: --input {} is given twice", name));
  }
  std::map<std::string, Bytes> buffers;
  for (const auto& p : k.ports) {
    if (!p.input) continue;
    auto it = given.find(p.tensor);
    if (it == given.end())
      throw Error(fmt::format("run: no --input for '{}' (the kernel's inputs: {})", p.tensor, names(k, true)));
    const std::string bytes = read_file(it->second), file = it->second.string();
    const std::string dtype = ir::npy_dtype(bytes, file);
    if (dtype != "<f8" && dtype != "<f4")
      throw Error(fmt::format("run: {}: dtype '{}'; input '{}' takes float64 or float32 (<f8, <f4)", file, dtype, p.tensor));
    const ir::Tensor t = ir::npy_from_bytes(bytes, file);
    if (t.shape != p.shape)
      throw Error(fmt::format("run: {}: shape {}; input '{}' of this kernel is {} (the compiled batch)", file,
                              shape_text(t.shape), p.tensor, shape_text(p.shape)));
    buffers[p.port] = encode_input(k, p, t, saturated);
  }
  return buffers;
}

void write_results(const RunRequest& r, const RunResult& res) {
  StagingDir stage(r.results, "run.json", "run results");
  nlohmann::json outputs = nlohmann::json::object();
  for (const auto& [name, t] : res.outputs) {
    std::string file = name + ".npy";  // a '/' in a name is written as "__", as in a bundle
    for (size_t at; (at = file.find('/')) != std::string::npos;) file.replace(at, 1, "__");
    ir::write_npy(t, stage.path() / file);
    outputs[name] = file;
  }
  const nlohmann::json j = {{"device", res.device}, {"cycles", res.cycles}, {"clock_mhz", r.clock_mhz},
                            {"seconds", res.seconds}, {"outputs", outputs}, {"overflow", res.overflowed},
                            {"input_saturated", res.input_saturated}, {"compiled", fs::absolute(r.compiled).string()}};
  write_file(stage.path() / "run.json", j.dump(2) + "\n");
  stage.commit();
}

}  // namespace

RunResult run(const RunRequest& r) {
  const rtl::KernelInterface k = load_interface(r.compiled);
  RunResult res;
  const auto inputs = check_and_encode(k, r, &res.input_saturated);
  auto device = make_device(r.device);
  res.device = device->name();
  const DeviceRun dr = device->run(k, inputs);
  for (const auto& p : k.ports) {
    if (p.input) continue;
    res.outputs[p.tensor] = decode_output(k, p, dr.outputs.at(p.port));
    if (dr.overflow.count(p.port) && dr.overflow.at(p.port)) res.overflowed.push_back(p.tensor);
  }
  res.cycles = dr.cycles;
  res.seconds = double(dr.cycles) / (r.clock_mhz * 1e6);
  write_results(r, res);
  return res;
}

}  // namespace inrarch::runtime
