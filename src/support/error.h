// Error reporting. User errors (bad input files, unknown ops, shape mismatches) throw
// inrarch::Error with a message that names the place; the CLI prints it and exits 1.
// A file that asks for more than the tool allows (support/limits.h) throws LimitError, an
// Error that tests and callers can tell apart. Broken internal invariants use
// INRARCH_ASSERT, which prints and aborts.
#pragma once

#include <stdexcept>
#include <string>

namespace inrarch {

class Error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// An input past one of the limits of support/limits.h (a shape, a node count, a string, a
// JSON nesting depth, a FIFO depth): the message names the file and the limit.
class LimitError : public Error {
 public:
  using Error::Error;
};

// Throws an error of the same class as `e` (LimitError stays LimitError) with a new
// message: readers add the file and place to errors thrown below them.
[[noreturn]] void rethrow_with(const Error& e, const std::string& message);

[[noreturn]] void assert_fail(const char* expr, const char* file, int line, const std::string& what);

}  // namespace inrarch

#define INRARCH_ASSERT(cond, what)                                       \
  do {                                                                   \
    if (!(cond)) ::inrarch::assert_fail(#cond, __FILE__, __LINE__, what); \
  } while (0)
