// Bundles: save/load round-trip, file naming, missing/truncated/wrong-shape .npy, atomic
// save, and load_graph's dispatch on the path.
#include "ir/bundle.h"

#include <gtest/gtest.h>

#include "io_test_util.h"
#include "ir/text.h"

namespace inrarch::ir {
namespace {

namespace fs = std::filesystem;
using testing::expect_error;
using testing::slurp;
using testing::spit;
using testing::TempDir;

Bundle small_bundle() {
  Bundle b;
  Graph& g = b.graph;
  g.set_name("small");
  NodeId x = g.input("x", {2, 3});
  NodeId w = g.param("l0.weight", {4, 3});
  NodeId v = g.param("enc/v", {4});
  NodeId h = g.mm(x, g.transpose(w));
  g.add_output("out0", g.binary(Op::Add, h, g.expand(g.unsqueeze(v, 0), {2, 4})));
  g.add_output("out/1", g.unary(Op::Sin, x));
  b.inputs["x"] = Tensor({2, 3}, {1, 2, 3, 4, 5, 6});
  b.params["l0.weight"] = Tensor({4, 3}, {.5, -1, 2, 0, 0, 1, 3, 3, 3, -0.25, 1e-300, 7});
  b.params["enc/v"] = Tensor({4}, {1, 2, 3, 4});
  b.reference["out0"] = Tensor({2, 4}, {8, 9, 10, 11, 12, 13, 14, 15});
  return b;
}

TEST(Bundle, SaveLoadRoundTrip) {
  TempDir tmp;
  const Bundle b = small_bundle();
  save_bundle(b, tmp / "m");
  for (const char* f : {"graph.json", "inputs/x.npy", "params/l0.weight.npy", "params/enc__v.npy", "reference/out0.npy"})
    EXPECT_TRUE(fs::is_regular_file(tmp / "m" / f)) << f;
  const Bundle back = load_bundle(tmp / "m");
  testing::expect_same_graph(b.graph, back.graph);
  EXPECT_EQ(back.inputs, b.inputs);
  EXPECT_EQ(back.params, b.params);
  EXPECT_EQ(back.reference, b.reference);  // out/1 has no reference: optional
  // Nothing but the bundle is left in the parent (no temporary folders).
  EXPECT_EQ(std::distance(fs::directory_iterator(tmp.path()), fs::directory_iterator()), 1);
}

TEST(Bundle, SaveReplacesAnExistingBundle) {
  TempDir tmp;
  Bundle b = small_bundle();
  save_bundle(b, tmp / "m");
  spit(tmp / "m" / "stale.txt", "old");
  b.params["enc/v"].data = {9, 9, 9, 9};
  b.reference.clear();
  save_bundle(b, tmp / "m/");
  EXPECT_FALSE(fs::exists(tmp / "m" / "stale.txt"));
  EXPECT_FALSE(fs::exists(tmp / "m" / "reference"));
  EXPECT_EQ(load_bundle(tmp / "m").params.at("enc/v").data, (std::vector<double>{9, 9, 9, 9}));
  EXPECT_EQ(std::distance(fs::directory_iterator(tmp.path()), fs::directory_iterator()), 1);
}

TEST(Bundle, SaveRefusesToReplaceANonBundleFolder) {
  TempDir tmp;
  fs::create_directories(tmp / "home");
  spit(tmp / "home" / "precious.txt", "keep me");
  expect_error([&] { save_bundle(small_bundle(), tmp / "home"); }, {"home", "not a bundle"});
  EXPECT_EQ(slurp(tmp / "home" / "precious.txt"), "keep me");
}

TEST(Bundle, SaveUnderAFileLeavesNothingBehind) {
  TempDir tmp;
  spit(tmp / "f", "a file");
  expect_error([&] { save_bundle(small_bundle(), tmp / "f" / "m"); }, {"f/m", "cannot save bundle"});
  EXPECT_EQ(slurp(tmp / "f"), "a file");
  EXPECT_EQ(std::distance(fs::directory_iterator(tmp.path()), fs::directory_iterator()), 1);
}

TEST(Bundle, SaveRefusesAnIncompleteBundle) {
  TempDir tmp;
  Bundle b = small_bundle();
  b.params.erase("l0.weight");
  expect_error([&] { save_bundle(b, tmp / "m"); }, {"param \"l0.weight\" of shape [4,3] has no tensor"});
  b = small_bundle();
  b.inputs["x"] = Tensor({3, 2});
  expect_error([&] { save_bundle(b, tmp / "m"); }, {"input \"x\" of shape [2,3] has a tensor of shape [3,2]"});
  EXPECT_FALSE(fs::exists(tmp / "m"));
}

TEST(BundleError, MissingNpyNamesTheFile) {
  TempDir tmp;
  save_bundle(small_bundle(), tmp / "m");
  fs::remove(tmp / "m" / "params" / "enc__v.npy");
  expect_error([&] { load_bundle(tmp / "m"); }, {"params/enc__v.npy", "missing .npy", "param \"enc/v\""});
}

TEST(BundleError, TruncatedNpyNamesTheFileAndSizes) {
  TempDir tmp;
  save_bundle(small_bundle(), tmp / "m");
  const fs::path f = tmp / "m" / "inputs" / "x.npy";
  const std::string bytes = slurp(f);
  spit(f, bytes.substr(0, bytes.size() - 5));
  expect_error([&] { load_bundle(tmp / "m"); }, {"inputs/x.npy", "truncated", "needs 48 bytes, found 43"});
}

TEST(BundleError, WrongShapeNpyNamesTheFile) {
  TempDir tmp;
  save_bundle(small_bundle(), tmp / "m");
  write_npy(Tensor({3, 4}), tmp / "m" / "params" / "l0.weight.npy");
  expect_error([&] { load_bundle(tmp / "m"); },
               {"params/l0.weight.npy", "shape [3,4] does not match param \"l0.weight\" of shape [4,3]"});
  save_bundle(small_bundle(), tmp / "m");
  write_npy(Tensor({4}), tmp / "m" / "reference" / "out0.npy");
  expect_error([&] { load_bundle(tmp / "m"); }, {"reference/out0.npy", "output \"out0\" of shape [2,4]"});
}

TEST(BundleError, BadFolderAndGraph) {
  TempDir tmp;
  expect_error([&] { load_bundle(tmp / "nope"); }, {"nope", "not a bundle folder"});
  fs::create_directories(tmp / "empty");
  expect_error([&] { load_bundle(tmp / "empty"); }, {"empty", "no graph.json"});
  save_bundle(small_bundle(), tmp / "m");
  spit(tmp / "m" / "graph.json", "{\"nodes\": [\n  {\"id\": 0 \"op\": \"input\"}]}");
  expect_error([&] { load_bundle(tmp / "m"); }, {"m/graph.json:2:15: malformed JSON"});
}

TEST(Bundle, LoadGraphDispatchesOnThePath) {
  TempDir tmp;
  const Bundle b = small_bundle();
  save_bundle(b, tmp / "m");
  const std::string text = print_text(b.graph);
  spit(tmp / "g.ir", text);
  spit(tmp / "g.json", graph_to_json_text(b.graph));
  spit(tmp / "g.txt", text);
  EXPECT_EQ(print_text(load_graph(tmp / "m")), text);
  EXPECT_EQ(print_text(load_graph(tmp / "g.ir")), text);
  EXPECT_EQ(print_text(load_graph(tmp / "g.json")), text);
  expect_error([&] { load_graph(tmp / "g.txt"); }, {"g.txt", "expected a bundle folder, a .ir or a .json file"});
  expect_error([&] { load_graph(tmp / "missing.ir"); }, {"missing.ir", "no such file"});
  spit(tmp / "bad.ir", "graph @g {\n  %0 = nope\n}\n");
  expect_error([&] { load_graph(tmp / "bad.ir"); }, {"bad.ir:2:8: unknown op 'nope'"});
}

}  // namespace
}  // namespace inrarch::ir
