// The precompiled header of the test executables (CMakeLists.txt): third-party and standard
// headers only, which nearly every test includes and which take most of a test file's
// compile. The project's own headers stay out, so a test still names what it uses.
#pragma once

#include <gtest/gtest.h>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <sstream>
#include <string>
#include <vector>
