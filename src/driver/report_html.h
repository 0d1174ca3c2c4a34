// The report of a compiled design as one self-contained HTML page (docs/report_html.md):
// summary, dataflow graph (Graphviz's dot, inlined), deadlock cycle, FIFO occupancy,
// kernel activity, FIFO depths, the search's front and the precision sweep. Inline SVG and
// CSS, no script, nothing fetched: the page opens from a file anywhere.
#pragma once

#include <filesystem>
#include <string>

#include <nlohmann/json.hpp>

#include "dataflow/design.h"
#include "ir/graph.h"

namespace inrarch::driver {

inline constexpr const char* kReportHtmlFile = "report.html";

// The page from report.json's sections (or analyze's JSON) and the data file
// (driver/report_data.h; null: the sections that need it say so).
std::string render_report_html(const nlohmann::json& report, const nlohmann::json& data, const std::string& title);

// Reads OUT/report.json and OUT/activity.json of a compile output and writes `file`
// (default OUT/report.html) atomically; returns the file written. Throws inrarch::Error
// naming the folder when it is not a compile output.
std::filesystem::path write_report_html(const std::filesystem::path& compile_out, const std::filesystem::path& file = {});

// `analyze --report FILE`: the page of design `d` at its depths; `sections` is analyze's
// JSON (design, analysis, deadlock, cycle, fifo?), `g` the graph it lowers.
void write_analysis_report_html(const std::filesystem::path& file, const ir::Graph& g, const dataflow::Design& d,
                                const nlohmann::json& sections);

}  // namespace inrarch::driver
