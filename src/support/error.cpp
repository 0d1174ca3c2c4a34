#include "support/error.h"

#include <cstdio>
#include <cstdlib>

namespace inrarch {

void assert_fail(const char* expr, const char* file, int line, const std::string& what) {
  std::fprintf(stderr, "inrarch: internal error at %s:%d: %s failed: %s\n", file, line, expr,
               what.c_str());
  std::abort();
}

}  // namespace inrarch
