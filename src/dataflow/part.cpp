#include "dataflow/part.h"

#include <cmath>
#include <cstdlib>

#include "support/error.h"

namespace inrarch::dataflow {

const std::vector<Part>& parts() {
  // Totals from the vendors' product tables (docs/resources.md): BRAM36 counts doubled.
  static const std::vector<Part> kParts = {
      {"u50", "xcu50-fsvh2104-2-e", 5952, 2688, 640, 871680, 1743360, 300},
      {"u280", "xcu280-fsvh2892-2L-e", 9024, 4032, 960, 1303680, 2607360, 300},
      {"zcu104", "xczu7ev-ffvc1156-2-e", 1728, 624, 96, 230400, 460800, 300},
  };
  return kParts;
}

const Part& find_part(const std::string& name) {
  std::string known;
  for (const Part& p : parts()) {
    if (p.name == name || p.device == name) return p;
    known += (known.empty() ? "" : ", ") + p.name;
  }
  throw Error("unknown part '" + name + "' (known: " + known + ")");
}

namespace {

double parse_fraction(const std::string& entry, const std::string& value) {
  char* end = nullptr;
  double f = std::strtod(value.c_str(), &end);
  if (value.empty() || *end != '\0' || !std::isfinite(f) || f <= 0 || f > 1)
    throw Error("budget entry '" + entry + "': the fraction must be a number in (0, 1]");
  return f;
}

}  // namespace

Budget parse_budget(const std::string& text) {
  Budget b;
  size_t pos = 0;
  while (pos <= text.size()) {
    size_t comma = text.find(',', pos);
    std::string entry = text.substr(pos, comma == std::string::npos ? std::string::npos : comma - pos);
    pos = comma == std::string::npos ? text.size() + 1 : comma + 1;
    if (entry.empty()) continue;
    size_t eq = entry.find('=');
    if (eq == std::string::npos)
      throw Error("budget entry '" + entry + "': expected NAME=FRACTION (dsp, bram, uram, lut, ff, all)");
    std::string key = entry.substr(0, eq);
    double f = parse_fraction(entry, entry.substr(eq + 1));
    if (key == "dsp") b.dsp = f;
    else if (key == "bram") b.bram = f;
    else if (key == "uram") b.uram = f;
    else if (key == "lut") b.lut = f;
    else if (key == "ff") b.ff = f;
    else if (key == "all") b = Budget{f, f, f, f, f};
    else throw Error("budget entry '" + entry + "': unknown resource '" + key +
                     "' (dsp, bram, uram, lut, ff, all)");
  }
  return b;
}

Capacity capacity(const Part& part, const Budget& b) {
  auto share = [](int64_t total, double f) {
    return static_cast<int64_t>(std::floor(static_cast<double>(total) * f + 1e-9));
  };
  return {share(part.dsp, b.dsp), share(part.bram18k, b.bram), share(part.uram, b.uram),
          share(part.lut, b.lut), share(part.ff, b.ff)};
}

}  // namespace inrarch::dataflow
