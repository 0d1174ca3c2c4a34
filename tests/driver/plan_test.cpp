// Plans (driver/plan.h): the search's result as JSON by kernel name, read back strictly.
#include <gtest/gtest.h>

#include "dataflow/attributes.h"
#include "dataflow/lower.h"
#include "driver/plan.h"
#include "support/error.h"

namespace inrarch::driver {
namespace {

using nlohmann::json;

ir::Graph two_layers() {
  ir::Graph g;
  ir::NodeId h = g.unary(ir::Op::Relu, g.mm(g.input("x", {8, 2}), g.param("w1", {2, 6})));
  g.add_output("y", g.mm(h, g.param("w2", {6, 3})));
  return g;
}

std::string error_of(const json& j) {
  try {
    plan_from_json(j, "p.json");
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

TEST(Plan, RoundTripAndResolve) {
  dataflow::LowerOptions o;
  o.mm_par = 3;
  o.block = 2;
  dataflow::Design d = dataflow::lower(two_layers(), o);
  const Plan p = plan_of(d, 2);
  EXPECT_EQ(p.merge_max_group, 2);
  EXPECT_EQ(p.block, 2);
  EXPECT_EQ(plan_json(p)["block"], 2);
  EXPECT_EQ(p.mm_par, (std::map<std::string, int64_t>{{"mm_2", 3}, {"mm_5", 3}}));
  EXPECT_EQ(plan_from_json(plan_json(p), "p.json"), p);
  const dataflow::Parallelism par = resolve_plan(p, d, "p.json");
  EXPECT_EQ(par.mm_par.size(), 2u);
  EXPECT_EQ(dataflow::parallelism_names(d, par), p.mm_par);
}

TEST(Plan, StrictReading) {
  const json good = plan_json(Plan{1, false, {{"mm_2", 3}}, 1, {}});
  EXPECT_EQ(error_of(good), "");
  json j = good;
  j["version"] = 2;
  EXPECT_NE(error_of(j).find("p.json: version 2 is not 1"), std::string::npos) << error_of(j);
  j = good;
  j["merge_max_group"] = 65;
  EXPECT_NE(error_of(j).find("merge_max_group 65 is out of range"), std::string::npos) << error_of(j);
  j = good;
  j["mm_par"]["mm_2"] = "3";
  EXPECT_NE(error_of(j).find("mm_par of 'mm_2' must be an integer, got string"), std::string::npos) << error_of(j);
  j = good;
  j["mm_par"]["mm_2"] = 65537;
  EXPECT_NE(error_of(j).find("mm_par 65537 of 'mm_2' is out of range"), std::string::npos) << error_of(j);
  j = good;
  j["block"] = 0;
  EXPECT_NE(error_of(j).find("p.json: block 0 is out of range (the limit: 1 to 65536)"), std::string::npos)
      << error_of(j);
  j["block"] = 2.5;
  EXPECT_NE(error_of(j).find("p.json: block must be an integer, got number"), std::string::npos) << error_of(j);
  j.erase("block");  // a plan written before the block was searched: block 1
  EXPECT_EQ(plan_from_json(j, "p.json").block, 1);
  j = good;
  j.erase("mm_par");
  EXPECT_NE(error_of(j).find("no \"mm_par\" object"), std::string::npos) << error_of(j);
  EXPECT_NE(error_of(json::array()).find("a plan is a JSON object"), std::string::npos);
}

// A folded elementwise kernel's cycles a beat travel by name (ew_fold) and are checked
// against the design: relu_3's beats are 2 elements at block 2.
TEST(Plan, FoldsRoundTripAndAreChecked) {
  dataflow::LowerOptions o;
  o.block = 2;
  dataflow::Design d = dataflow::lower(two_layers(), o);
  dataflow::set_ew_fold(d, d.find_process("relu_3"), 2);
  const Plan p = plan_of(d, 1);
  EXPECT_EQ(p.ew_fold, (std::map<std::string, int64_t>{{"relu_3", 2}}));
  EXPECT_EQ(plan_from_json(plan_json(p), "p.json"), p);
  const dataflow::Parallelism par = resolve_plan(p, d, "p.json");
  EXPECT_EQ(par.ew_fold, (std::vector<std::pair<dataflow::ProcessId, int64_t>>{{d.find_process("relu_3"), 2}}));
  auto resolve_error = [&](const std::map<std::string, int64_t>& folds) {
    Plan q = p;
    q.ew_fold = folds;
    try {
      resolve_plan(q, d, "p.json");
    } catch (const Error& e) {
      return std::string(e.what());
    }
    return std::string();
  };
  EXPECT_NE(resolve_error({{"relu_3", 4}}).find("p.json: 4 cycles a beat for relu_3: not a power of two that divides its block 2"),
            std::string::npos)
      << resolve_error({{"relu_3", 4}});
  EXPECT_NE(resolve_error({{"mm_2", 2}}).find("p.json: 'mm_2' is not an elementwise kernel"), std::string::npos);
  json j = plan_json(p);
  j["ew_fold"] = json::array();
  EXPECT_NE(error_of(j).find("\"ew_fold\" must be an object"), std::string::npos) << error_of(j);
  j.erase("ew_fold");  // a plan without folds: every kernel at one cycle a beat
  EXPECT_TRUE(plan_from_json(j, "p.json").ew_fold.empty());
}

TEST(Plan, ResolveNamesEveryMmAndNothingElse) {
  const dataflow::Design d = dataflow::lower(two_layers());
  auto error = [&](const Plan& p) {
    try {
      resolve_plan(p, d, "p.json");
    } catch (const Error& e) {
      return std::string(e.what());
    }
    return std::string();
  };
  EXPECT_NE(error(Plan{1, false, {{"mm_2", 2}}, 1, {}}).find("p.json: no mm_par for the design's mm kernel mm_5"),
            std::string::npos);
  EXPECT_NE(error(Plan{1, false, {{"mm_2", 2}, {"mm_5", 2}, {"relu_3", 1}}, 1, {}}).find("'relu_3' is not an mm kernel"),
            std::string::npos);
  EXPECT_EQ(error(Plan{1, false, {{"mm_2", 2}, {"mm_5", 2}}, 1, {}}), "");
}

}  // namespace
}  // namespace inrarch::driver
