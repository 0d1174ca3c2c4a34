// Fuzz target: the .npy reader (ir/bundle.h npy_from_bytes, which read_npy uses).
#include "fuzz_target.h"
#include "ir/bundle.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace inrarch;
  return fuzz::run(data, size, [](std::string_view bytes) {
    const Tensor t = ir::npy_from_bytes(bytes, "fuzz.npy");
    INRARCH_ASSERT(static_cast<int64_t>(t.data.size()) == numel(t.shape), ".npy: values and shape disagree");
  });
}
