// Error reporting. User errors (bad input files, unknown ops, shape mismatches) throw
// inrarch::Error with a message that names the place; the CLI prints it and exits 1.
// Broken internal invariants use INRARCH_ASSERT, which prints and aborts.
#pragma once

#include <stdexcept>
#include <string>

namespace inrarch {

class Error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

[[noreturn]] void assert_fail(const char* expr, const char* file, int line, const std::string& what);

}  // namespace inrarch

#define INRARCH_ASSERT(cond, what)                                       \
  do {                                                                   \
    if (!(cond)) ::inrarch::assert_fail(#cond, __FILE__, __LINE__, what); \
  } while (0)
