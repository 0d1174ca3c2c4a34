// The precompiled header of every layer's library (CMakeLists.txt inrarch_layer): third-party
// and standard headers only, which most sources include (nlohmann/json through the report and
// flow headers). The project's own headers stay out, so a source still names what it uses.
#pragma once

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <sstream>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>
