// The precompiled header of the command-line tool (CMakeLists.txt): every src/cli source
// includes CLI11, whose header-only templates took 20 s a file to compile.
#pragma once

#include <CLI/CLI.hpp>
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <string>
#include <vector>
