// What every fuzz target shares. A target feeds one input to a reader and may end in two
// ways only: normally, or with inrarch::Error (what the CLI reports as a user error, exit
// 1). Any other exception escapes LLVMFuzzerTestOneInput and aborts, as it would abort the
// tool; INRARCH_ASSERT failures and sanitizer reports abort too. Each is a bug.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>

#include "support/error.h"

namespace inrarch::fuzz {

inline std::string_view as_text(const uint8_t* data, size_t size) {
  return {reinterpret_cast<const char*>(data), size};
}

// Runs body(text), letting only inrarch::Error end it early.
template <typename Body>
int run(const uint8_t* data, size_t size, Body&& body) {
  try {
    body(as_text(data, size));
  } catch (const Error&) {
  }
  return 0;
}

}  // namespace inrarch::fuzz
