// The memory-mapped kernel's interface (docs/deploy.md): a buffer per top-level port in the
// memory layout every back end and the host runtime share, the AXI4 master that moves it,
// and the control registers. Computed once from the design; the RTL kernel's emitter, its
// testbench, OUT/rtl/kernel.json (what `inrarch run` reads) and report.json's `interface`
// are written from it.
#pragma once

#include <nlohmann/json_fwd.hpp>

#include <cstdint>
#include <string>
#include <vector>

#include "dataflow/design.h"
#include "ir/graph.h"

namespace inrarch::rtl {

struct KernelPort {
  std::string port;    // the top's port (the source's or sink's process name), e.g. in_x
  std::string tensor;  // the model's input or output name, e.g. x
  bool input = true;
  ir::Shape shape;     // the whole tensor, batch included
  int64_t elements = 0;
  int64_t block = 1;   // elements a beat
  int container_bits = 32;  // C: the smallest of 8, 16, 32, 64 holding an element
  int data_bits = 64;       // DW: the AXI4 master's data width
  int64_t words = 0;        // DW-bit words the buffer spans
  int64_t bytes = 0;        // elements * C / 8: the buffer's size
  uint32_t arg_offset = 0;  // the address argument's register (low word; high word + 4)
};

struct KernelInterface {
  int width = 32, frac = 22;  // the elements' fixed<width, width - frac>
  std::vector<KernelPort> ports;  // inputs, then outputs, in design order
  uint32_t flags_offset = 0, cycles_offset = 0, status_offset = 0;
  int max_burst = 64, outstanding = 4, fifo_words = 128;
  int64_t bytes_in = 0, bytes_out = 0;  // per run
};

// The interface of design d (fixed<width, int_bits> elements); graph names its tensors.
KernelInterface kernel_interface(const dataflow::Design& d, const ir::Graph& graph, int width, int int_bits);

// C: the smallest of 8, 16, 32 and 64 that is at least w; DW: the beat's containers rounded
// up to a power of two, 32 to 512 bits.
int container_bits(int w);
int axi_data_bits(int64_t block, int container);

nlohmann::json to_json(const KernelInterface& k);
// report.json's `interface`: the ports, the bytes a sample moves in and out, and the memory
// bandwidth a run of `cycles` cycles at clock_mhz needs beside the part's (hbm_gbs; 0: none).
nlohmann::json interface_report(const KernelInterface& k, int64_t cycles, double clock_mhz, double hbm_gbs);
KernelInterface kernel_interface_from_json(const nlohmann::json& j);  // throws inrarch::Error

}  // namespace inrarch::rtl
