// The verilator device: the RTL kernel of OUT/rtl simulated by its Verilator testbench
// (obj_kernel/Vkernel, built on first use), its device memory answering every request
// after a fixed latency. The buffers travel as files (--in PORT=FILE, --out DIR).
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <unistd.h>

#include "runtime/runtime.h"
#include "support/error.h"
#include "support/files.h"
#include "support/process.h"

namespace inrarch::runtime {

namespace {

namespace fs = std::filesystem;

// A scratch folder removed on every exit from the run.
struct Scratch {
  fs::path dir;
  Scratch() : dir(fs::temp_directory_path() / fmt::format("inrarch-run-{}", ::getpid())) {
    fs::remove_all(dir);
    fs::create_directories(dir / "out");
  }
  ~Scratch() {
    std::error_code ec;
    fs::remove_all(dir, ec);
  }
};

class VerilatorDevice : public Device {
 public:
  explicit VerilatorDevice(DeviceOptions o) : opt_(std::move(o)), rtl_(opt_.compiled / "rtl") {}
  std::string name() const override { return "verilator"; }

  DeviceRun run(const rtl::KernelInterface& k, const std::map<std::string, Bytes>& inputs) override {
    build();
    Scratch s;
    std::string args;
    for (const auto& [port, bytes] : inputs) {
      const fs::path f = s.dir / (port + ".bin");
      write_file(f, std::string(bytes.begin(), bytes.end()));
      args += fmt::format(" --in {}={}", port, f.string());
    }
    if (opt_.progress) opt_.progress("verilator: running the kernel");
    const fs::path json = s.dir / "run.json";
    run_command(fmt::format("cd {} && ./obj_kernel/Vkernel{} --out {} --lat-min {} --lat-max {} > {} 2> {}",
                            rtl_.string(), args, (s.dir / "out").string(), opt_.mem_latency, opt_.mem_latency,
                            json.string(), (s.dir / "err.txt").string()));
    return collect(k, s.dir, read_file(json), read_file(s.dir / "err.txt"));
  }

 private:
  DeviceOptions opt_;
  fs::path rtl_;

  // obj_kernel/Vkernel: make decides whether it is current.
  void build() {
    if (!fs::exists(rtl_ / "inrarch_kernel.sv"))
      throw Error(fmt::format("run: {} holds no kernel (inrarch_kernel.sv); recompile with --rtl", rtl_.string()));
    if (opt_.progress && !fs::exists(rtl_ / "obj_kernel" / "Vkernel"))
      opt_.progress("verilator: building the kernel's simulator (once for this folder; a minute or more)");
    fs::create_directories(rtl_ / "logs");
    const auto r = run_command(fmt::format("make -C {} obj_kernel/Vkernel > {} 2>&1", rtl_.string(),
                                           (rtl_ / "logs" / "kernel_build.log").string()));
    if (r.exit_code != 0)
      throw Error(fmt::format("run: building the kernel's simulator failed; see {}",
                              (rtl_ / "logs" / "kernel_build.log").string()));
  }

  static DeviceRun collect(const rtl::KernelInterface& k, const fs::path& dir, const std::string& out,
                           const std::string& err) {
    nlohmann::json j;
    try {
      j = nlohmann::json::parse(out);
    } catch (const nlohmann::json::exception&) {
      throw Error("run: the kernel's simulator printed no result: " + (err.empty() ? out : err));
    }
    if (j.value("hang", true)) throw Error("run: the kernel did not finish (no memory traffic for 100,000 cycles)");
    if (j.value("axi_error", false)) throw Error("run: the kernel reported an AXI error");
    if (j.value("protocol_errors", 0) > 0)
      throw Error("run: the kernel broke the AXI protocol: " + j.value("first_protocol_error", std::string()));
    DeviceRun r;
    r.cycles = j.at("runs").at(0).get<uint64_t>();
    for (const auto& p : k.ports) {
      if (p.input) continue;
      const std::string bytes = read_file(dir / "out" / (p.port + ".bin"));
      r.outputs[p.port] = Bytes(bytes.begin(), bytes.end());
      r.overflow[p.port] = j.at("overflow_flags").value(p.port, false);
    }
    return r;
  }
};

}  // namespace

std::unique_ptr<Device> make_xrt_device(const DeviceOptions& opt);  // xrt_device.cpp

std::unique_ptr<Device> make_device(const DeviceOptions& opt) {
  if (opt.kind == "verilator") return std::make_unique<VerilatorDevice>(opt);
  if (opt.kind == "xrt") return make_xrt_device(opt);
  throw Error(fmt::format("run: unknown device '{}' (verilator or xrt)", opt.kind));
}

}  // namespace inrarch::runtime
