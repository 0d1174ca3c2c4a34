// The generated project's own C simulation, as a user runs it: `make csim` (testbench.cpp +
// model.cpp, the shipped files, with the project's Makefile) and `./csim data [ROWS]`. The
// other modes run the same model.cpp under the simulation driver; this one is the plain
// testbench a Vitis user runs, with no driver at all.
#include <fmt/format.h>

#include <algorithm>
#include <regex>

#include "backend/hls/hls.h"
#include "backend/hls/verdict.h"
#include "support/files.h"
#include "support/process.h"

namespace inrarch::hls {

ProjectRun run_project_csim(const std::filesystem::path& dir, const SimOptions& sim) {
  namespace fs = std::filesystem;
  const std::string cd = "cd '" + dir.string() + "' && ";
  ProjectRun p;
  p.command = "make csim && ./csim data";
  SimRun& r = p.run;
  auto build = run_command(fmt::format("{}make CXX='{}' csim > sim/project_build.log 2>&1", cd, sim.cxx),
                           sim.budget_s);
  if (build.exit_code != 0) {
    r.error = build.timed_out ? "out of time building the project"
                              : "the project does not compile; see sim/project_build.log";
    return p;
  }
  const std::string rows = sim.rows > 0 ? fmt::format(" {}", sim.rows) : "";
  auto run = run_command(fmt::format("{}./csim data{} > sim/project.log 2>&1", cd, rows), sim.budget_s);
  std::error_code ec;
  const std::string log = fs::exists(dir / "sim" / "project.log", ec) ? read_file(dir / "sim" / "project.log") : "";
  // The testbench's verdict line: "type T: max abs error A, max rel error R, max scaled
  // error S: PASS|FAIL".
  std::smatch m;
  if (std::regex_search(log, m, std::regex(R"(max abs error (\S+), max rel error (\S+), max scaled error (\S+): (PASS|FAIL))"))) {
    r.completed = true;
    r.max_abs_error = std::stod(m[1]);
    r.max_rel_error = std::stod(m[2]);
    r.max_scaled_error = std::stod(m[3]);
  }
  std::smatch o;
  if (std::regex_search(log, o, std::regex(R"(overflows: (\d+))"))) r.overflow.count = std::stoll(o[1]);
  // The top's flags, as the testbench read them: "overflow_flag: 0" or "overflow_flag: 1 y, z"
  // (the outputs whose flag is set).
  std::smatch f;
  if (std::regex_search(log, f, std::regex(R"(overflow_flag: (\d) ?([^\n]*))"))) {
    r.overflow.flag = f[1] == "1";
    const std::string list = f[2];
    for (size_t at = 0; f[1] == "1" && at < list.size();) {
      const size_t end = std::min(list.find(", ", at), list.size());
      r.overflow.flagged.push_back(list.substr(at, end - at));
      at = end + 2;
    }
  }
  if (run.exit_code == 0 && m.size() > 4 && m[4] == "PASS") r.status = SimRun::Status::Pass;
  if (run.timed_out) r.error = "out of time";
  else if (m.empty()) r.error = fmt::format("no verdict (exit {}); see sim/project.log", run.exit_code);
  return p;
}

}  // namespace inrarch::hls
