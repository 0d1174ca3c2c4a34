// The xrt device: the kernel on an Alveo card through XRT's native C++ API (xrt::device,
// xrt::kernel, xrt::bo), built only where XRT's headers were found (INRARCH_HAVE_XRT).
// Unverified: the machines this project is tested on have no XRT (docs/deploy.md).
#include <fmt/format.h>

#include "runtime/runtime.h"
#include "support/error.h"

#ifdef INRARCH_HAVE_XRT
#include <xrt/xrt_bo.h>
#include <xrt/xrt_device.h>
#include <xrt/xrt_kernel.h>
#endif

namespace inrarch::runtime {

#ifdef INRARCH_HAVE_XRT
namespace {

// OUT/rtl/inrarch_kernel.xclbin (the RTL kernel packaged and linked, docs/deploy.md) holds
// inrarch_kernel: one buffer argument a port, in port order, as kernel.xml declares them.
class XrtDevice : public Device {
 public:
  explicit XrtDevice(const DeviceOptions& o) : opt_(o) {}
  std::string name() const override { return "xrt"; }

  DeviceRun run(const rtl::KernelInterface& k, const std::map<std::string, Bytes>& inputs) override {
    xrt::device device(0);
    const auto uuid = device.load_xclbin((opt_.compiled / "rtl" / "inrarch_kernel.xclbin").string());
    xrt::kernel kernel(device, uuid, "inrarch_kernel");
    xrt::run run(kernel);
    std::vector<xrt::bo> bos;
    for (size_t i = 0; i < k.ports.size(); ++i) {
      const auto& p = k.ports[i];
      bos.emplace_back(device, size_t(p.bytes), kernel.group_id(int(i)));
      if (p.input) {
        bos.back().write(inputs.at(p.port).data());
        bos.back().sync(XCL_BO_SYNC_BO_TO_DEVICE);
      }
      run.set_arg(int(i), bos.back());
    }
    run.start();
    run.wait();
    DeviceRun r;
    r.cycles = uint64_t(kernel.read_register(k.cycles_offset + 4)) << 32 | kernel.read_register(k.cycles_offset);
    const uint32_t flags = kernel.read_register(k.flags_offset);
    int bit = 0;
    for (size_t i = 0; i < k.ports.size(); ++i) {
      const auto& p = k.ports[i];
      if (p.input) continue;
      bos[i].sync(XCL_BO_SYNC_BO_FROM_DEVICE);
      Bytes b(size_t(p.bytes));
      bos[i].read(b.data());
      r.outputs[p.port] = std::move(b);
      r.overflow[p.port] = (flags >> bit++) & 1;
    }
    return r;
  }

 private:
  DeviceOptions opt_;
};

}  // namespace

std::unique_ptr<Device> make_xrt_device(const DeviceOptions& opt) { return std::make_unique<XrtDevice>(opt); }
#else
std::unique_ptr<Device> make_xrt_device(const DeviceOptions&) {
  throw Error("run: --device xrt: this build has no XRT support (XRT's headers were not found when it was built; "
              "docs/deploy.md says how to build with it)");
}
#endif

}  // namespace inrarch::runtime
