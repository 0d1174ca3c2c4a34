// Runs the `inrarch` binary under test: exit code and everything it printed.
#pragma once

#include <sys/wait.h>

#include <array>
#include <cstdio>
#include <string>

namespace inrarch::test {

struct RunResult {
  int code;
  std::string output;  // stdout + stderr
};

inline RunResult run_cli(const std::string& args) {
  std::string cmd = std::string(INRARCH_BINARY) + " " + args + " 2>&1";
  RunResult r{-1, {}};
  FILE* p = popen(cmd.c_str(), "r");
  if (!p) return r;
  std::array<char, 4096> buf;
  while (size_t n = fread(buf.data(), 1, buf.size(), p)) r.output.append(buf.data(), n);
  int status = pclose(p);
  r.code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return r;
}

}  // namespace inrarch::test
