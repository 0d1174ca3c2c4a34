// Each class of the per-class synthesis beside the resource model (docs/rtl.md §5, "Yosys
// synthesis of a design"): Yosys's cells times the class's count, against the
// model's usage summed over the same instances, which report.json's resources.by_name
// lists by the names the instances carry.
#include <fmt/format.h>

#include <algorithm>

#include "backend/rtl/rtl.h"

namespace inrarch::rtl {

using nlohmann::json;

namespace {

const char* const kCompared[] = {"lut", "ff", "dsp", "bram18k", "uram"};

// One class's row, or null where an instance has no model figure (the top's own logic).
json class_row(const json& cl, const json& by_name, const ClassBand& band) {
  const json& names = cl.value("instances", json::array());
  if (names.empty()) return nullptr;
  json yosys = json::object(), model = json::object(), r = json::object();
  for (const char* k : kCompared) {
    yosys[k] = cl["cells"].value(k, int64_t(0)) * cl.value("count", int64_t(1));
    model[k] = int64_t(0);
  }
  for (const auto& n : names) {
    std::string name = n.get<std::string>();  // the instance, u_<name>
    if (name.rfind("u_", 0) == 0) name = name.substr(2);
    if (!by_name.contains(name)) return nullptr;
    for (const char* k : kCompared) model[k] = model[k].get<int64_t>() + by_name[name].value(k, int64_t(0));
  }
  bool within = true;
  for (const char* k : {"lut", "ff"}) {
    const int64_t y = yosys[k].get<int64_t>(), m = model[k].get<int64_t>();
    // Yosys over the model, null where the model counts none (within only if Yosys does not).
    r[k] = m > 0 ? json(double(y) / double(m)) : json(nullptr);
    const double x = m > 0 ? r[k].get<double>() : y == 0 ? 1.0 : 1e9;
    within = within && x >= band.low && x <= band.high;
  }
  for (const char* k : {"dsp", "bram18k", "uram"}) within = within && yosys[k] == model[k];
  return {{"class", cl.value("class", cl.value("module", ""))}, {"kind", cl.value("kind", "")},
          {"count", cl.value("count", int64_t(1))}, {"yosys", yosys}, {"model", model},
          {"ratio", r}, {"within", within}};
}

}  // namespace

json compare_classes(const json& synth, const json& by_name, const ClassBand& band) {
  json rows = json::array();
  int64_t within = 0;
  if (synth.contains("class_list") && by_name.is_object())
    for (const auto& cl : synth["class_list"]) {
      json row = class_row(cl, by_name, band);
      if (row.is_null()) continue;
      within += row["within"].get<bool>();
      rows.push_back(std::move(row));
    }
  return {{"band", {band.low, band.high}}, {"classes", rows.size()}, {"within", within}, {"by_class", rows}};
}

std::string format_class_comparison(const json& cmp) {
  const json& rows = cmp["by_class"];
  if (rows.empty()) return "(no class to set beside the model: report.json has no resources.by_name)\n";
  std::vector<const json*> order;
  for (const auto& r : rows) order.push_back(&r);
  auto worst = [](const json& r) {  // the farther of the two ratios from 1, in either direction
    double w = 1;
    for (const char* k : {"lut", "ff"})
      if (!r["ratio"][k].is_null()) w = std::max({w, r["ratio"][k].get<double>(), 1 / r["ratio"][k].get<double>()});
    return w;
  };
  std::stable_sort(order.begin(), order.end(), [&](const json* a, const json* b) { return worst(*a) > worst(*b); });
  auto cell = [](const json& v) { return v.is_null() ? std::string("-") : fmt::format("{:.2f}", v.get<double>()); };
  std::string out = fmt::format("{:<46} {:>3} {:>9} {:>9} {:>5} {:>9} {:>9} {:>5} {:>9} {:>7}\n", "class (against the model)",
                                "n", "lut", "model", "x", "ff", "model", "x", "dsp/model", "bram");
  for (const json* r : order) {
    const json &y = (*r)["yosys"], &m = (*r)["model"];
    std::string name = (*r)["class"].get<std::string>();
    if (name.rfind("inrarch_", 0) == 0) name = name.substr(8);
    if (name.size() > 46) name = name.substr(0, 43) + "...";
    out += fmt::format("{:<46} {:>3} {:>9} {:>9} {:>5} {:>9} {:>9} {:>5} {:>9} {:>7}{}\n", name, (*r)["count"].get<int64_t>(),
                       y["lut"].get<int64_t>(), m["lut"].get<int64_t>(), cell((*r)["ratio"]["lut"]), y["ff"].get<int64_t>(),
                       m["ff"].get<int64_t>(), cell((*r)["ratio"]["ff"]),
                       fmt::format("{}/{}", y["dsp"].get<int64_t>(), m["dsp"].get<int64_t>()),
                       fmt::format("{}/{}", y["bram18k"].get<int64_t>(), m["bram18k"].get<int64_t>()),
                       (*r)["within"].get<bool>() ? "" : "  *");
  }
  out += fmt::format("({} of {} classes within {:.2f}-{:.2f} of the model in LUT and FF, DSP and BRAM equal; * the others)\n",
                     cmp["within"].get<int64_t>(), cmp["classes"].get<int64_t>(), cmp["band"][0].get<double>(),
                     cmp["band"][1].get<double>());
  return out;
}

}  // namespace inrarch::rtl
