// How the report draws a design (driver/report_html_detail.h): copies folded into one node
// per value fanned out, kernels clustered by the outputs they feed.
#include <gtest/gtest.h>

#include "driver/report_html_detail.h"

namespace inrarch::driver::html {
namespace {

// sin's value reaches three consumers through a chain of two copies.
json chain_design() {
  json procs = json::array();
  for (const auto& [name, kind] : std::vector<std::pair<std::string, std::string>>{
           {"in_x", "source"}, {"sin_1", "unary"}, {"copy_sin_1", "copy"}, {"copy_sin_1_1", "copy"},
           {"neg_2", "unary"}, {"neg_3", "unary"}, {"neg_4", "unary"}, {"out_a", "sink"}, {"out_b", "sink"},
           {"out_c", "sink"}})
    procs.push_back({{"name", name}, {"kind", kind}});
  json streams = json::array();
  for (const auto& [from, to] : std::vector<std::pair<int, int>>{
           {0, 1}, {1, 2}, {2, 4}, {2, 3}, {3, 5}, {3, 6}, {4, 7}, {5, 8}, {6, 9}})
    streams.push_back({{"name", "s" + std::to_string(from) + "_" + std::to_string(to)}, {"from", from}, {"to", to},
                       {"depth", from == 2 && to == 3 ? 9 : 2}});
  return {{"processes", procs}, {"streams", streams}};
}

TEST(ReportDesignView, FoldsACopyChainIntoOneNode) {
  const DesignView v = design_view(chain_design());
  ASSERT_EQ(v.nodes.size(), 9u);  // 8 processes that are not copies, and the chain
  EXPECT_EQ(v.copy_groups, 1);
  EXPECT_EQ(v.node_of_process[2], v.node_of_process[3]);
  const DesignView::Node& chain = v.nodes[v.node_of_process[2]];
  EXPECT_EQ(chain.label, "copy ×2");
  EXPECT_EQ(chain.processes, (std::vector<int>{2, 3}));
  // sin and its copies feed every output; each neg one: one cluster of two nodes.
  ASSERT_EQ(v.clusters, (std::vector<std::string>{"feeds every output"}));
  EXPECT_EQ(v.nodes[v.node_of_process[1]].cluster, 0);
  EXPECT_EQ(chain.cluster, 0);
  EXPECT_EQ(v.nodes[v.node_of_process[4]].cluster, -1);
  EXPECT_EQ(v.nodes[v.node_of_process[0]].cluster, -1);  // sources and sinks stay outside
}

TEST(ReportDesignView, FormatsNumbersAndEscapesText) {
  EXPECT_EQ(num(json(47854)), "47,854");
  EXPECT_EQ(num(json(-1234567)), "-1,234,567");
  EXPECT_EQ(num(json(2.5e-7)), "2.5e-07");
  EXPECT_EQ(num(json(nullptr)), "–");
  EXPECT_EQ(esc("<a href=\"x\">&</a>"), "&lt;a href=&quot;x&quot;&gt;&amp;&lt;/a&gt;");
}

}  // namespace
}  // namespace inrarch::driver::html
