#include "support/error.h"

#include <cstdio>
#include <cstdlib>

namespace inrarch {

void rethrow_with(const Error& e, const std::string& message) {
  if (dynamic_cast<const LimitError*>(&e)) throw LimitError(message);
  throw Error(message);
}

void assert_fail(const char* expr, const char* file, int line, const std::string& what) {
  std::fprintf(stderr, "inrarch: internal error at %s:%d: %s failed: %s\n", file, line, expr,
               what.c_str());
  std::abort();
}

}  // namespace inrarch
