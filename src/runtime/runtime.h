// The host runtime (docs/deploy.md): runs a compiled design's memory-mapped kernel on a
// device. It reads the kernel's interface (OUT/rtl/kernel.json), encodes the inputs into the
// shared memory layout (fixed-point containers), hands the buffers to a Device, decodes the
// outputs and writes them as .npy with run.json (cycles, time at the clock, overflow flags).
//   run            the whole call: check every input, run, write the results folder
//   encode_input   a tensor as a port's buffer (floor onto the grid, saturate), and back
//   make_device    "verilator" (the RTL kernel under Verilator, always built) or "xrt"
#pragma once

#include <cstdint>
#include <filesystem>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "backend/rtl/kernel_interface.h"
#include "ir/tensor.h"

namespace inrarch::runtime {

using Bytes = std::vector<uint8_t>;
using Progress = std::function<void(const std::string&)>;

// What a device gives back from one run of the kernel.
struct DeviceRun {
  std::map<std::string, Bytes> outputs;  // by port
  uint64_t cycles = 0;                   // the kernel's cycle register: start to done, memory included
  std::map<std::string, bool> overflow;  // by output port: its sticky flag
};

class Device {
 public:
  virtual ~Device() = default;
  virtual std::string name() const = 0;
  // inputs: by port, each exactly its port's bytes. Throws inrarch::Error when the kernel
  // does not finish or reports an AXI error.
  virtual DeviceRun run(const rtl::KernelInterface& k, const std::map<std::string, Bytes>& inputs) = 0;
};

struct DeviceOptions {
  std::string kind = "verilator";
  std::filesystem::path compiled;  // OUT: the folder `inrarch compile --rtl` wrote
  int mem_latency = 40;            // verilator: cycles from a request to its first data or response
  Progress progress;
};
std::unique_ptr<Device> make_device(const DeviceOptions& opt);

// OUT/rtl/kernel.json; an Error saying how to make it when it is missing.
rtl::KernelInterface load_interface(const std::filesystem::path& compiled);

// The port's buffer for tensor t (its shape must be the port's: checked by run), and the
// tensor a buffer holds. *saturated is set when some value was out of the type's range.
Bytes encode_input(const rtl::KernelInterface& k, const rtl::KernelPort& p, const ir::Tensor& t, bool* saturated);
ir::Tensor decode_output(const rtl::KernelInterface& k, const rtl::KernelPort& p, const Bytes& b);

struct RunRequest {
  std::filesystem::path compiled;
  std::vector<std::pair<std::string, std::filesystem::path>> inputs;  // tensor name -> .npy
  std::filesystem::path results;  // written whole or not at all
  DeviceOptions device;
  double clock_mhz = 300;
};

struct RunResult {
  std::map<std::string, ir::Tensor> outputs;  // by tensor name
  uint64_t cycles = 0;
  double seconds = 0;  // cycles at clock_mhz
  bool input_saturated = false;
  std::vector<std::string> overflowed;  // tensors whose flag is set
  std::string device;
};

// Checks every input (names, dtype, shape) before anything runs or is written.
RunResult run(const RunRequest& r);

}  // namespace inrarch::runtime
